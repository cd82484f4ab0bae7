import CLibJPEG

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
/// At 1/8 scale a progressive file's AC scans of every component decoded with a 1×1 IDCT (luma,
/// and chroma stored at full resolution) are skipped unread: those pixels come from the DC
/// coefficients alone, and the AC scans are most of a progressive photo's decoding time. The
/// pixels are the full decode's (`JPEGScanSkippingTests` holds them to djpeg's).
///
/// Corrupt-data warnings do not stop decoding; they are listed in `warnings`. A file that ends
/// early is `DecodeError.truncated` unless partial images are allowed, in which case libjpeg fills
/// the missing part and the warning says so.
final class JPEGDecoder: ImageDecoder {
    static let format = ImageFormat.jpeg
    /// libjpeg's version and that of lcms2, which converts a JPEG's CMYK and its profiles, e.g.
    /// "libjpeg-turbo 2.1.5 (API 62), lcms2 2.14". Part of the settings field `libraries` (`CodecVersions.field`): the
    /// text must not change.
    static let libraryVersion = "\(CodecVersions.text(tg_jpeg_version)), \(CodecVersions.lcms)"
    static let reductions = [1, 2, 4, 8]

    let header: ImageHeader
    /// The ICC profile reassembled from the APP2 `ICC_PROFILE` markers, if there is a complete
    /// one (also in `header.colorSource`).
    let iccProfile: [UInt8]?
    private let reader: CodecReader
    private(set) var width = 0
    private(set) var height = 0
    private(set) var rowChannels = 4
    private var started = false

    /// A progressive file's coefficients, which libjpeg keeps for the whole image at full size
    /// (2 bytes a sample, whatever the reduction); a sequential file needs a few rows.
    var workingBytes: UInt64 {
        guard header.scanOrder == .progressive, case .jpeg(_, let components, _) = header.details else { return 0 }
        return 2 * UInt64(components) * UInt64(header.storedWidth) * UInt64(header.storedHeight)
    }

    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        var info = tg_jpeg_info()
        reader = try CodecReader(JPEGDecoder.self, input: input, limits: limits, info: &info, open: tg_jpeg_open, close: tg_jpeg_close)
        // A marker holds at most 64 KiB, well inside EmbeddedMetadata.maximumBytes.
        let exif = JPEGDecoder.block(reader.handle, tg_jpeg_exif)
        let xmp = JPEGDecoder.block(reader.handle, tg_jpeg_xmp)
        iccProfile = JPEGDecoder.block(reader.handle, tg_jpeg_icc)
        header = JPEGDecoder.header(info, metadata: EmbeddedMetadata(xmp: xmp, exif: exif), icc: iccProfile)
    }

    /// Opens JPEG bytes held in memory (tests and tools; the pipeline opens through `ImageSource`).
    convenience init(bytes: [UInt8], limits: DecodeLimits = .default) throws(DecodeError) {
        try self.init(source: .bytes(bytes), limits: limits)
    }

    /// A marker's payload the reader kept with the header (EXIF, XMP, the reassembled ICC
    /// profile), copied out.
    private static func block(_ reader: OpaquePointer,
                              _ find: (OpaquePointer, UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafeMutablePointer<Int>) -> Int32) -> [UInt8]? {
        var pointer: UnsafePointer<UInt8>?
        var size = 0
        guard find(reader, &pointer, &size) != 0, let pointer else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: size))
    }

    /// libjpeg's warnings so far, each once, in order (at most eight kept), e.g.
    /// "Corrupt JPEG data: 3 extraneous bytes before marker 0xd9".
    var warnings: [String] {
        (0..<Int(tg_jpeg_kept_warning_count(reader.handle))).map { String(cString: tg_jpeg_warning(reader.handle, Int32($0))) }
    }

    /// True when the data ended before the image did (only after a partial decode).
    var wasTruncated: Bool { tg_jpeg_was_truncated(reader.handle) != 0 }

    /// The progressive scans the decode left unread, no output pixel depending on them (at 1/8
    /// scale, the AC scans of components that come out of their DC coefficients alone).
    var droppedScans: Int { Int(tg_jpeg_dropped_scans(reader.handle)) }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!started, "a JPEGDecoder decodes once")
        started = true
        var w: UInt32 = 0, h: UInt32 = 0
        var channels: Int32 = 0
        try reader.call {
            tg_jpeg_start($0, Int32(request.reduction), request.rawCMYK ? 1 : 0, request.allowPartial ? 1 : 0,
                          request.streams ? 1 : 0, &w, &h, &channels)
        }
        width = Int(w)
        height = Int(h)
        rowChannels = Int(channels)
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        try reader.read(into: &row, count: width * rowChannels) { tg_jpeg_read_rows($0, $1, 1) }
    }

    func finish() throws(DecodeError) {
        try reader.call { tg_jpeg_finish($0) }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        precondition(started && rowChannels == 4, "start(_:) without streaming first")
        let samples: [UInt8] = try reader.image(count: width * height * 4) { tg_jpeg_read_image($0, $1) }
        if case .jpeg(let space, _, let adobe) = header.details, space.isCMYK, tg_jpeg_is_raw_cmyk(reader.handle) != 0 {
            return .cmyk(width: width, height: height, samples: samples, inverted: adobe, alpha: nil)
        }
        return .rgba(Image(width: width, height: height, rgba8: samples))
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
