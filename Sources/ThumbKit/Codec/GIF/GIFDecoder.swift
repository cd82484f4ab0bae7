import CLibGIF

/// Reads a GIF's first image through giflib, onto its logical screen: pixels the frame leaves
/// uncovered and the transparent index are transparent, a frame reaching past the screen is
/// clipped, interlaced rows go to their places. Later frames (an animation) are not read, nor is
/// anything after the first image. Images stream: rows of the screen come out one at a time, RGB
/// when nothing is transparent, as giflib decodes the frame's lines; an interlaced frame's
/// indexes (a byte a pixel) are read whole first, and its rows made from them.
final class GIFDecoder: FullSizeDecoder {
    static let format = ImageFormat.gif
    /// e.g. "giflib 5.2.1".
    static let libraryVersion = CodecVersions.text(tg_gif_version)

    let header: ImageHeader
    /// One line of indexes and giflib's LZW state, small and fixed; and an interlaced frame's
    /// indexes, a byte a screen pixel at most, kept while its rows stream (counted for the
    /// whole-image path too, which does not need them: the plan is a bound).
    let workingBytes: UInt64
    var request: DecodeRequest?
    private let reader: CodecReader

    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        var info = tg_gif_info()
        reader = try CodecReader(GIFDecoder.self, input: input, limits: limits, info: &info, open: tg_gif_open, close: tg_gif_close)
        header = ImageHeader(format: .gif, storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: .topLeft,
                             bitDepth: 8, hasAlpha: info.has_alpha != 0, colorSource: .sRGB,
                             scanOrder: info.interlaced != 0 ? .interlaced : .sequential, details: .gif)
        workingBytes = info.interlaced != 0 ? UInt64(info.frame_width) * UInt64(info.frame_height) : 0
    }

    /// Interlaced images stream too, from their kept indexes.
    static func streams(_ header: ImageHeader) -> Bool { true }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        let channels = Int32(rowChannels)
        try reader.read(into: &row, count: width * rowChannels) { tg_gif_read_row($0, $1, channels) }
    }

    func finish() throws(DecodeError) {
        try reader.call { tg_gif_finish_rows($0) }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        let pixels: [UInt8] = try reader.image(count: width * height * 4) { tg_gif_read_image($0, $1) }
        return .rgba(Image(width: width, height: height, rgba8: pixels))
    }
}
