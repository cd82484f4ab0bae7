import CLibHEIF

/// Reads a HEIF file's primary image through libheif: HEIC (HEVC, through libde265) and AVIF (AV1,
/// through dav1d, by CLibHEIF's own decoder plugin), 8 to 12 bits, with or without alpha.
///
/// **Orientation.** HEIF's transformative properties (clean aperture `clap`, rotation `irot`,
/// mirroring `imir`) are part of the image (ISO/IEC 23008-12 §6.5.10: a reader applies them), so
/// libheif applies them while decoding and the header reports the displayed size with orientation
/// `.topLeft`. An EXIF orientation stored in the file is not read (it describes the same turn, and
/// applying it too would turn the image twice), and `autoRotate` off (`--no-rotate`) does not undo
/// the transforms.
///
/// **Colour.** An ICC profile is the colour source; else the nclx values of a `colr` box
/// (`NCLXColour`); else sRGB. **Depth.** Images coded with more than 8 bits come out as 16-bit
/// samples. **Rows.** libheif decodes whole images only, into planes of its own; streamed rows are
/// interleaved from those planes one at a time (RGB rows for opaque images), so no second
/// full-size copy is made, and the planes go when the last row has been read.
final class HEIFDecoder: ImageDecoder {
    static let format = ImageFormat.heif
    static let reductions = [1]
    static let streamsRows = true

    let header: ImageHeader
    let warnings: [String]
    /// The file's coded data and libheif's decoded images: the decoder's frames and YCbCr planes,
    /// and the planar RGB (and alpha) libheif converts them to, at most 8 samples a pixel at once.
    let workingBytes: UInt64
    var width: Int { header.storedWidth }
    var height: Int { header.storedHeight }
    /// Samples come out at 16 bits for images coded with more than 8.
    var bitDepth: Int { header.bitDepth > 8 ? 16 : 8 }
    /// RGB for opaque images when streaming, else RGBA.
    private(set) var rowChannels = 4
    private var started = false
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory.
    private let lent: LentBytes

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = tg_heif_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                     max_file_bytes: limits.maxFileBytes)
        var reader: OpaquePointer?
        var info = tg_heif_info()
        var limit = tg_limit_hit()
        var message = [CChar](repeating: 0, count: Int(TG_HEIF_MESSAGE_SIZE))
        let status: Int32
        switch source {
        case .file(let path):
            lent = LentBytes(bytes: nil)
            status = message.withUnsafeMutableBufferPointer { tg_heif_open_file(path, &cLimits, &reader, &info, $0.baseAddress, &limit) }
        case .bytes(let data):
            let storage = data.isEmpty ? [0] : data
            lent = LentBytes(bytes: storage)
            status = storage.withUnsafeBufferPointer { source in
                message.withUnsafeMutableBufferPointer {
                    tg_heif_open_memory(source.baseAddress, data.count, &cLimits, &reader, &info, $0.baseAddress, &limit)
                }
            }
            if let reader { tg_heif_rebase_memory(reader, nil) }
        }
        guard status == Int32(TG_HEIF_OK), let reader else {
            throw HEIFDecoder.error(status: status, message: String(cMessage: message), limit: limit)
        }
        self.reader = reader
        let depth: UInt64 = info.bit_depth > 8 ? 2 : 1
        workingBytes = info.file_bytes + 8 * depth * UInt64(info.width) * UInt64(info.height)
        let colour: (source: ColorSource, warning: String?)
        if let icc = info.icc {
            colour = (.iccProfile(Array(UnsafeBufferPointer(start: icc, count: info.icc_size))), nil)
        } else if info.has_nclx != 0 {
            colour = NCLXColour(primaries: Int(info.primaries), transfer: Int(info.transfer)).colorSource
        } else {
            colour = (.sRGB, nil)
        }
        warnings = colour.warning.map { [$0] } ?? []
        let brand = withUnsafeBytes(of: info.brand) { String(decoding: $0.prefix(4), as: UTF8.self) }
        header = ImageHeader(format: .heif, storedWidth: Int(info.width), storedHeight: Int(info.height), orientation: .topLeft,
                             bitDepth: Int(info.bit_depth), hasAlpha: info.has_alpha != 0, colorSource: colour.source,
                             scanOrder: .sequential,
                             details: .heif(brand: brand, images: Int(max(info.images, 1)), thumbnails: Int(max(info.thumbnails, 0))),
                             metadata: HEIFMetadata.read(reader, lent: lent))
    }

    deinit {
        tg_heif_close(reader)
    }

    /// Every image streams: HEIF has no interlacing, and its transforms are already applied.
    static func streams(_ header: ImageHeader) -> Bool { true }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a HEIFDecoder decodes once")
        precondition(request.reduction == 1 && request.scaledSize == nil, "HEIF images are decoded at full size")
        started = true
        rowChannels = request.streams && !header.hasAlpha ? 3 : 4
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) { try read(into: &row) }

    func readRow(into row: inout [UInt16]) throws(DecodeError) { try read(into: &row) }

    /// One row of 8-bit (`UInt8`) or 16-bit (`UInt16`) samples from CLibHEIF.
    private func read<Sample: FixedWidthInteger>(into row: inout [Sample]) throws(DecodeError) {
        if row.count != width * rowChannels { row = [Sample](repeating: 0, count: width * rowChannels) }
        let channels = Int32(rowChannels), sixteen: Int32 = Sample.bitWidth == 16 ? 1 : 0
        try check(row.withUnsafeMutableBufferPointer { out in lendingBytes { tg_heif_read_row(reader, out.baseAddress, channels, sixteen) } })
    }

    /// The whole image was decoded with the first row.
    func finish() throws(DecodeError) {}

    private func check(_ status: Int32) throws(DecodeError) {
        guard status == Int32(TG_HEIF_OK) else {
            throw HEIFDecoder.error(status: status, message: String(cString: tg_heif_reader_message(reader)), limit: tg_limit_hit())
        }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        let count = width * height * 4
        let status: Int32
        let image: Image
        if bitDepth == 16 {
            var pixels = [UInt16](repeating: 0, count: count)
            status = pixels.withUnsafeMutableBufferPointer { out in lendingBytes { tg_heif_read_image(reader, out.baseAddress, 1) } }
            image = Image(width: width, height: height, rgba16: pixels)
        } else {
            var pixels = [UInt8](repeating: 0, count: count)
            status = pixels.withUnsafeMutableBufferPointer { out in lendingBytes { tg_heif_read_image(reader, out.baseAddress, 0) } }
            image = Image(width: width, height: height, rgba8: pixels)
        }
        try check(status)
        return .rgba(image)
    }

    private func lendingBytes(_ body: () -> Int32) -> Int32 {
        lent.lend(via: { tg_heif_rebase_memory(reader, $0) }, body)
    }

    static func error(status: Int32, message: String, limit: tg_limit_hit) -> DecodeError {
        switch Int(status) {
        case Int(TG_HEIF_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_HEIF_ERR_NOT_HEIF): return message == "file is empty" ? .empty : .unrecognised
        case Int(TG_HEIF_ERR_TRUNCATED): return .truncated
        case Int(TG_HEIF_ERR_LIMIT): return LimitExceeded(limit).map(DecodeError.limitExceeded) ?? .corrupt(.heif, reason: message)
        case Int(TG_HEIF_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(.heif, reason: message.lowercasedFirst)
        }
    }
}
