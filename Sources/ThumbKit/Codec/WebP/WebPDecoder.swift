import CLibWebP

/// Reads a WebP through libwebp: lossy (VP8) and lossless (VP8L) images, with or without alpha,
/// and animations, of which the first frame is decoded (composed onto the canvas as libwebp's
/// animation decoder does). The ICC profile, the EXIF orientation and the XMP packet come from the
/// container.
///
/// libwebp decodes from memory, so a file's WebP data (as far as its RIFF size says, never what
/// follows) is read into one buffer, after its declared size was checked against the limits and
/// the memory budget; bytes in memory are decoded where they are. Images are decoded whole:
/// libwebp hands out no rows.
///
/// A still image can be scaled down while decoding (shrink-on-load): libwebp's rescaler averages
/// the area each output pixel covers, in the image's YUV (lossy) or RGB (lossless) values, before
/// the colour conversion, so the full-size image is never made. An animation cannot be scaled
/// (libwebp's animation decoder has no scaler).
final class WebPDecoder: WholeImageDecoder {
    static let format = ImageFormat.webp
    /// e.g. "libwebp 1.2.4".
    static let libraryVersion = CodecVersions.text(tg_webp_version)

    let header: ImageHeader
    /// The file's data and, when libwebp works on a copy (a lossless image's pixels, an
    /// animation's two canvases), that copy. An animation of one frame looks like a still image
    /// to the decode plan, which may plan it scaled; it is decoded at full size all the same, so
    /// the full-size image counts here too.
    let workingBytes: UInt64
    /// The size the image is decoded at: the canvas, or the scaled size `start` was asked for.
    private(set) var width: Int
    private(set) var height: Int
    private let reader: CodecReader
    private let animated: Bool
    private var started = false

    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        var info = tg_webp_info()
        reader = try CodecReader(WebPDecoder.self, input: input, limits: limits, info: &info, open: tg_webp_open, close: tg_webp_close)
        let icc = info.icc.map { Array(UnsafeBufferPointer(start: $0, count: info.icc_size)) }
        let exif = info.exif.map { WebPDecoder.tiff(fromExif: Array(UnsafeBufferPointer(start: $0, count: info.exif_size))) }
        // The whole file is in memory already; what the header keeps is bounded all the same (the
        // reader kept no XMP packet over the limit).
        let metadata = EmbeddedMetadata(xmp: info.xmp.map { Array(UnsafeBufferPointer(start: $0, count: info.xmp_size)) },
                                        exif: exif.flatMap { $0.count <= EmbeddedMetadata.maximumBytes ? $0 : nil })
        animated = info.animated != 0
        let pixels = UInt64(info.width) * UInt64(info.height)
        let frames = Int(max(info.frames, 1))
        let copies: UInt64 = animated ? (frames == 1 ? 3 : 2) : info.lossless != 0 ? 1 : 0
        workingBytes = info.data_bytes + 4 * pixels * copies
        (width, height) = (Int(info.width), Int(info.height))
        let orientation = exif.flatMap { ExifReader(tiff: $0)?.orientation } ?? .topLeft
        header = ImageHeader(format: .webp, storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: orientation,
                             bitDepth: 8, hasAlpha: info.has_alpha != 0, colorSource: icc.map(ColorSource.iccProfile) ?? .sRGB,
                             scanOrder: .sequential, details: .webp(lossless: info.lossless != 0, frames: frames),
                             metadata: metadata)
    }

    /// WebP's EXIF chunk holds a TIFF structure; some writers put JPEG's "Exif\0\0" before it.
    static func tiff(fromExif exif: [UInt8]) -> [UInt8] {
        exif.starts(with: Array("Exif".utf8) + [0, 0]) ? Array(exif.dropFirst(6)) : exif
    }

    /// A still image (one frame) can be scaled while decoding.
    static func scalesToAnySize(_ header: ImageHeader) -> Bool {
        if case .webp(_, let frames) = header.details { return frames == 1 }
        return false
    }

    /// Takes the scaled size, if any; an animation (even of one frame) is decoded at full size,
    /// which the decode plan's region mapping, made from the decoded size, allows for.
    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a WebPDecoder decodes once")
        precondition(request.reduction == 1 && !request.streams, "WebP images are decoded whole")
        started = true
        if let size = request.scaledSize, !animated {
            precondition(size.width >= 1 && size.height >= 1 && size.width <= width && size.height <= height,
                         "libwebp scales down only")
            (width, height) = (size.width, size.height)
        }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        let (outWidth, outHeight) = (UInt32(width), UInt32(height))
        let pixels: [UInt8] = try reader.image(count: width * height * 4) { tg_webp_decode($0, outWidth, outHeight, $1) }
        return .rgba(Image(width: width, height: height, rgba8: pixels))
    }
}
