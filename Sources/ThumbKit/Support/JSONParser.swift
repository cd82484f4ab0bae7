/// Reads JSON text (RFC 8259) into a `JSONValue`. Strict: no duplicate keys, no trailing commas, no
/// comments, numbers exactly as the grammar spells them.
struct JSONParser {
    /// Why a document could not be parsed; `offset` is the byte where parsing stopped.
    struct Failure: ThumbKitError, Equatable {
        let offset: Int
        let reason: String
        var message: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    /// Parses a whole document; trailing content other than whitespace is an error.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected content after the document") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
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
            return try parseNumber()
        default:
            throw failure("unexpected character")
        }
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Without a fraction or
    /// exponent it is an exact `integer` (Int64); otherwise the nearest finite `Double`.
    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else { throw failure("expected digits") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, Self.isDigit(bytes[position]) { throw failure("leading zero") }
        } else {
            skipDigits()
        }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw failure("expected digits after the decimal point") }
            integral = false
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw failure("expected digits in the exponent") }
            integral = false
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral {
            guard let value = Int64(text) else {
                position = start
                throw failure("integer out of range")
            }
            return .integer(value)
        }
        guard let value = Double(text), value.isFinite else {
            position = start
            throw failure("number out of range")
        }
        return .number(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Moves past a run of digits; how many there were.
    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        return position - start
    }

    private mutating func parseString() throws(Failure) -> String {
        position += 1  // opening quote
        // Decode UTF-8 bytes once at the end; the document was read as bytes, so any invalid
        // UTF-8 inside a string is repaired (U+FFFD) rather than trusted. Most strings (paths,
        // hashes, settings) have no escapes and are decoded straight from the document: a no-op
        // run reads a manifest of thousands of entries before it can tell nothing changed.
        let start = position
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
            position += 1
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: "\"") {
            position += 1
            return String(decoding: bytes[start..<(position - 1)], as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if c < 0x20 { throw failure("control character in string") }
            position += 1
            if c != UInt8(ascii: "\\") { utf8.append(c); continue }
            guard position < bytes.count else { break }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
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
                utf8 += String(Character(scalar)).utf8
            default:
                throw failure("invalid escape")
            }
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
