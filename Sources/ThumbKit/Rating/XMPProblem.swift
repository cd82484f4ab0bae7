/// Why an XMP packet gave no rating although it may hold one: the packet is not well-formed XML,
/// or its `xmp:Rating` is not a rating. Each is a warning about the file that carries the packet,
/// never a failure of its thumbnail.
package enum XMPProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not well-formed (or not XMP: a DOCTYPE, an unbound prefix); the reason names what was
    /// wrong, e.g. "unclosed element 'rdf:RDF'".
    case malformed(String)
    /// Larger than `XMPReader.maximumBytes`; not read.
    case tooLarge(bytes: Int)
    /// `xmp:Rating` holds text that is not a decimal number, as written (trimmed).
    case notANumber(String)
    /// `xmp:Rating` is a number but neither −1 nor 0…5.
    case outOfRange(String)

    /// One clause, e.g. "malformed XMP (unclosed element 'rdf:RDF')" or
    /// "xmp:Rating 'four' is not a number".
    package var description: String {
        switch self {
        case .malformed(let reason): return "malformed XMP (\(reason))"
        case .tooLarge(let bytes): return "XMP packet of \(bytes) bytes is above the limit of \(XMPReader.maximumBytes)"
        case .notANumber(let text): return "xmp:Rating '\(PathEscaping.singleLine(text))' is not a number"
        case .outOfRange(let text): return "xmp:Rating \(text) is not -1 (rejected) or 0 to 5"
        }
    }
}
