import CLibTIFF

/// Reads a TIFF's first page through libtiff's RGBA interface: strips or tiles, 1–16 bits,
/// gray, RGB, palette, CMYK and YCbCr, with or without alpha; samples come out at 8 bits. CIELab,
/// CMYK (8 or 16 bits, with alpha, through its profile) and gray or RGB of other integer depths
/// (up to 32 bits) or floating point are read as samples and converted by `TIFFSamples`. The
/// Orientation tag is the image's orientation (EXIF's is TIFF's), applied by the decode plan; the
/// ICC profile is its colour source.
///
/// 8-bit RGB and gray images in strips (most files: what cameras, scanners and Pillow write)
/// are read a scanline at a time, libtiff decoding each strip as it goes, and stream as RGB rows;
/// everything else goes through libtiff's RGBA reader, which fills a whole raster.
final class TIFFDecoder: FullSizeDecoder {
    static let format = ImageFormat.tiff
    /// e.g. "libtiff 4.5.0".
    static let libraryVersion = CodecVersions.text(tg_tiff_version)

    let header: ImageHeader
    /// One decoded strip or tile, libtiff's working buffer; and for an image that `streams` by
    /// its header but whose scanlines are not its pixels (RGB in separate planes), the whole RGBA
    /// raster its rows are then handed out from.
    let workingBytes: UInt64
    /// Whether scanlines are the pixels (8-bit RGB or gray, contiguous, in strips).
    private let rowsAsStored: Bool
    /// TG_TIFF_SAMPLES_*: NONE when libtiff's RGBA reader decodes the page, else what the samples
    /// read by `TIFFSamples` are.
    private let sampleKind: Int32
    private let associatedAlpha: Bool
    private let reader: CodecReader
    var request: DecodeRequest?
    /// RGB rows when streaming as stored; whole images, and rows from the raster, are RGBA.
    var rowChannels: Int { request?.streams == true && rowsAsStored ? 3 : 4 }
    /// The whole raster, when rows are streamed from an image whose scanlines are not its pixels.
    private var raster: [UInt8] = []
    private var nextRow = 0

    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        var info = tg_tiff_info()
        reader = try CodecReader(TIFFDecoder.self, input: input, limits: limits, info: &info, open: tg_tiff_open, close: tg_tiff_close)
        rowsAsStored = info.rows_as_stored != 0
        sampleKind = info.sample_kind
        associatedAlpha = info.associated_alpha != 0
        // A CIELab page is converted to sRGB here; any profile it carries describes Lab, not RGB.
        let lab = info.sample_kind == Int32(TG_TIFF_SAMPLES_LAB)
        let icc = info.icc.map { Array(UnsafeBufferPointer(start: $0, count: info.icc_size)) }
        header = ImageHeader(format: .tiff, storedWidth: Int(info.width), storedHeight: Int(info.height),
                             orientation: Orientation(rawValue: Int(info.orientation)) ?? .topLeft,
                             bitDepth: Int(info.bits_per_sample), hasAlpha: info.has_alpha != 0,
                             colorSource: lab ? .sRGB : icc.map(ColorSource.iccProfile) ?? .sRGB, scanOrder: .sequential,
                             details: .tiff(photometric: TIFFDecoder.photometricName(Int(info.photometric)),
                                            samples: Int(info.samples_per_pixel), tiled: info.tiled != 0),
                             metadata: EmbeddedMetadata(xmp: info.xmp.map { Array(UnsafeBufferPointer(start: $0, count: info.xmp_size)) },
                                                        tiffRating: ExifReader.rating(type: UInt16(info.rating_type), raw: info.rating_raw)))
        let raster = TIFFDecoder.streams(header) && !rowsAsStored ? 4 * UInt64(info.width) * UInt64(info.height) : 0
        workingBytes = info.strip_bytes + raster + info.sample_bytes
    }

    /// 8-bit opaque RGB or gray in strips: rows as stored, unless the samples lie in separate
    /// planes (the header does not say), which then stream from a whole raster.
    static func streams(_ header: ImageHeader) -> Bool {
        guard case .tiff(let photometric, let samples, let tiled) = header.details else { return false }
        return !tiled && header.bitDepth == 8 && !header.hasAlpha
            && ((photometric == "rgb" && samples == 3) || (photometric == "gray" && samples == 1))
    }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        precondition(!request.streams || TIFFDecoder.streams(header), "this TIFF's rows do not stream")
        take(request)
        guard request.streams && !rowsAsStored else { return }
        guard case .rgba(let image) = try decodeImage() else { preconditionFailure("RGBA from the RGBA reader") }
        raster = image.rgba8
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        guard raster.isEmpty else {
            let length = width * 4
            if row.count != length { row = [UInt8](repeating: 0, count: length) }
            row.replaceSubrange(0..<length, with: raster[nextRow * length..<(nextRow + 1) * length])
            nextRow += 1
            return
        }
        try reader.read(into: &row, count: width * rowChannels) { tg_tiff_read_row($0, $1) }
    }

    func finish() throws(DecodeError) {
        guard raster.isEmpty else { return }
        try reader.call { tg_tiff_finish_rows($0) }
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
        if sampleKind != Int32(TG_TIFF_SAMPLES_NONE) {
            guard case .tiff(_, let channels, _) = header.details else { preconditionFailure("a TIFF header") }
            let values: [Float] = try reader.image(count: width * height * channels) { tg_tiff_read_samples($0, $1) }
            let samples = TIFFSamples(kind: sampleKind, width: width, height: height, channels: channels,
                                      hasAlpha: header.hasAlpha, associatedAlpha: associatedAlpha, values: values)
            if sampleKind == Int32(TG_TIFF_SAMPLES_CMYK), request?.rawCMYK == true {
                return .cmyk(width: width, height: height, samples: samples.cmykInks(), inverted: false, alpha: samples.alpha())
            }
            return .rgba(try samples.rgba())
        }
        let pixels: [UInt8] = try reader.image(count: width * height * 4) { tg_tiff_read_image($0, $1) }
        return .rgba(Image(width: width, height: height, rgba8: pixels))
    }
}
