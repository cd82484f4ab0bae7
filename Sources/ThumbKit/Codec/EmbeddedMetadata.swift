/// Metadata blocks a file carries beside its pixels, as stored, for readers above the codec (the
/// star rating): the codec finds them, it does not interpret them. Blocks past `maximumBytes`
/// are not kept (a decoder skips them instead of allocating for them).
package struct EmbeddedMetadata: Sendable, Hashable {
    /// Largest block kept: XMP packets of photo managers are a few KiB, JPEG's APP1 holds 64 KiB.
    package static let maximumBytes = 1 << 20

    /// The XMP packet (UTF-8 RDF/XML), nil when the file has none.
    package var xmp: [UInt8]?
    /// The EXIF data as a TIFF structure (starting `II*\0` or `MM\0*`), nil when none.
    package var exif: [UInt8]?
    /// EXIF's `Rating` tag (0x4746) when the file's own tags are where EXIF keeps it: a TIFF's
    /// first directory, which is not handed up as an `exif` block (it is the whole file). Nil for
    /// other formats, whose rating is in `exif`.
    package var tiffRating: Rating?

    /// Metadata with the given blocks (none by default).
    package init(xmp: [UInt8]? = nil, exif: [UInt8]? = nil, tiffRating: Rating? = nil) {
        self.xmp = xmp
        self.exif = exif
        self.tiffRating = tiffRating
    }
}
