/// Finds the star rating in an XMP packet: `Rating` in the namespace `http://ns.adobe.com/xap/1.0/`,
/// whatever prefix it is bound to (`xmp:` by convention), as an attribute of any element (Adobe's
/// compact form, `<rdf:Description xmp:Rating="4"/>`) or as an element whose text is the value
/// (`<xmp:Rating>4</xmp:Rating>`). The first one in document order counts.
///
/// The packet is read as XML 1.0 with namespaces, in one pass without recursion: a UTF-8 BOM,
/// the `<?xpacket?>` wrapper and other processing instructions, comments, CDATA sections, the five
/// predefined entities and character references are understood; trailing padding (spaces, NULs)
/// is ignored. A DOCTYPE is refused (XMP forbids it, and with it go entity definitions and their
/// expansion). Work is linear in the packet's size and memory bounded by it: elements may nest
/// `maximumDepth` deep, namespace lookups are hashed, and packets above `maximumBytes` are not
/// read. Anything not well-formed is an `XMPProblem`, and then no rating is taken even if one was
/// seen, since a damaged packet's values cannot be trusted.
package struct XMPReader: Sendable {
    /// The XMP basic namespace, which `xmp:Rating` belongs to.
    package static let namespace = "http://ns.adobe.com/xap/1.0/"
    /// Deepest element nesting read. Real packets nest about ten deep (x:xmpmeta, rdf:RDF,
    /// rdf:Description, a property, rdf:Seq, rdf:li, …); past this a packet is hostile.
    package static let maximumDepth = 256
    /// Largest packet read: the metadata limit every decoder keeps blocks within.
    package static let maximumBytes = EmbeddedMetadata.maximumBytes
    /// Longest rating text quoted in a problem.
    static let quotedLength = 40

    /// The rating in `packet`, nil when it has none.
    package static func rating(in packet: [UInt8]) throws(XMPProblem) -> Rating? {
        guard packet.count <= maximumBytes else { throw .tooLarge(bytes: packet.count) }
        var scanner = XMPScanner(bytes: packet, namespace: Array(namespace.utf8), maximumDepth: maximumDepth)
        guard let text = try scanner.ratingText() else { return nil }
        return try rating(fromText: text)
    }

    /// A rating value as XMP writes it: a decimal number (`4`, `4.5`, `-1`, `+3`, `.5`) with
    /// optional surrounding whitespace; no exponent, no `NaN`.
    static func rating(fromText raw: String) throws(XMPProblem) -> Rating {
        let text = raw.trimmingXMLWhitespace
        let quoted = text.count > quotedLength ? String(text.prefix(quotedLength)) + "…" : text
        guard isDecimal(text), let value = Double(text) else { throw .notANumber(quoted) }
        guard let rating = Rating(storedValue: value) else { throw .outOfRange(quoted) }
        return rating
    }

    private static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var digits = 0, dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") { dots += 1 } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { digits += 1 } else { return false }
        }
        return digits > 0 && dots <= 1
    }
}

extension String {
    /// Without XML's whitespace (space, tab, CR, LF) at either end.
    var trimmingXMLWhitespace: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !XMPScanner.isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !XMPScanner.isWhitespace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
