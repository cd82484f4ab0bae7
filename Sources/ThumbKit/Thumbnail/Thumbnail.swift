/// One rendered thumbnail: which output of its source it is, its 8-bit pixels and the file that
/// holds them.
public struct Thumbnail: Sendable, Equatable {
    /// Which output it is: its width (for a set of widths), scale and format.
    public let variant: ThumbnailVariant
    /// The scale it was made at (`variant.scale`).
    public var scale: Scale { variant.scale }
    /// The thumbnail's pixels, 8-bit straight RGBA, as they were given to the encoder: what a PNG
    /// or lossless WebP decodes to exactly, and what a lossy JPEG or WebP approximates.
    public let image: Image
    /// The file's format and settings (`variant.format`).
    public var format: OutputFormat { variant.format }
    /// The file's bytes.
    public let bytes: [UInt8]
    /// Problems with the source that did not stop it (corrupt-data warnings, a colour profile that
    /// could not be used, scales enlarged beyond it); the same for every output of one source.
    public var warnings: [String] = []
    /// The star rating the badge was drawn for (`ThumbnailOptions.ratingBadge`), nil when no badge
    /// was asked for or the photo has no rating.
    public var rating: Rating?
    /// Where that rating was read: given by the caller (nil) or the file's own XMP or EXIF.
    public var ratingOrigin: RatingOrigin?
}
