import CLibPNG
import Glibc

/// Reads a PNG through libpng: the header and the chunks before the image data first, then rows
/// one by one (non-interlaced images) or the whole image at once (any image).
///
/// Rows come out as straight RGBA, sRGB-encoded: 8 bits per channel, or 16 for 16-bit sources;
/// rows of images without transparency are RGB (`rowChannels`), saving libpng's filler pass.
/// `decodeImage` always gives RGBA. Gamma, chromaticities and ICC profiles are reported in the
/// header, not applied.
package final class PNGDecoder: ImageDecoder {
    static let format = ImageFormat.png
    static let reductions = [1]
    static let streamsRows = true
    /// libpng's own state is bounded by the chunk limit, which `MemoryPlan` counts.
    let workingBytes: UInt64 = 0

    package let header: ImageHeader
    /// Samples per pixel in the rows `readRow` hands out: 3 (RGB) when the image has no
    /// transparency, else 4 (RGBA).
    package let rowChannels: Int
    /// 8 or 16: the depth of the rows and of the decoded image.
    package let bitDepth: Int
    let warnings: [String] = []
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory. libpng reads them in place, lent for the
    /// duration of each call that reads (`lendingBytes`) rather than copied.
    private let lent: LentBytes
    private var rowsRead = 0

    package var width: Int { header.storedWidth }
    package var height: Int { header.storedHeight }

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = limits.cLimits
        var reader: OpaquePointer?
        var cInfo = tg_png_info()
        var limit = tg_limit_hit()
        var message = [CChar](repeating: 0, count: Int(TG_PNG_MESSAGE_SIZE))
        let status: Int32
        switch source {
        case .file(let path):
            lent = LentBytes(bytes: nil)
            status = message.withUnsafeMutableBufferPointer { buffer in
                tg_png_open_file(path, &cLimits, &reader, &cInfo, buffer.baseAddress, &limit)
            }
        case .bytes(let data):
            // An empty array may have no storage to point at; one dummy byte stands in (size 0).
            let storage = data.isEmpty ? [0] : data
            lent = LentBytes(bytes: storage)
            status = storage.withUnsafeBufferPointer { source in
                message.withUnsafeMutableBufferPointer { buffer in
                    tg_png_open_memory(source.baseAddress, data.count, &cLimits, &reader, &cInfo, buffer.baseAddress, &limit)
                }
            }
            if let reader { tg_png_rebase_memory(reader, nil) }
        }
        guard status == Int32(TG_PNG_OK), let reader else {
            throw PNGDecoder.error(status: status, message: String(cMessage: message), limit: limit)
        }
        self.reader = reader
        rowChannels = Int(cInfo.row_channels)
        bitDepth = Int(cInfo.output_depth)
        header = PNGDecoder.header(cInfo, reader: reader)
    }

    /// Opens a file (tests and tools; the pipeline opens through `ImageSource`).
    package convenience init(path: String, limits: DecodeLimits = .default) throws(DecodeError) {
        try self.init(source: .file(path), limits: limits)
    }

    /// Opens PNG bytes held in memory.
    package convenience init(bytes: [UInt8], limits: DecodeLimits = .default) throws(DecodeError) {
        try self.init(source: .bytes(bytes), limits: limits)
    }

    deinit {
        tg_png_close(reader)
    }

    /// Rows not yet read by `readRow`.
    package var rowsRemaining: Int { height - rowsRead }

    /// Nothing to choose: PNG has no reduced decode, and rows and whole images need no set-up.
    func start(_ request: DecodeRequest) throws(DecodeError) {}

    /// The rest of the file is not read: rows past those the output needs are left, as the file
    /// cannot seek and a thumbnail of the top of an image should not wait for the bottom.
    func finish() throws(DecodeError) {}

    /// Runs a call that may read, with the in-memory bytes (if any) lent to the reader.
    private func lendingBytes(_ body: () -> Int32) -> Int32 {
        lent.lend(via: { tg_png_rebase_memory(reader, $0) }, body)
    }

    /// Reads the next row of an 8-bit image into `row` (resized to `width * rowChannels` samples).
    /// Only for non-interlaced images with `bitDepth == 8`.
    package func readRow(into row: inout [UInt8]) throws(DecodeError) {
        precondition(bitDepth == 8, "readRow(into: [UInt8]) needs an 8-bit image")
        if row.count != width * rowChannels { row = [UInt8](repeating: 0, count: width * rowChannels) }
        try check(row.withUnsafeMutableBytes(readNextRow))
        rowsRead += 1
    }

    /// Reads the next row of a 16-bit image into `row` (resized to `width * rowChannels` samples).
    /// Only for non-interlaced images with `bitDepth == 16`.
    package func readRow(into row: inout [UInt16]) throws(DecodeError) {
        precondition(bitDepth == 16, "readRow(into: [UInt16]) needs a 16-bit image")
        if row.count != width * rowChannels { row = [UInt16](repeating: 0, count: width * rowChannels) }
        try check(row.withUnsafeMutableBytes(readNextRow))
        rowsRead += 1
    }

    private func readNextRow(into raw: UnsafeMutableRawBufferPointer) -> Int32 {
        precondition(header.scanOrder != .interlaced, "interlaced images are read whole with decodeImage()")
        return lendingBytes { tg_png_read_rows(reader, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 1) }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        .rgba(try decodeRGBA())
    }

    /// Decodes the whole image (interlaced or not) as stored. Call it instead of `readRow`, not
    /// after it.
    package func decodeRGBA() throws(DecodeError) -> Image {
        precondition(rowsRead == 0, "decodeImage() after readRow")
        let count = width * height * 4
        if bitDepth == 16 {
            var samples = [UInt16](repeating: 0, count: count)
            let status = samples.withUnsafeMutableBytes { raw in
                lendingBytes { tg_png_read_image(reader, raw.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            }
            try check(status)
            rowsRead = height
            return Image(width: width, height: height, rgba16: samples)
        }
        var samples = [UInt8](repeating: 0, count: count)
        let status = samples.withUnsafeMutableBufferPointer { out in lendingBytes { tg_png_read_image(reader, out.baseAddress) } }
        try check(status)
        rowsRead = height
        return Image(width: width, height: height, rgba8: samples)
    }

    /// Decodes a whole file as stored (no colour conversion, no rotation).
    package static func decode(path: String, limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        try PNGDecoder(path: path, limits: limits).decodeRGBA()
    }

    /// Decodes whole PNG bytes as stored.
    package static func decode(bytes: [UInt8], limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        try PNGDecoder(bytes: bytes, limits: limits).decodeRGBA()
    }

    private func check(_ status: Int32) throws(DecodeError) {
        guard status == Int32(TG_PNG_OK) else {
            throw PNGDecoder.error(status: status, message: String(cString: tg_png_reader_message(reader)),
                                   limit: tg_png_reader_limit(reader).pointee)
        }
    }

    static func error(status: Int32, message: String, limit: tg_limit_hit) -> DecodeError {
        switch Int(status) {
        case Int(TG_PNG_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_PNG_ERR_SIGNATURE): return message == "file is empty" ? .empty : .unrecognised
        case Int(TG_PNG_ERR_TRUNCATED): return .truncated
        case Int(TG_PNG_ERR_LIMIT): return LimitExceeded(limit).map(DecodeError.limitExceeded) ?? .corrupt(.png, reason: message)
        case Int(TG_PNG_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(.png, reason: message)
        }
    }

    /// The header, with the colour, orientation and XMP chunks libpng read before the first IDAT
    /// (an `eXIf` or XMP after the image data is not seen, as the PNG spec asks encoders to avoid).
    private static func header(_ c: tg_png_info, reader: OpaquePointer) -> ImageHeader {
        var m = tg_png_metadata()
        tg_png_get_metadata(reader, &m)
        let colorSource: ColorSource
        if let icc = m.icc, m.icc_size > 0 {
            colorSource = .iccProfile(Array(UnsafeBufferPointer(start: icc, count: m.icc_size)))
        } else if m.has_srgb != 0 {
            colorSource = .sRGB
        } else if m.has_gama != 0 {
            let x = m.chrm
            colorSource = .gamma(m.gamma, chromaticities: m.has_chrm != 0 ? [x.0, x.1, x.2, x.3, x.4, x.5, x.6, x.7] : nil)
        } else {
            colorSource = .sRGB
        }
        let exif = m.exif.flatMap { m.exif_size > 0 ? Array(UnsafeBufferPointer(start: $0, count: m.exif_size)) : nil }
        // eXIf is held by libpng within the chunk limit; only a block within the metadata limit is kept.
        let metadata = EmbeddedMetadata(xmp: m.xmp.map { Array(UnsafeBufferPointer(start: $0, count: m.xmp_size)) },
                                        exif: exif.flatMap { $0.count <= EmbeddedMetadata.maximumBytes ? $0 : nil })
        let orientation = exif.flatMap { ExifReader(tiff: $0)?.orientation } ?? .topLeft
        let colorType = PNGColorType(rawValue: Int(c.color_type)) ?? .rgba
        return ImageHeader(format: .png, storedWidth: Int(c.width), storedHeight: Int(c.height), orientation: orientation,
                           bitDepth: Int(c.bit_depth),
                           hasAlpha: c.has_trns != 0 || colorType == .grayAlpha || colorType == .rgba,
                           colorSource: colorSource, scanOrder: c.interlaced != 0 ? .interlaced : .sequential,
                           details: .png(colorType: colorType), metadata: metadata)
    }
}

extension DecodeLimits {
    var cLimits: tg_png_limits {
        tg_png_limits(max_pixels: maxPixels, max_width: maxDimension, max_height: maxDimension,
                      chunk_cache_max: maxAncillaryChunks, chunk_malloc_max: maxChunkBytes,
                      max_file_bytes: maxFileBytes, max_xmp_bytes: UInt64(EmbeddedMetadata.maximumBytes))
    }
}
