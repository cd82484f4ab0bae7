import CLibJPEG
import Glibc

/// Reads a JPEG through libjpeg(-turbo): the header (with EXIF, XMP and ICC data) first, then rows a
/// few at a time or the whole image, optionally reduced on load (libjpeg's DCT scaling by 1/2, 1/4
/// or 1/8).
///
/// Baseline and progressive files, gray, YCbCr (any chroma subsampling), RGB, CMYK and YCCK are
/// read. Pixels come out as straight RGBA (RGB rows when streamed), 8 bits per channel, in the
/// file's own colours: no ICC profile is applied here, and CMYK is converted with the naive
/// `R = (1 − C)(1 − K)` rule (taking Adobe's inverted CMYK into account) unless the raw samples are
/// asked for. Decoding is deterministic: accurate integer IDCT, fancy upsampling.
///
/// Corrupt-data warnings do not stop decoding; they are listed in `warnings`. A file that ends
/// early is `DecodeError.truncated` unless partial images are allowed, in which case libjpeg fills
/// the missing part and the warning says so.
final class JPEGDecoder: ImageDecoder {
    static let format = ImageFormat.jpeg
    static let reductions = [1, 2, 4, 8]
    static let streamsRows = true

    /// Progressive scans allowed per image: libjpeg-turbo's own advice for untrusted files
    /// (djpeg -maxscans) is a few hundred; a real encoder writes about ten.
    static let maxScans: UInt32 = 1000

    let header: ImageHeader
    /// The ICC profile reassembled from the APP2 `ICC_PROFILE` markers, if there is a complete
    /// one (also in `header.colorSource`).
    let iccProfile: [UInt8]?
    private let reader: OpaquePointer
    /// The encoded bytes when decoding from memory: libjpeg reads them in place, lent for each
    /// call that reads. A file is read through its descriptor, a chunk at a time.
    private let lent: LentBytes
    private(set) var width = 0
    private(set) var height = 0
    private(set) var rowChannels = 4
    let bitDepth = 8
    private var started = false

    /// A progressive file's coefficients, which libjpeg keeps for the whole image at full size
    /// (2 bytes a sample, whatever the reduction); a sequential file needs a few rows.
    var workingBytes: UInt64 {
        guard header.scanOrder == .progressive, case .jpeg(_, let components, _) = header.details else { return 0 }
        return 2 * UInt64(components) * UInt64(header.storedWidth) * UInt64(header.storedHeight)
    }

    init(source: ImageSource, limits: DecodeLimits) throws(DecodeError) {
        var cLimits = tg_jpeg_limits(max_pixels: limits.maxPixels, max_dimension: limits.maxDimension,
                                     max_file_bytes: limits.maxFileBytes, max_scans: JPEGDecoder.maxScans,
                                     max_memory: limits.maxMemory)
        var reader: OpaquePointer?
        var cInfo = tg_jpeg_info()
        var limit = tg_limit_hit()
        var message = [CChar](repeating: 0, count: Int(TG_JPEG_MESSAGE_SIZE))
        let status: Int32
        switch source {
        case .file(let path):
            lent = LentBytes(bytes: nil)
            status = message.withUnsafeMutableBufferPointer { buffer in
                tg_jpeg_open_file(path, &cLimits, &reader, &cInfo, buffer.baseAddress, &limit)
            }
        case .bytes(let data):
            // An empty array may have no storage to point at; one dummy byte stands in (size 0).
            let storage = data.isEmpty ? [0] : data
            lent = LentBytes(bytes: storage)
            status = storage.withUnsafeBufferPointer { source in
                message.withUnsafeMutableBufferPointer { buffer in
                    tg_jpeg_open_memory(source.baseAddress, data.count, &cLimits, &reader, &cInfo, buffer.baseAddress, &limit)
                }
            }
            if let reader { tg_jpeg_rebase_memory(reader, nil) }
        }
        guard status == Int32(TG_JPEG_OK), let reader else {
            throw JPEGDecoder.error(status: status, message: String(cMessage: message), limit: limit)
        }
        self.reader = reader
        var exif: [UInt8]?
        var xmp: [UInt8]?
        var icc: [UInt8]?
        var pointer: UnsafePointer<UInt8>?
        var size = 0
        // A marker holds at most 64 KiB, well inside EmbeddedMetadata.maximumBytes.
        if tg_jpeg_exif(reader, &pointer, &size) != 0, let pointer { exif = Array(UnsafeBufferPointer(start: pointer, count: size)) }
        if tg_jpeg_xmp(reader, &pointer, &size) != 0, let pointer { xmp = Array(UnsafeBufferPointer(start: pointer, count: size)) }
        if tg_jpeg_icc(reader, &pointer, &size) != 0, let pointer { icc = Array(UnsafeBufferPointer(start: pointer, count: size)) }
        iccProfile = icc
        header = JPEGDecoder.header(cInfo, metadata: EmbeddedMetadata(xmp: xmp, exif: exif), icc: icc)
    }

