/// One output of a source: its box (the set's box, or a width), its scale and its file format.
public struct ThumbnailVariant: Sendable, Hashable {
    /// The width at @1x for a set of widths (after widths above the source were collapsed onto
    /// it), nil for the set's box.
    public var width: Int?
    /// The scale: the output is exactly this many times the @1x output of the same box.
    public var scale: Scale
    /// The file format and its settings.
    public var format: OutputFormat

    /// A variant as given.
    public init(width: Int? = nil, scale: Scale = .one, format: OutputFormat = .png) {
        self.width = width
        self.scale = scale
        self.format = format
    }
}
