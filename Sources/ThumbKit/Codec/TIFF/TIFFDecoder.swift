import CLibTIFF

/// Reads a TIFF's first page through libtiff's RGBA interface: strips or tiles, 1–16 bits,
/// gray, RGB, palette, CMYK and YCbCr, with or without alpha; samples come out at 8 bits. The
/// Orientation tag is the image's orientation (EXIF's is TIFF's), applied by the decode plan; the
/// ICC profile is its colour source. Images are decoded whole (libtiff's RGBA reader fills a
/// whole raster).
final class TIFFDecoder: WholeImageDecoder {
    static let format = ImageFormat.tiff

    let header: ImageHeader
    let warnings: [String] = []
    /// One decoded strip or tile, libtiff's working buffer.
    let workingBytes: UInt64
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory.
    private let lent: LentBytes

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = tg_tiff_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                     max_file_bytes: limits.maxFileBytes, max_memory: limits.maxMemory)
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
        workingBytes = info.strip_bytes
        let icc = info.icc.map { Array(UnsafeBufferPointer(start: $0, count: info.icc_size)) }
        header = ImageHeader(format: .tiff, storedWidth: Int(info.width), storedHeight: Int(info.height),
                             orientation: Orientation(rawValue: Int(info.orientation)) ?? .topLeft,
                             bitDepth: Int(info.bits_per_sample), hasAlpha: info.has_alpha != 0,
                             colorSource: icc.map(ColorSource.iccProfile) ?? .sRGB, scanOrder: .sequential,
                             details: .tiff(photometric: TIFFDecoder.photometricName(Int(info.photometric)),
                                            samples: Int(info.samples_per_pixel), tiled: info.tiled != 0))
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
        guard status == Int32(TG_TIFF_OK) else {
            throw TIFFDecoder.error(status: status, message: String(cString: tg_tiff_reader_message(reader)), limit: tg_limit_hit())
        }
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
