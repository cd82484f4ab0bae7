import CLibPNG
import Glibc

/// Reads a PNG through libpng: the header first, then rows one by one (non-interlaced images) or
/// the whole image at once (any image).
///
/// Rows come out as straight RGBA, sRGB-encoded: 8 bits per channel, or 16 for 16-bit sources
/// (`info.outputBitDepth`); `readRow` gives RGB for images without transparency (`rowChannels`).
/// Gamma, chromaticities and ICC profiles are not applied.
/// A decoder reads one image once; it is not shared between threads.
public final class PNGDecoder {
    public let info: PNGInfo
    /// Samples per pixel in the rows `readRow` hands out: 3 (RGB) when the image has no
    /// transparency, else 4 (RGBA). `decodeImage` always gives RGBA.
    public let rowChannels: Int
    let reader: OpaquePointer
    /// The encoded bytes when decoding from memory. libpng reads them in place, lent for the
    /// duration of each call that reads (`lendingBytes`) rather than copied.
    private let bytes: [UInt8]?
    private var rowsRead = 0

    /// Opens a file and reads its header. Only regular files are read (a FIFO cannot hang it).
    public init(path: String, limits: DecodeLimits = .default) throws(PNGError) {
        var cLimits = limits.cLimits
        var reader: OpaquePointer?
        var cInfo = tg_png_info()
        var message = PNGDecoder.messageBuffer()
        let status = message.withUnsafeMutableBufferPointer { buffer in
            tg_png_open_file(path, &cLimits, &reader, &cInfo, buffer.baseAddress)
        }
        guard status == Int32(TG_PNG_OK), let reader else {
            throw PNGDecoder.error(status: status, message: String(cMessage: message))
        }
        self.reader = reader
        self.bytes = nil
        self.info = PNGInfo(cInfo)
        self.rowChannels = Int(cInfo.row_channels)
    }

    /// Reads a PNG held in memory.
    public init(bytes: [UInt8], limits: DecodeLimits = .default) throws(PNGError) {
        var cLimits = limits.cLimits
        var reader: OpaquePointer?
        var cInfo = tg_png_info()
        var message = PNGDecoder.messageBuffer()
        // An empty array may have no storage to point at; one dummy byte stands in (size 0).
        let storage = bytes.isEmpty ? [0] : bytes
        let status = storage.withUnsafeBufferPointer { source in
            message.withUnsafeMutableBufferPointer { buffer in
                tg_png_open_memory(source.baseAddress, bytes.count, &cLimits, &reader, &cInfo, buffer.baseAddress)
            }
        }
        guard status == Int32(TG_PNG_OK), let reader else {
            throw PNGDecoder.error(status: status, message: String(cMessage: message))
        }
        tg_png_rebase_memory(reader, nil)
        self.reader = reader
        self.bytes = storage
        self.info = PNGInfo(cInfo)
        self.rowChannels = Int(cInfo.row_channels)
    }

    deinit {
        tg_png_close(reader)
    }

    /// Runs a call that may read, with the in-memory bytes (if any) lent to the reader.
    private func lendingBytes(_ body: () -> Int32) -> Int32 {
        guard let bytes else { return body() }
        return bytes.withUnsafeBufferPointer { source in
            tg_png_rebase_memory(reader, source.baseAddress)
            defer { tg_png_rebase_memory(reader, nil) }
            return body()
        }
    }

    /// Rows not yet read by `readRow`.
    public var rowsRemaining: Int { info.height - rowsRead }

    /// Reads the next row of an 8-bit image into `row` (resized to `width * rowChannels` samples).
    /// Only for non-interlaced images with `info.outputBitDepth == 8`.
    public func readRow(into row: inout [UInt8]) throws(PNGError) {
        precondition(info.outputBitDepth == 8, "readRow(into: [UInt8]) needs an 8-bit image")
        if row.count != info.width * rowChannels { row = [UInt8](repeating: 0, count: info.width * rowChannels) }
        try check(row.withUnsafeMutableBytes(readNextRow))
        rowsRead += 1
    }

