import CLibWebP

/// Reads a WebP through libwebp: lossy (VP8) and lossless (VP8L) images, with or without alpha,
/// and animations, of which the first frame is decoded (composed onto the canvas as libwebp's
/// animation decoder does). The ICC profile and the EXIF orientation come from the container.
///
/// libwebp decodes from memory, so a file's WebP data (as far as its RIFF size says, never what
/// follows) is read into one buffer, read in chunks after its declared size was checked against
/// the limits and the memory budget. Images are decoded whole: libwebp hands out no rows.
final class WebPDecoder: WholeImageDecoder {
    static let format = ImageFormat.webp

    let header: ImageHeader
    let warnings: [String] = []
    /// The file's data and, when libwebp works on a copy (a lossless image's pixels, an
    /// animation's two canvases), that copy.
    let workingBytes: UInt64
    private let data: EncodedWebP
    private var info: tg_webp_info

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
        let exif = WebPDecoder.chunk(info.exif, info.exif_size, in: data)
        info.icc = nil
        info.exif = nil
        self.info = info
        let pixels = UInt64(info.width) * UInt64(info.height)
        workingBytes = UInt64(data.count) + 4 * pixels * (info.animated != 0 ? 2 : info.lossless != 0 ? 1 : 0)
        let orientation = exif.flatMap { ExifReader(tiff: WebPDecoder.tiff(fromExif: $0))?.orientation } ?? .topLeft
        header = ImageHeader(format: .webp, storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: orientation,
                             bitDepth: 8, hasAlpha: info.has_alpha != 0, colorSource: icc.map(ColorSource.iccProfile) ?? .sRGB,
                             scanOrder: .sequential, details: .webp(lossless: info.lossless != 0, frames: Int(max(info.frames, 1))))
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

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: Int(TG_WEBP_MESSAGE_SIZE))
        let status = data.withBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { out in
                message.withUnsafeMutableBufferPointer { tg_webp_decode(bytes.baseAddress, bytes.count, &info, out.baseAddress, $0.baseAddress) }
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
