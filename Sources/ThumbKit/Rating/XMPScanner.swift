/// The one pass over an XMP packet behind `XMPReader`: checks that the packet is well-formed XML
/// with namespaces and keeps the text of the first `Rating` in the given namespace. A loop over
/// the bytes with an explicit stack of open elements (no recursion), so a hostile packet costs
/// time linear in its size.
struct XMPScanner {
    private let bytes: [UInt8]
    private let namespace: [UInt8]
    private let maximumDepth: Int
    private var position = 0
    private var end: Int

    /// An element that is open: its qualified name and the prefixes it declared.
    private struct OpenElement {
        var name: [UInt8]
        var declared: [[UInt8]]
        var isRating: Bool
    }

    private var open: [OpenElement] = []
    /// Namespace bindings in scope: for each prefix (empty for the default namespace) the URIs
    /// bound to it, innermost last.
    private var bindings: [[UInt8]: [[UInt8]]] = [:]
    private var sawRoot = false
    /// The rating's text once found (attribute value, or the element's text when it closed).
    private var rating: String?
    /// The text of a `Rating` element being read, nil when not inside one.
    private var ratingElementText: [UInt8]?

    private static let xmlNamespace = Array("http://www.w3.org/XML/1998/namespace".utf8)
    private static let ratingName = Array("Rating".utf8)

