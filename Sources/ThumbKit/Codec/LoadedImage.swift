/// An image as `ImageLoader` hands it over: upright, in sRGB (unless profiles are kept), possibly
/// reduced on load, with what happened on the way.
public struct LoadedImage: Sendable, Equatable {
    /// The pixels: upright (when rotation was asked for), sRGB (when conversion was asked for).
    public let image: Image
    /// The file's format.
    public let format: ImageFormat
    /// The upright size of the full image in the file, before any reduction on load. Fit plans are
    /// computed from this size so that output sizes do not depend on the reduction.
    public let fullWidth: Int
    /// The upright height of the full image in the file, before any reduction on load.
    public let fullHeight: Int
    /// The shrink-on-load factor applied (1, 2, 4 or 8; always 1 for PNG).
    public let reduction: Int
    /// The orientation that was applied (nil when none was found or rotation was off).
    public let orientation: Orientation?
    /// The source's ICC profile when the pixels were left in its colours (`convertsToSRGB` off);
    /// nil otherwise.
    public let keptProfile: [UInt8]?
    /// Problems that did not stop decoding: corrupt-data warnings, a truncated file read partially,
    /// a profile that could not be applied.
    public let warnings: [String]
}
