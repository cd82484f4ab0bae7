/// A decoded JPEG and the shrink-on-load factor it was decoded with.
public struct JPEGDecodedImage: Sendable, Equatable {
    /// Straight RGBA, 8 bits per channel, alpha 255; `reduction` times smaller than the stored
    /// image on each axis (rounded up, as libjpeg scales).
    public let image: Image
    /// 1, 2, 4 or 8: libjpeg's `scale_denom`.
    public let reduction: Int
}
