/// Writes `JSONValue`s as byte-stable text (internal: only manifests use it).
///
/// Written here rather than using `JSONSerialization` because manifests must be identical byte
/// for byte across runs, job counts and machines: keys are sorted by their UTF-8 bytes, the
/// layout is fixed (two-space indent, one member per line, `\n` line ends, final newline),
/// strings are escaped minimally and the same way every time (`\"`, `\\`, `\n`, `\r`, `\t`, and
/// `\u00XX` for other control characters and DEL), and non-ASCII text is written as raw UTF-8.
enum JSONWriter {
    /// The document as UTF-8 bytes, ending with a newline.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    /// The document as text, ending with a newline.
    static func string(_ value: JSONValue) -> String { String(decoding: bytes(value), as: UTF8.self) }

    /// One JSON string literal, quoted and escaped, for hand-laid documents (asset catalogs).
    static func literal(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // Bytes rather than String appends: manifests of many thousand entries are written on every
    // run that changes anything, and byte appends are several times faster.
    static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .integer(let i): writeInteger(i, into: &out)
        case .number(let d):
            // Swift's shortest round-tripping form (`0.1`, `1e-07`, `100.0`) is valid JSON for
            // every finite value, and the parser makes no other kind.
            precondition(d.isFinite, "JSON has no infinities or NaN")
            out += d.description.utf8
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]".utf8; return }
            out += "[\n".utf8
            for (n, element) in elements.enumerated() {
                pad(indent + 1, &out)
                write(element, indent: indent + 1, into: &out)
                if n != elements.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(0x0A)
            }
            pad(indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            write(members: members.sorted { utf8Precedes($0.key, $1.key) }, indent: indent, into: &out)
        }
    }

    /// An object whose members are already in key order (by UTF-8 bytes), as `write` lays out any
    /// object: for callers that know their keys, without a dictionary to build and sort.
    static func write(members: [(key: String, value: JSONValue)], indent: Int, into out: inout [UInt8]) {
        var object = ObjectLayout(indent: indent, into: &out)
        for member in members {
            object.key(member.key, into: &out)
            write(member.value, indent: indent + 1, into: &out)
        }
        object.end(into: &out)
    }

    /// Lays out an object member by member: the one layout of every object written, also for
    /// encoders that write their members' values directly instead of building `JSONValue`s
    /// first. The caller gives the keys in UTF-8 order, each once.
    struct ObjectLayout {
        private let indent: Int
        private var members = 0

        /// Starts the object (`{`).
        init(indent: Int, into out: inout [UInt8]) {
            self.indent = indent
            out.append(UInt8(ascii: "{"))
        }

        /// Starts a member: what separates it from the one before, its key and the colon; the
        /// caller then writes its value.
        mutating func key(_ key: String, into out: inout [UInt8]) {
            startMember(&out)
            writeString(key, into: &out)
            out += ": ".utf8
        }

        /// `key(_:into:)` for a key known when compiling, which must need no escaping.
        mutating func key(_ key: StaticString, into out: inout [UInt8]) {
            startMember(&out)
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            out += "\": ".utf8
        }

        private mutating func startMember(_ out: inout [UInt8]) {
            if members > 0 { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
            members += 1
            pad(indent + 1, &out)
        }

        /// Ends the object (`}`).
        func end(into out: inout [UInt8]) {
            if members == 0 { out.append(UInt8(ascii: "}")); return }
            out.append(0x0A)
            pad(indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func pad(_ indent: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: 2 * indent))
    }

    /// Decimal digits, with a minus sign when negative: what `String(value)` spells, without
    /// making a string (a 19-digit timestamp would need one on the heap).
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: digits[start...])
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Manifest strings (paths, hashes, settings) seldom need escaping: copied whole, they
        // cost one append rather than one a byte (the final manifest is written while every
        // worker waits).
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { bytes in
            if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        // Escaping works on UTF-8 bytes: every byte that needs it is ASCII, and multi-byte
        // sequences (all bytes >= 0x80) pass through unchanged.
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\"".utf8
            case UInt8(ascii: "\\"): out += "\\\\".utf8
            case 0x0A: out += "\\n".utf8
            case 0x0D: out += "\\r".utf8
            case 0x09: out += "\\t".utf8
            case 0x00..<0x20, 0x7F:
                let digits = Array("0123456789abcdef".utf8)
                out += "\\u00".utf8
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `a` sorts before `b` by their UTF-8 bytes (the manifest's key and entry order),
    /// compared in place: iterating the two `utf8` views byte by byte took a fifth of the
    /// manifest's encoding time.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        // Native strings lend their bytes without a copy (`withUTF8` needs a mutable one).
        let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
                return x.count < y.count
            }
        }
        if let precedes = inPlace ?? nil { return precedes }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
