/// A non-interlaced PNG streams its rows straight into a `Resampler`, so a thumbnail of a large
/// image never holds the whole decoded image. Interlaced files must be read with `decodeImage()`
/// (their rows are only final after the last pass); `readRow` stops on them with a precondition.
extension PNGDecoder: RowSource {
    /// Reading a row fails as decoding does.
    public typealias ReadError = PNGError

    /// The image width in pixels (`info.width`).
    public var width: Int { info.width }
    /// The image height in pixels (`info.height`).
    public var height: Int { info.height }
    /// 8 or 16: the depth of the rows `readRow` hands out (`info.outputBitDepth`).
    public var bitDepth: Int { info.outputBitDepth }
    // `rowChannels` is the decoder's own: 3 for opaque images, else 4.
}