    init(bytes: [UInt8], namespace: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.namespace = namespace
        self.maximumDepth = maximumDepth
        end = bytes.count
        // Writers pad packets (XMP Part 1 §7.3: whitespace for in-place edits) and some add NULs.
        while end > 0, bytes[end - 1] == 0 || Self.isWhitespace(bytes[end - 1]) { end -= 1 }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Reads the whole packet; the rating's text, or nil when there is no rating.
    mutating func ratingText() throws(XMPProblem) -> String? {
        while position < end {
            if bytes[position] == UInt8(ascii: "<") {
                try markup()
            } else {
                try text()
            }
        }
        if let innermost = open.last { throw malformed("unclosed element '\(Self.string(innermost.name))'") }
        guard sawRoot else { throw malformed("no root element") }
        return rating
    }

    // MARK: - Markup

    private mutating func markup() throws(XMPProblem) {
        if starts(with: "<?") {
            position = try skip(past: "?>", from: position + 2, what: "processing instruction")
        } else if starts(with: "<!--") {
            position = try skip(past: "-->", from: position + 4, what: "comment")
        } else if starts(with: "<![CDATA[") {
            guard !open.isEmpty else { throw malformed("CDATA outside the root element") }
            let start = position + 9
            position = try skip(past: "]]>", from: start, what: "CDATA section")
            ratingElementText?.append(contentsOf: bytes[start..<(position - 3)])
        } else if starts(with: "<!") {
            throw malformed("a DOCTYPE or declaration, which XMP does not allow")
        } else if starts(with: "</") {
            try endTag()
        } else {
            try startTag()
        }
    }

    private mutating func startTag() throws(XMPProblem) {
        position += 1
        let name = try readName(what: "element name")
        if sawRoot && open.isEmpty { throw malformed("content after the root element") }
        var attributes: [(name: [UInt8], value: [UInt8])] = []
        var empty = false
        while true {
            let spaced = skipWhitespace()
            guard position < end else { throw malformed("unclosed tag '\(Self.string(name))'") }
            if bytes[position] == UInt8(ascii: ">") { position += 1; break }
            if starts(with: "/>") { position += 2; empty = true; break }
            guard spaced else { throw malformed("no space between attributes in '\(Self.string(name))'") }
            let attribute = try readName(what: "attribute name")
            skipWhitespace()
            guard position < end, bytes[position] == UInt8(ascii: "=") else {
                throw malformed("attribute '\(Self.string(attribute))' has no value")
            }
            position += 1
            skipWhitespace()
            attributes.append((attribute, try quotedValue(of: attribute)))
        }
        guard open.count < maximumDepth else { throw malformed("elements nested deeper than \(maximumDepth)") }
        sawRoot = true

        // Declarations first: they apply to the element's own name and attributes.
        var declared: [[UInt8]] = []
        for attribute in attributes {
            let (prefix, local) = Self.split(attribute.name)
            if prefix == nil && local == Self.xmlns {
                declared.append([])
                bindings[[], default: []].append(attribute.value)
            } else if prefix == Self.xmlns {
                guard !attribute.value.isEmpty else { throw malformed("prefix '\(Self.string(local))' bound to no namespace") }
                declared.append(local)
                bindings[local, default: []].append(attribute.value)
            }
        }
        let element = try resolve(name, isAttribute: false)
        let isRating = element.uri == namespace && element.local == Self.ratingName
        for attribute in attributes {
            let (prefix, local) = Self.split(attribute.name)
            if prefix == Self.xmlns || (prefix == nil && local == Self.xmlns) { continue }
            let resolved = try resolve(attribute.name, isAttribute: true)
            if rating == nil && resolved.uri == namespace && resolved.local == Self.ratingName {
                rating = String(decoding: attribute.value, as: UTF8.self)
            }
        }
        // An element inside a Rating element makes it a structure, not a number: a marker in its
        // text makes sure it does not read as one.
        if ratingElementText != nil { ratingElementText?.append(contentsOf: Array("<…>".utf8)) }
        let readsRating = isRating && rating == nil && ratingElementText == nil
        if readsRating { ratingElementText = [] }
        let opened = OpenElement(name: name, declared: declared, isRating: readsRating)
        if empty {
            close(opened)
        } else {
            open.append(opened)
        }
    }

    private mutating func endTag() throws(XMPProblem) {
        position += 2
        let name = try readName(what: "element name")
        skipWhitespace()
        guard position < end, bytes[position] == UInt8(ascii: ">") else { throw malformed("unclosed end tag '\(Self.string(name))'") }
        position += 1
        guard let innermost = open.popLast() else { throw malformed("end tag '\(Self.string(name))' without a start tag") }
        guard innermost.name == name else {
            throw malformed("end tag '\(Self.string(name))' does not match '\(Self.string(innermost.name))'")
        }
        close(innermost)
    }

    /// Ends an element's scope: its declarations go, and a Rating element's text becomes the rating.
    private mutating func close(_ element: OpenElement) {
        for prefix in element.declared { bindings[prefix]?.removeLast() }
        if element.isRating, let text = ratingElementText {
            rating = String(decoding: text, as: UTF8.self)
            ratingElementText = nil
        }
    }

    /// The namespace and local part of a qualified name. Unprefixed attributes are in no
    /// namespace; unprefixed elements are in the default one.
    private func resolve(_ name: [UInt8], isAttribute: Bool) throws(XMPProblem) -> (uri: [UInt8]?, local: [UInt8]) {
        let (prefix, local) = Self.split(name)
        guard let prefix else {
            return (isAttribute ? nil : bindings[[]]?.last.flatMap { $0.isEmpty ? nil : $0 }, local)
        }
        if prefix == Self.xml { return (Self.xmlNamespace, local) }
        guard !prefix.isEmpty, !local.isEmpty, let uri = bindings[prefix]?.last else {
            throw malformed("unbound prefix in '\(Self.string(name))'")
        }
        return (uri, local)
    }

    // MARK: - Text

    /// Character data up to the next `<`: only whitespace outside the root element; entity
    /// references checked (and decoded inside a Rating element).
    private mutating func text() throws(XMPProblem) {
        let start = position
        let stop = bytes[start..<end].firstIndex(of: UInt8(ascii: "<")) ?? end
        if open.isEmpty {
            guard bytes[start..<stop].allSatisfy(Self.isWhitespace) else {
                throw malformed(sawRoot ? "text after the root element" : "text before the root element")
            }
            position = stop
            return
        }
        let decoded = try decodeReferences(in: start..<stop)
        if ratingElementText != nil { ratingElementText?.append(contentsOf: decoded) }
        position = stop
    }

    /// An attribute value in single or double quotes, references decoded.
    private mutating func quotedValue(of attribute: [UInt8]) throws(XMPProblem) -> [UInt8] {
        guard position < end, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw malformed("value of '\(Self.string(attribute))' is not quoted")
        }
        let quote = bytes[position]
        let start = position + 1
        guard let close = bytes[start..<end].firstIndex(of: quote) else {
            throw malformed("unclosed value of '\(Self.string(attribute))'")
        }
        if bytes[start..<close].contains(UInt8(ascii: "<")) { throw malformed("'<' in the value of '\(Self.string(attribute))'") }
        position = close + 1
        return try decodeReferences(in: start..<close)
    }