    /// Opens JPEG bytes held in memory (tests and tools; the pipeline opens through `ImageSource`).
    convenience init(bytes: [UInt8], limits: DecodeLimits = .default) throws(DecodeError) {
        try self.init(source: .bytes(bytes), limits: limits)
    }

    deinit {
        tg_jpeg_close(reader)
    }

    /// Runs a call that reads, with the bytes lent to the reader.
    private func lendingBytes(_ body: () -> Int32) -> Int32 {
        lent.lend(via: { tg_jpeg_rebase_memory(reader, $0) }, body)
    }

    /// libjpeg's warnings so far, each once, in order (at most eight kept), e.g.
    /// "Corrupt JPEG data: 3 extraneous bytes before marker 0xd9".
    var warnings: [String] {
        (0..<Int(tg_jpeg_kept_warning_count(reader))).map { String(cString: tg_jpeg_warning(reader, Int32($0))) }
    }

    /// True when the data ended before the image did (only after a partial decode).
    var wasTruncated: Bool { tg_jpeg_was_truncated(reader) != 0 }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a JPEGDecoder decodes once")
        started = true
        var w: UInt32 = 0, h: UInt32 = 0
        var channels: Int32 = 0
        try check(lendingBytes {
            tg_jpeg_start(reader, Int32(request.reduction), request.rawCMYK ? 1 : 0, request.allowPartial ? 1 : 0,
                          request.streams ? 1 : 0, &w, &h, &channels)
        })
        width = Int(w)
        height = Int(h)
        rowChannels = Int(channels)
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        if row.count != width * rowChannels { row = [UInt8](repeating: 0, count: width * rowChannels) }
        let status = row.withUnsafeMutableBufferPointer { out in lendingBytes { tg_jpeg_read_rows(reader, out.baseAddress, 1) } }
        try check(status)
    }

    func readRow(into row: inout [UInt16]) throws(DecodeError) {
        preconditionFailure("JPEG rows are 8-bit")
    }

    func finish() throws(DecodeError) {
        try check(lendingBytes { tg_jpeg_finish(reader) })
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        precondition(started && rowChannels == 4, "start(_:) without streaming first")
        var samples = [UInt8](repeating: 0, count: width * height * 4)
        let status = samples.withUnsafeMutableBufferPointer { out in lendingBytes { tg_jpeg_read_image(reader, out.baseAddress) } }
        try check(status)
        if case .jpeg(let space, _, let adobe) = header.details, space.isCMYK, tg_jpeg_is_raw_cmyk(reader) != 0 {
            return .cmyk(width: width, height: height, samples: samples, inverted: adobe)
        }
        return .rgba(Image(width: width, height: height, rgba8: samples))
    }

    private func check(_ status: Int32) throws(DecodeError) {
        guard status == Int32(TG_JPEG_OK) else {
            throw JPEGDecoder.error(status: status, message: String(cString: tg_jpeg_reader_message(reader)),
                                    limit: tg_jpeg_reader_limit(reader).pointee)
        }
    }

    static func error(status: Int32, message: String, limit: tg_limit_hit) -> DecodeError {
        switch Int(status) {
        case Int(TG_JPEG_ERR_OPEN): return .unreadable(reason: message)
        case Int(TG_JPEG_ERR_NOT_JPEG): return message == "file is empty" ? .empty : .unrecognised
        case Int(TG_JPEG_ERR_TRUNCATED): return .truncated
        case Int(TG_JPEG_ERR_LIMIT): return LimitExceeded(limit).map(DecodeError.limitExceeded) ?? .corrupt(.jpeg, reason: message)
        case Int(TG_JPEG_ERR_MEMORY): return .outOfMemory
        default: return .corrupt(.jpeg, reason: message)
        }
    }

    private static func header(_ c: tg_jpeg_info, metadata: EmbeddedMetadata, icc: [UInt8]?) -> ImageHeader {
        let space: JPEGColorSpace
        switch Int(c.color_space) {
        case Int(TG_JPEG_CS_GRAY): space = .gray
        case Int(TG_JPEG_CS_RGB): space = .rgb
        case Int(TG_JPEG_CS_CMYK): space = .cmyk
        case Int(TG_JPEG_CS_YCCK): space = .ycck
        default: space = .yCbCr
        }
        let orientation = metadata.exif.flatMap { ExifReader(tiff: $0)?.orientation } ?? .topLeft
        return ImageHeader(format: .jpeg, storedWidth: Int(c.width), storedHeight: Int(c.height), orientation: orientation,
                           bitDepth: 8, hasAlpha: false, colorSource: icc.map(ColorSource.iccProfile) ?? .sRGB,
                           scanOrder: c.progressive != 0 ? .progressive : .sequential,
                           details: .jpeg(colorSpace: space, components: Int(c.components), adobeMarker: c.adobe_marker != 0),
                           metadata: metadata)
    }
}
