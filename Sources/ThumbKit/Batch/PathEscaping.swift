/// Turns file names into text that is safe to print on one terminal line.
///
/// File names on Linux are arbitrary bytes except `/` and NUL. A name with a newline would break
/// the one-failure-per-line contract, and escape sequences could drive the terminal, so:
/// `\n`, `\r`, `\t` and `\\` use their C escapes, every other control character (C0, DEL, C1) and
/// every byte that is not part of valid UTF-8 becomes `\xNN` (one per byte). Printable Unicode
/// passes through unchanged. The mapping is injective, so distinct names stay distinct.
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

    /// The bytes as a `String` when they are valid UTF-8, else nil.
    static func validString(_ bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var i = 0
        while i < bytes.count {
            guard let (_, length) = decodeScalar(bytes, at: i) else { return nil }
            i += length
        }
        return String(decoding: bytes, as: UTF8.self)
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
