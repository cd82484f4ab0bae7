import CLibGIF

/// Reads a GIF's first image through giflib, onto its logical screen: pixels the frame leaves
/// uncovered and the transparent index are transparent, a frame reaching past the screen is
/// clipped, interlaced rows go to their places. Later frames (an animation) are not read, nor is
/// anything after the first image. Images stream: rows of the screen come out one at a time, RGB
/// when nothing is transparent, as giflib decodes the frame's lines; an interlaced frame's
/// indexes (a byte a pixel) are read whole first, and its rows made from them.
final class GIFDecoder: ImageDecoder {
    static let format = ImageFormat.gif
    static let reductions = [1]
    static let streamsRows = true

    let header: ImageHeader
    let warnings: [String] = []
    /// One line of indexes and giflib's LZW state, small and fixed; and an interlaced frame's
    /// indexes, a byte a screen pixel at most, kept while its rows stream (counted for the
    /// whole-image path too, which does not need them: the plan is a bound).
    let workingBytes: UInt64
    var width: Int { header.storedWidth }
    var height: Int { header.storedHeight }
    let bitDepth = 8
    /// RGB rows for an image without transparency, else RGBA; whole images are always RGBA.
    private(set) var rowChannels = 4
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory.
    private let lent: LentBytes
    private var started = false

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
        workingBytes = info.interlaced != 0 ? UInt64(info.frame_width) * UInt64(info.frame_height) : 0
    }

    deinit {
        tg_gif_close(reader)
    }

    /// Interlaced images stream too, from their kept indexes.
    static func streams(_ header: ImageHeader) -> Bool { true }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a GIFDecoder decodes once")
        precondition(request.reduction == 1 && request.scaledSize == nil, "GIF images are decoded at full size")
        started = true
        rowChannels = request.streams && !header.hasAlpha ? 3 : 4
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        if row.count != width * rowChannels { row = [UInt8](repeating: 0, count: width * rowChannels) }
        let channels = Int32(rowChannels)
        let status = row.withUnsafeMutableBufferPointer { out in lendingBytes { tg_gif_read_row(reader, out.baseAddress, channels) } }
        try check(status)
    }

    func readRow(into row: inout [UInt16]) throws(DecodeError) {
        preconditionFailure("GIF rows are 8-bit")
    }

    func finish() throws(DecodeError) {
        try check(lendingBytes { tg_gif_finish_rows(reader) })
    }

    private func check(_ status: Int32) throws(DecodeError) {
        guard status == Int32(TG_GIF_OK) else {
            throw GIFDecoder.error(status: status, message: String(cString: tg_gif_reader_message(reader)), limit: tg_limit_hit())
        }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            lendingBytes { tg_gif_read_image(reader, out.baseAddress) }
        }
        try check(status)
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
