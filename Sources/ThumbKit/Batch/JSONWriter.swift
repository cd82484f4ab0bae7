/// Writes `JSONValue`s as byte-stable text.
///
/// Written here rather than using `JSONSerialization` because manifests must be identical byte
/// for byte across runs, job counts and machines: keys are sorted by their UTF-8 bytes, the
/// layout is fixed (two-space indent, one member per line, `\n` line ends, final newline),
/// strings are escaped minimally and the same way every time (`\"`, `\\`, `\n`, `\r`, `\t`, and
/// `\u00XX` for other control characters and DEL), and non-ASCII text is written as raw UTF-8.
public enum JSONWriter {
    /// The document as UTF-8 bytes, ending with a newline.
    public static func bytes(_ value: JSONValue) -> [UInt8] { Array(string(value).utf8) }

    /// The document as text, ending with a newline.
    public static func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let inner = String(repeating: "  ", count: indent + 1)
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "[\n"
            for (n, element) in elements.enumerated() {
                out += inner
                write(element, indent: indent + 1, into: &out)
                out += n == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (n, key) in keys.enumerated() {
                out += inner
                writeString(key, into: &out)
                out += ": "
                write(members[key]!, indent: indent + 1, into: &out)
                out += n == keys.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
