/// Where a photo's rating was found, in order of precedence: a ratings file given by the user
/// beats an XMP sidecar, which beats the XMP packet in the image, which beats its EXIF `Rating`.
public enum RatingOrigin: String, Sendable, Hashable {
    /// A `--ratings-file` (CSV or JSON) listing the photo.
    case ratingsFile = "ratings-file"
    /// An XMP sidecar beside the photo (`photo.jpg.xmp` or `photo.xmp`).
    case sidecar
    /// The XMP packet inside the image file.
    case xmp
    /// EXIF's `Rating` tag (0x4746) inside the image file.
    case exif
}
