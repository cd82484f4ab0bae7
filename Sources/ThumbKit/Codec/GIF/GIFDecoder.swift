import CLibGIF

/// Reads a GIF's first image through giflib, onto its logical screen: pixels the frame leaves
/// uncovered and the transparent index are transparent, a frame reaching past the screen is
/// clipped, interlaced rows go to their places. Later frames (an animation) are not read, nor is
/// anything after the first image. Images are decoded whole (the canvas is small next to a photo,
/// and a frame need not cover it).
final class GIFDecoder: WholeImageDecoder {
    static let format = ImageFormat.gif

    let header: ImageHeader
    let warnings: [String] = []
    /// One line of indexes and giflib's LZW state: small and fixed.
    let workingBytes: UInt64 = 0
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory.
    private let lent: LentBytes

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = tg_gif_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                    max_file_bytes: limits.maxFileBytes)
        var reader: OpaquePointer?
        var info = tg_gif_info()
        var limit = tg_limit_hit()
        var message = [CChar](repeating: 0, count: Int(TG_GIF_MESSAGE_SIZE))
        let status: Int32
        switch source {
        case .file(let path):
            lent = LentBytes(bytes: nil)
            status = message.withUnsafeMutableBufferPointer { tg_gif_open_file(path, &cLimits, &reader, &info, $0.baseAddress, &limit) }
        case .bytes(let data):
            let storage = data.isEmpty ? [0] : data
            lent = LentBytes(bytes: storage)
            status = storage.withUnsafeBufferPointer { source in
                message.withUnsafeMutableBufferPointer {
                    tg_gif_open_memory(source.baseAddress, data.count, &cLimits, &reader, &info, $0.baseAddress, &limit)
                }
            }
            if let reader { tg_gif_rebase_memory(reader, nil) }
        }
        guard status == Int32(TG_GIF_OK), let reader else {
            throw GIFDecoder.error(status: status, message: String(cMessage: message), limit: limit)
        }
        self.reader = reader
        header = ImageHeader(format: .gif, storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: .topLeft,
                             bitDepth: 8, hasAlpha: info.has_alpha != 0, colorSource: .sRGB,
                             scanOrder: info.interlaced != 0 ? .interlaced : .sequential, details: .gif)
    }

    deinit {
        tg_gif_close(reader)
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            lendingBytes { tg_gif_read_image(reader, out.baseAddress) }
        }
        guard status == Int32(TG_GIF_OK) else {
            throw GIFDecoder.error(status: status, message: String(cString: tg_gif_reader_message(reader)), limit: tg_limit_hit())
        }
        return .rgba(Image(width: width, height: height, rgba8: pixels))
    }

    private func lendingBytes(_ body: () -> Int32) -> Int32 {
        lent.lend(via: { tg_gif_rebase_memory(reader, $0) }, body)
    }

    static func error(status: Int32, message: String, limit: tg_limit_hit) -> DecodeError {
        switch Int(status) {
        case Int(TG_GIF_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_GIF_ERR_NOT_GIF): return message == "file is empty" ? .empty : .unrecognised
        case Int(TG_GIF_ERR_TRUNCATED): return .truncated
        case Int(TG_GIF_ERR_LIMIT): return LimitExceeded(limit).map(DecodeError.limitExceeded) ?? .corrupt(.gif, reason: message)
        case Int(TG_GIF_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(.gif, reason: message.lowercasedFirst)
        }
    }
}
