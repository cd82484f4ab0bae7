/// Reads JSON text back into a `JSONValue` (RFC 8259, except that numbers must be integers,
/// which is all manifests contain).
public struct JSONParser {
    /// Why a document could not be parsed; `offset` is the byte where parsing stopped.
    public struct Failure: ThumbKitError, Equatable {
        public let offset: Int
        public let reason: String
        public var message: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    /// Parses a whole document; trailing content other than whitespace is an error.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected content after the document") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        let expected = Array(literal.utf8)
        guard bytes[position...].starts(with: expected) else { throw failure("expected \(literal)") }
        position += expected.count
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        // A limit keeps a hostile file from overflowing the stack.
        guard depth < 64 else { throw failure("nesting too deep") }
        skipWhitespace()
        guard position < bytes.count else { throw failure("unexpected end") }
        switch bytes[position] {
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "]") { position += 1; return .array([]) }
            while true {
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw failure("unexpected end in array") }
                let c = bytes[position]
                position += 1
                if c == UInt8(ascii: "]") { return .array(elements) }
                guard c == UInt8(ascii: ",") else { position -= 1; throw failure("expected , or ]") }
            }
        case UInt8(ascii: "{"):
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if position < bytes.count && bytes[position] == UInt8(ascii: "}") { position += 1; return .object([:]) }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure("expected a string key") }
                let key = try parseString()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure("expected :") }
                position += 1
                guard members[key] == nil else { throw failure("duplicate key \"\(key)\"") }
                members[key] = try parseValue(depth: depth + 1)
                skipWhitespace()
                guard position < bytes.count else { throw failure("unexpected end in object") }
                let c = bytes[position]
                position += 1
                if c == UInt8(ascii: "}") { return .object(members) }
                guard c == UInt8(ascii: ",") else { position -= 1; throw failure("expected , or }") }
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .integer(try parseInteger())
        default:
            throw failure("unexpected character")
        }
    }

    private mutating func parseInteger() throws(Failure) -> Int64 {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        guard position > digitsStart else { throw failure("expected digits") }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
            throw failure("only integers are supported")
        }
        guard let value = Int64(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            position = start
            throw failure("integer out of range")
        }
        return value
    }

    private mutating func parseString() throws(Failure) -> String {
        position += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var run = position  // start of the current stretch of unescaped bytes
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                flush(position)
                position += 1
                return String(scalars)
            }
            if c < 0x20 { throw failure("control character in string") }
            if c != UInt8(ascii: "\\") { position += 1; continue }
            flush(position)
            position += 1
            guard position < bytes.count else { break }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard bytes[position...].starts(with: Array("\\u".utf8)) else { throw failure("lone surrogate") }
                    position += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("lone surrogate") }
                scalars.append(scalar)
            default:
                throw failure("invalid escape")
            }
            run = position
        }
        throw failure("unterminated string")
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            throw failure("invalid \\u escape")
        }
        position += 4
        return value
    }
}
