import CLibTIFF

/// Reads a TIFF's first page through libtiff's RGBA interface: strips or tiles, 1–16 bits,
/// gray, RGB, palette, CMYK and YCbCr, with or without alpha; samples come out at 8 bits. The
/// Orientation tag is the image's orientation (EXIF's is TIFF's), applied by the decode plan; the
/// ICC profile is its colour source.
///
/// 8-bit RGB and gray images in strips (most files: what cameras, scanners and Pillow write)
/// are read a scanline at a time, libtiff decoding each strip as it goes, and stream as RGB rows;
/// everything else goes through libtiff's RGBA reader, which fills a whole raster.
final class TIFFDecoder: ImageDecoder {
    static let format = ImageFormat.tiff
    static let reductions = [1]
    static let streamsRows = true

    let header: ImageHeader
    let warnings: [String] = []
    /// One decoded strip or tile, libtiff's working buffer; and for an image that `streams` by
    /// its header but whose scanlines are not its pixels (RGB in separate planes), the whole RGBA
    /// raster its rows are then handed out from.
    let workingBytes: UInt64
    var width: Int { header.storedWidth }
    var height: Int { header.storedHeight }
    let bitDepth = 8
    /// RGB rows when streaming; whole images are RGBA.
    private(set) var rowChannels = 4
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory.
    private let lent: LentBytes
    /// Whether scanlines are the pixels (8-bit RGB or gray, contiguous, in strips).
    private let rowsAsStored: Bool
    private var started = false
    /// The whole raster, when rows are streamed from an image whose scanlines are not its pixels.
    private var raster: [UInt8] = []
    private var nextRow = 0

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = tg_tiff_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                     max_file_bytes: limits.maxFileBytes, max_memory: limits.maxMemory,
                                     max_xmp_bytes: UInt64(EmbeddedMetadata.maximumBytes))
        var reader: OpaquePointer?
        var info = tg_tiff_info()
        var limit = tg_limit_hit()
        var message = [CChar](repeating: 0, count: Int(TG_TIFF_MESSAGE_SIZE))
        let status: Int32
        switch source {
        case .file(let path):
            lent = LentBytes(bytes: nil)
            status = message.withUnsafeMutableBufferPointer { tg_tiff_open_file(path, &cLimits, &reader, &info, $0.baseAddress, &limit) }
        case .bytes(let data):
            let storage = data.isEmpty ? [0] : data
            lent = LentBytes(bytes: storage)
            status = storage.withUnsafeBufferPointer { source in
                message.withUnsafeMutableBufferPointer {
                    tg_tiff_open_memory(source.baseAddress, data.count, &cLimits, &reader, &info, $0.baseAddress, &limit)
                }
            }
            if let reader { tg_tiff_rebase_memory(reader, nil) }
        }
        guard status == Int32(TG_TIFF_OK), let reader else {
            throw TIFFDecoder.error(status: status, message: String(cMessage: message), limit: limit)
        }
        self.reader = reader
        rowsAsStored = info.rows_as_stored != 0
        let icc = info.icc.map { Array(UnsafeBufferPointer(start: $0, count: info.icc_size)) }
        header = ImageHeader(format: .tiff, storedWidth: Int(info.width), storedHeight: Int(info.height),
                             orientation: Orientation(rawValue: Int(info.orientation)) ?? .topLeft,
                             bitDepth: Int(info.bits_per_sample), hasAlpha: info.has_alpha != 0,
                             colorSource: icc.map(ColorSource.iccProfile) ?? .sRGB, scanOrder: .sequential,
                             details: .tiff(photometric: TIFFDecoder.photometricName(Int(info.photometric)),
                                            samples: Int(info.samples_per_pixel), tiled: info.tiled != 0),
                             metadata: EmbeddedMetadata(xmp: info.xmp.map { Array(UnsafeBufferPointer(start: $0, count: info.xmp_size)) },
                                                        tiffRating: ExifReader.rating(type: UInt16(info.rating_type), raw: info.rating_raw)))
        let raster = TIFFDecoder.streams(header) && !rowsAsStored ? 4 * UInt64(info.width) * UInt64(info.height) : 0
        workingBytes = info.strip_bytes + raster
    }

    /// 8-bit opaque RGB or gray in strips: rows as stored, unless the samples lie in separate
    /// planes (the header does not say), which then stream from a whole raster.
    static func streams(_ header: ImageHeader) -> Bool {
        guard case .tiff(let photometric, let samples, let tiled) = header.details else { return false }
        return !tiled && header.bitDepth == 8 && !header.hasAlpha
            && ((photometric == "rgb" && samples == 3) || (photometric == "gray" && samples == 1))
    }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a TIFFDecoder decodes once")
        precondition(request.reduction == 1 && request.scaledSize == nil, "TIFF images are decoded at full size")
        precondition(!request.streams || TIFFDecoder.streams(header), "this TIFF's rows do not stream")
        started = true
        guard request.streams else { return }
        if rowsAsStored {
            rowChannels = 3
        } else {
            guard case .rgba(let image) = try decodeImage() else { preconditionFailure("RGBA from the RGBA reader") }
            raster = image.rgba8
        }
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        if row.count != width * rowChannels { row = [UInt8](repeating: 0, count: width * rowChannels) }
        if !raster.isEmpty {
            let length = width * 4
            row.replaceSubrange(0..<length, with: raster[nextRow * length..<(nextRow + 1) * length])
            nextRow += 1
            return
        }
        let status = row.withUnsafeMutableBufferPointer { out in lendingBytes { tg_tiff_read_row(reader, out.baseAddress) } }
        try check(status)
    }

    func readRow(into row: inout [UInt16]) throws(DecodeError) {
        preconditionFailure("TIFF rows are 8-bit")
    }

    func finish() throws(DecodeError) {
        guard raster.isEmpty else { return }
        try check(lendingBytes { tg_tiff_finish_rows(reader) })
    }

    private func check(_ status: Int32) throws(DecodeError) {
        guard status == Int32(TG_TIFF_OK) else {
            throw TIFFDecoder.error(status: status, message: String(cString: tg_tiff_reader_message(reader)), limit: tg_limit_hit())
        }
    }

    deinit {
        tg_tiff_close(reader)
    }

    /// TIFF's PhotometricInterpretation values (TIFF 6.0 §3, §5, §6, §16, §21), as `info` names them.
    static func photometricName(_ value: Int) -> String {
        switch value {
        case 0: return "white-is-zero gray"
        case 1: return "gray"
        case 2: return "rgb"
        case 3: return "palette"
        case 4: return "mask"
        case 5: return "cmyk"
        case 6: return "ycbcr"
        case 8: return "cielab"
        default: return "photometric \(value)"
        }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            lendingBytes { tg_tiff_read_image(reader, out.baseAddress) }
        }
        try check(status)
        return .rgba(Image(width: width, height: height, rgba8: pixels))
    }

    private func lendingBytes(_ body: () -> Int32) -> Int32 {
        lent.lend(via: { tg_tiff_rebase_memory(reader, $0) }, body)
    }

    static func error(status: Int32, message: String, limit: tg_limit_hit) -> DecodeError {
        switch Int(status) {
        case Int(TG_TIFF_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_TIFF_ERR_NOT_TIFF): return message == "file is empty" ? .empty : .unrecognised
        case Int(TG_TIFF_ERR_TRUNCATED): return .truncated
        case Int(TG_TIFF_ERR_LIMIT): return LimitExceeded(limit).map(DecodeError.limitExceeded) ?? .corrupt(.tiff, reason: message)
        case Int(TG_TIFF_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(.tiff, reason: message.lowercasedFirst)
        }
    }
}
