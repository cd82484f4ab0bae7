import CLibWebP

/// Reads a WebP through libwebp: lossy (VP8) and lossless (VP8L) images, with or without alpha,
/// and animations, of which the first frame is decoded (composed onto the canvas as libwebp's
/// animation decoder does). The ICC profile, the EXIF orientation and the XMP packet come from the
/// container.
///
/// libwebp decodes from memory, so a file's WebP data (as far as its RIFF size says, never what
/// follows) is read into one buffer, read in chunks after its declared size was checked against
/// the limits and the memory budget. Images are decoded whole: libwebp hands out no rows.
///
/// A still image can be scaled down while decoding (shrink-on-load): libwebp's rescaler averages
/// the area each output pixel covers, in the image's YUV (lossy) or RGB (lossless) values, before
/// the colour conversion, so the full-size image is never made. An animation cannot be scaled
/// (libwebp's animation decoder has no scaler).
final class WebPDecoder: WholeImageDecoder {
    static let format = ImageFormat.webp

    let header: ImageHeader
    let warnings: [String] = []
    /// The file's data and, when libwebp works on a copy (a lossless image's pixels, an
    /// animation's two canvases), that copy. An animation of one frame looks like a still image
    /// to the decode plan, which may plan it scaled; it is decoded at full size all the same, so
    /// the full-size image counts here too.
    let workingBytes: UInt64
    /// The size the image is decoded at: the canvas, or the scaled size `start` was asked for.
    private(set) var width: Int
    private(set) var height: Int
    private let data: EncodedWebP
    private var info: tg_webp_info
    private var started = false

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = tg_webp_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                     max_file_bytes: limits.maxFileBytes, max_memory: limits.maxMemory)
        var message = [CChar](repeating: 0, count: Int(TG_WEBP_MESSAGE_SIZE))
        var limit = tg_limit_hit()
        switch source {
        case .file(let path):
            var buffer = tg_buffer()
            let status = message.withUnsafeMutableBufferPointer { tg_webp_read_file(path, &cLimits, &buffer, $0.baseAddress, &limit) }
            guard status == Int32(TG_WEBP_OK) else { throw WebPDecoder.error(status: status, message: String(cMessage: message), limit: limit) }
            data = EncodedWebP(read: buffer)
        case .bytes(let bytes):
            data = EncodedWebP(given: bytes)
        }
        var info = tg_webp_info()
        let status = data.withBytes { bytes in
            message.withUnsafeMutableBufferPointer { tg_webp_probe(bytes.baseAddress, bytes.count, &cLimits, &info, $0.baseAddress, &limit) }
        }
        guard status == Int32(TG_WEBP_OK) else { throw WebPDecoder.error(status: status, message: String(cMessage: message), limit: limit) }
        // The chunks point into `data`; what the header keeps is copied out now.
        let icc = WebPDecoder.chunk(info.icc, info.icc_size, in: data)
        let exif = WebPDecoder.chunk(info.exif, info.exif_size, in: data).map(WebPDecoder.tiff(fromExif:))
        // The whole file is in memory already; what the header keeps is bounded all the same.
        let xmp = info.xmp_size <= EmbeddedMetadata.maximumBytes ? WebPDecoder.chunk(info.xmp, info.xmp_size, in: data) : nil
        let metadata = EmbeddedMetadata(xmp: xmp, exif: exif.flatMap { $0.count <= EmbeddedMetadata.maximumBytes ? $0 : nil })
        info.icc = nil
        info.exif = nil
        info.xmp = nil
        self.info = info
        let pixels = UInt64(info.width) * UInt64(info.height)
        let frames = Int(max(info.frames, 1))
        let copies: UInt64 = info.animated != 0 ? (frames == 1 ? 3 : 2) : info.lossless != 0 ? 1 : 0
        workingBytes = UInt64(data.count) + 4 * pixels * copies
        (width, height) = (Int(info.width), Int(info.height))
        let orientation = exif.flatMap { ExifReader(tiff: $0)?.orientation } ?? .topLeft
        header = ImageHeader(format: .webp, storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: orientation,
                             bitDepth: 8, hasAlpha: info.has_alpha != 0, colorSource: icc.map(ColorSource.iccProfile) ?? .sRGB,
                             scanOrder: .sequential, details: .webp(lossless: info.lossless != 0, frames: frames),
                             metadata: metadata)
    }

    /// A chunk's bytes, from a pointer into `data` that libwebp's parser gave.
    private static func chunk(_ pointer: UnsafePointer<UInt8>?, _ size: Int, in data: EncodedWebP) -> [UInt8]? {
        guard let pointer, size > 0 else { return nil }
        return data.withBytes { base in
            let offset = pointer - base.baseAddress!
            return offset >= 0 && offset + size <= base.count ? Array(base[offset..<offset + size]) : nil
        }
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
        if let size = request.scaledSize, info.animated == 0 {
            precondition(size.width >= 1 && size.height >= 1 && size.width <= width && size.height <= height,
                         "libwebp scales down only")
            (width, height) = (size.width, size.height)
        }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: Int(TG_WEBP_MESSAGE_SIZE))
        let (outWidth, outHeight) = (UInt32(width), UInt32(height))
        let status = data.withBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { out in
                message.withUnsafeMutableBufferPointer {
                    tg_webp_decode(bytes.baseAddress, bytes.count, &info, outWidth, outHeight, out.baseAddress, $0.baseAddress)
                }
            }
        }
        guard status == Int32(TG_WEBP_OK) else { throw WebPDecoder.error(status: status, message: String(cMessage: message), limit: tg_limit_hit()) }
        return .rgba(Image(width: width, height: height, rgba8: pixels))
    }

    static func error(status: Int32, message: String, limit: tg_limit_hit) -> DecodeError {
        switch Int(status) {
        case Int(TG_WEBP_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_WEBP_ERR_NOT_WEBP): return message == "file is empty" ? .empty : .unrecognised
        case Int(TG_WEBP_ERR_TRUNCATED): return .truncated
        case Int(TG_WEBP_ERR_LIMIT): return LimitExceeded(limit).map(DecodeError.limitExceeded) ?? .corrupt(.webp, reason: message)
        case Int(TG_WEBP_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(.webp, reason: message)
        }
    }
}

/// The WebP data libwebp decodes from: a file's data as the C reader read it, kept in its buffer
/// (copying it into a Swift array would hold it twice) and freed with the decoder, or the bytes a
/// caller gave.
private final class EncodedWebP {
    private var read: tg_buffer
    private let given: [UInt8]?

    init(read: tg_buffer) {
        self.read = read
        given = nil
    }

    init(given: [UInt8]) {
        read = tg_buffer()
        self.given = given
    }

    deinit {
        tg_buffer_free(&read)
    }

    var count: Int { given?.count ?? read.size }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let given { return given.withUnsafeBufferPointer(body) }
        return body(UnsafeBufferPointer(start: read.data, count: read.size))
    }
}