    /// The bytes with `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#…;` replaced; any other
    /// reference is malformed (XMP declares no entities).
    private func decodeReferences(in range: Range<Int>) throws(XMPProblem) -> [UInt8] {
        guard bytes[range].contains(UInt8(ascii: "&")) else { return Array(bytes[range]) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "&") else { out.append(byte); i += 1; continue }
            // The longest reference is "&#x10FFFF;" (10 bytes); looking no further keeps this linear.
            let limit = min(range.upperBound, i + 12)
            guard let semicolon = bytes[(i + 1)..<limit].firstIndex(of: UInt8(ascii: ";")) else {
                throw malformed("'&' not followed by a reference")
            }
            let name = Array(bytes[(i + 1)..<semicolon])
            guard let scalar = Self.reference(name) else { throw malformed("unknown entity '&\(Self.string(name));'") }
            out.append(contentsOf: Array(String(scalar).utf8))
            i = semicolon + 1
        }
        return out
    }

    private static func reference(_ name: [UInt8]) -> Unicode.Scalar? {
        switch string(name) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        let hex = name.count > 1 && name[1] == UInt8(ascii: "x")
        let digits = string(Array(name.dropFirst(hex ? 2 : 1)))
        guard !digits.isEmpty, let value = UInt32(digits, radix: hex ? 16 : 10), value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    // MARK: - Lexing

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - position >= count else { return false }
        let pointer = literal.utf8Start
        for k in 0..<count where bytes[position + k] != pointer[k] { return false }
        return true
    }

    /// The position just past the next `terminator` at or after `start`.
    private func skip(past terminator: StaticString, from start: Int, what: String) throws(XMPProblem) -> Int {
        let count = terminator.utf8CodeUnitCount
        let pattern = terminator.utf8Start
        var i = start
        while i + count <= end {
            var matched = true
            for k in 0..<count where bytes[i + k] != pattern[k] { matched = false; break }
            if matched { return i + count }
            i += 1
        }
        throw malformed("unclosed \(what)")
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < end, Self.isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    /// A name: bytes up to whitespace or markup. Non-ASCII bytes are allowed (names may be any
    /// Unicode letter); ASCII punctuation XML does not allow in names stops it.
    private mutating func readName(what: String) throws(XMPProblem) -> [UInt8] {
        let start = position
        while position < end, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else { throw malformed("expected an \(what)") }
        let first = bytes[start]
        guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
            throw malformed("bad \(what) '\(Self.string(Array(bytes[start..<position])))'")
        }
        return Array(bytes[start..<position])
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        if byte >= 0x80 { return true }
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static let xmlns = Array("xmlns".utf8)
    private static let xml = Array("xml".utf8)

    /// `prefix:local`, split at the first colon; no prefix when there is none.
    private static func split(_ name: [UInt8]) -> (prefix: [UInt8]?, local: [UInt8]) {
        guard let colon = name.firstIndex(of: UInt8(ascii: ":")) else { return (nil, name) }
        return (Array(name[..<colon]), Array(name[(colon + 1)...]))
    }

    /// A name for a message, at most 60 bytes of it.
    private static func string(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(60), as: UTF8.self)
        return PathEscaping.singleLine(bytes.count > 60 ? text + "…" : text)
    }

    private func malformed(_ reason: String) -> XMPProblem { .malformed(reason) }
}