    /// Reads the next row of a 16-bit image into `row` (resized to `width * rowChannels` samples).
    /// Only for non-interlaced images with `info.outputBitDepth == 16`.
    public func readRow(into row: inout [UInt16]) throws(PNGError) {
        precondition(info.outputBitDepth == 16, "readRow(into: [UInt16]) needs a 16-bit image")
        if row.count != info.width * rowChannels { row = [UInt16](repeating: 0, count: info.width * rowChannels) }
        try check(row.withUnsafeMutableBytes(readNextRow))
        rowsRead += 1
    }

    private func readNextRow(into raw: UnsafeMutableRawBufferPointer) -> Int32 {
        precondition(!info.interlaced, "interlaced images are read whole with decodeImage()")
        return lendingBytes { tg_png_read_rows(reader, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 1) }
    }

    /// Decodes the whole image (interlaced or not). Call it instead of `readRow`, not after it.
    public func decodeImage() throws(PNGError) -> Image {
        precondition(rowsRead == 0, "decodeImage() after readRow")
        let count = info.width * info.height * 4
        if info.outputBitDepth == 16 {
            var samples = [UInt16](repeating: 0, count: count)
            let status = samples.withUnsafeMutableBytes { raw in
                lendingBytes { tg_png_read_image(reader, raw.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            }
            try check(status)
            rowsRead = info.height
            return Image(width: info.width, height: info.height, rgba16: samples)
        }
        var samples = [UInt8](repeating: 0, count: count)
        let status = samples.withUnsafeMutableBufferPointer { out in lendingBytes { tg_png_read_image(reader, out.baseAddress) } }
        try check(status)
        rowsRead = info.height
        return Image(width: info.width, height: info.height, rgba8: samples)
    }

    /// Decodes a whole file.
    public static func decode(path: String, limits: DecodeLimits = .default) throws(PNGError) -> Image {
        try PNGDecoder(path: path, limits: limits).decodeImage()
    }

    /// Decodes whole PNG bytes.
    public static func decode(bytes: [UInt8], limits: DecodeLimits = .default) throws(PNGError) -> Image {
        try PNGDecoder(bytes: bytes, limits: limits).decodeImage()
    }

    private func check(_ status: Int32) throws(PNGError) {
        guard status == Int32(TG_PNG_OK) else {
            throw PNGDecoder.error(status: status, message: String(decoding: UnsafeRawBufferPointer(start: tg_png_reader_message(reader), count: strlen(tg_png_reader_message(reader))), as: UTF8.self))
        }
    }

    private static func messageBuffer() -> [CChar] { [CChar](repeating: 0, count: Int(TG_PNG_MESSAGE_SIZE)) }

    static func error(status: Int32, message: String) -> PNGError {
        switch Int(status) {
        case Int(TG_PNG_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_PNG_ERR_SIGNATURE): return .notPNG(reason: message)
        case Int(TG_PNG_ERR_TRUNCATED): return .truncated
        case Int(TG_PNG_ERR_LIMIT): return .limitExceeded(reason: message)
        case Int(TG_PNG_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(reason: message)
        }
    }
}

extension String {
    /// The text before the first NUL of a C message buffer.
    init(cMessage buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension DecodeLimits {
    var cLimits: tg_png_limits {
        tg_png_limits(max_pixels: maxPixels, max_width: maxDimension, max_height: maxDimension,
                      chunk_cache_max: maxAncillaryChunks, chunk_malloc_max: maxChunkBytes,
                      max_file_bytes: maxFileBytes)
    }
}

extension PNGInfo {
    init(_ c: tg_png_info) {
        self.init(width: Int(c.width), height: Int(c.height), bitDepth: Int(c.bit_depth),
                  colorType: ColorType(rawValue: Int(c.color_type)) ?? .rgba,
                  interlaced: c.interlaced != 0,
                  hasTransparency: c.has_trns != 0 || c.color_type == 4 || c.color_type == 6)
    }
}
