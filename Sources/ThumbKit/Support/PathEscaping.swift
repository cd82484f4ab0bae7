/// Turns file names into text that is safe to print on one terminal line.
///
/// File names on Linux are arbitrary bytes except `/` and NUL. A name with a newline would break
/// the one-failure-per-line contract, and escape sequences could drive the terminal, so:
/// `\n`, `\r`, `\t` and `\\` use their C escapes, every other control character (C0, DEL, C1) and
/// every byte that is not part of valid UTF-8 becomes `\xNN` (one per byte). Printable Unicode
/// passes through unchanged. The mapping is injective, so distinct names stay distinct, and
/// `unescape` reverses it: the manifest stores names this way and reads back the exact bytes.
package enum PathEscaping {
    /// The escaped form of a path given as raw bytes.
    package static func escape(bytes: [UInt8]) -> String {
        // Most paths are plain printable ASCII and pass through as they are (the walk escapes
        // every file it finds, so this is worth skipping the scalar-by-scalar build for).
        if bytes.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != 0x5C }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        var i = 0
        while i < bytes.count {
            guard let (scalar, length) = decodeScalar(bytes, at: i) else {
                out += hex(bytes[i])
                i += 1
                continue
            }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x5C: out += "\\\\"
            case 0x00..<0x20, 0x7F..<0xA0:
                for byte in bytes[i..<i + length] { out += hex(byte) }
            default:
                out.unicodeScalars.append(scalar)
            }
            i += length
        }
        return out
    }

    /// The escaped form of a path already held as a `String`.
    package static func escape(_ path: String) -> String { escape(bytes: Array(path.utf8)) }

    /// The bytes `escape` was given, from its output; nil for text `escape` cannot have made (a
    /// backslash not followed by `n`, `r`, `t`, `\\` or `xNN`).
    package static func unescape(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.contains(0x5C) else { return utf8 }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            guard byte == 0x5C else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 1 < utf8.count else { return nil }
            switch utf8[i + 1] {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case 0x5C: out.append(0x5C)
            case UInt8(ascii: "x"):
                guard i + 3 < utf8.count, let high = hexValue(utf8[i + 2]), let low = hexValue(utf8[i + 3]) else { return nil }
                out.append(high << 4 | low)
                i += 2
            default: return nil
            }
            i += 2
        }
        return out
    }

    /// Text (a reason, an option's value) made safe for one line: control characters as `escape`
    /// writes them; backslashes and everything else unchanged, since this text is never read back.
    package static func singleLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case _ where isControl(scalar): for byte in String(scalar).utf8 { out += hex(byte) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The bytes as a `String` when they are valid UTF-8, else nil.
    package static func validString(_ bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var i = 0
        while i < bytes.count {
            guard let (_, length) = decodeScalar(bytes, at: i) else { return nil }
            i += length
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytes in the UTF-8 sequence at `i`, or 1 for a byte that does not start a valid one.
    package static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        decodeScalar(bytes, at: i)?.1 ?? 1
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    /// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
    private static func decodeScalar(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let first = b[i]
        if first < 0x80 { return (Unicode.Scalar(first), 1) }
        let length: Int
        var value: UInt32
        var lowest: UInt32
        switch first {
        case 0xC2...0xDF: length = 2; value = UInt32(first & 0x1F); lowest = 0x80
        case 0xE0...0xEF: length = 3; value = UInt32(first & 0x0F); lowest = 0x800
        case 0xF0...0xF4: length = 4; value = UInt32(first & 0x07); lowest = 0x10000
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
