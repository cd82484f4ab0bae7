/// A JSON value as `thumbgen.json` and badge spec files hold it, with object members in file order
/// (so errors name the first bad member as the reader sees it) and duplicate keys refused.
///
/// The plugins carry their own small parser instead of `JSONSerialization` because a `Bool` and
/// a number must stay apart (Foundation on Linux hands both back as `NSNumber`) and because a
/// syntax error should say where it is (`line 3, column 14`).
enum PluginJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double, text: String)
    case string(String)
    case array([PluginJSON])
    case object([(key: String, value: PluginJSON)])

    static func == (a: PluginJSON, b: PluginJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x, _), .number(y, _)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// What a member's value is, for messages: `expected a number, got a string`.
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as it would be written, short: strings quoted, containers abbreviated.
    var shown: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let text): return text
        case .string(let s): return PluginJSON.quoted(s)
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A JSON string literal (the escapes JSON requires, nothing else).
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A syntax error: a one-line reason with its 1-based line and column.
    struct SyntaxError: Error {
        let line: Int
        let column: Int
        let reason: String
        var message: String { "line \(line), column \(column): \(reason)" }
    }

    /// Parses one JSON document (RFC 8259; a leading UTF-8 byte order mark is skipped).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> PluginJSON {
        var parser = Parser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the end of the document") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> SyntaxError {
            var line = 1, column = 1
            for b in bytes[..<min(index, bytes.count)] {
                if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            }
            return SyntaxError(line: line, column: column, reason: reason)
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
        }

        mutating func expect(_ literal: String, _ value: PluginJSON) throws(SyntaxError) -> PluginJSON {
            let utf8 = Array(literal.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
                throw error("unexpected character")
            }
            index += utf8.count
            return value
        }

        mutating func value(depth: Int) throws(SyntaxError) -> PluginJSON {
            guard depth < 64 else { throw error("nested too deeply") }
            guard let b = peek else { throw error("unexpected end of file") }
            switch b {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> PluginJSON {
            index += 1
            var members: [(key: String, value: PluginJSON)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
                let keyStart = index
                let key = try string()
                if members.contains(where: { $0.key == key }) {
                    index = keyStart
                    throw error("member \(PluginJSON.quoted(key)) appears twice")
                }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return .object(members)
                default: throw error("expected ',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> PluginJSON {
            index += 1
            var elements: [PluginJSON] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return .array(elements)
                default: throw error("expected ',' or ']'")
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            var out: [UInt8] = []
            while true {
                guard let b = peek else { throw error("unterminated string") }
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    guard let e = peek else { throw error("unterminated string") }
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                                throw error("lone surrogate in \\u escape")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate in \\u escape") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("lone surrogate in \\u escape") }
                        out += Array(String(Character(scalar)).utf8)
                    default: throw error("unknown escape in string")
                    }
                default:
                    guard b >= 0x20 else { throw error("control character in string") }
                    out.append(b)
                }
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("short \\u escape") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[index]
                let digit: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw error("bad hex digit in \\u escape")
                }
                code = code * 16 + digit
                index += 1
            }
            return code
        }

        mutating func number() throws(SyntaxError) -> PluginJSON {
            let start = index
            func digits(_ p: inout Parser) -> Int {
                var n = 0
                while let b = p.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { p.index += 1; n += 1 }
                return n
            }
            if peek == UInt8(ascii: "-") { index += 1 }
            if peek == UInt8(ascii: "0") {
                index += 1
            } else if digits(&self) == 0 {
                throw error("malformed number")
            }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw error("malformed number") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw error("malformed number") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text), value.isFinite else { index = start; throw error("number out of range") }
            return .number(value, text: text)
        }
    }
}
