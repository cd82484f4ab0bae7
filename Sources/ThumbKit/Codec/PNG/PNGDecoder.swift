import CLibPNG

/// Reads a PNG through libpng: the header and the chunks before the image data first, then rows
/// one by one (non-interlaced images) or the whole image at once (any image). The image data of the
/// common layouts is inflated and unfiltered by CLibPNG itself, as libpng would (`rowsByLibpng`).
///
/// Rows come out as straight RGBA, sRGB-encoded: 8 bits per channel, or 16 for 16-bit sources;
/// rows of images without transparency are RGB (`rowChannels`), saving libpng's filler pass.
/// `decodeImage` always gives RGBA. Gamma, chromaticities and ICC profiles are reported in the
/// header, not applied.
package final class PNGDecoder: ImageDecoder {
    static let format = ImageFormat.png
    /// libpng and the zlib it inflates with, e.g. "libpng 1.6.39, zlib 1.2.13".
    static let libraryVersion = CodecVersions.text(tg_png_versions)
    /// The reader's input piece and two rows (for an image of at most 1 MiB of rows, those rows and
    /// its IDAT data held whole); libpng's own state is bounded by the chunk limit, which
    /// `MemoryPlan` counts.
    let workingBytes: UInt64
    /// Whether libpng reads the image data: the layouts the reader does not read itself, or when
    /// asked (`rowReader`).
    package let rowsByLibpng: Bool

    package let header: ImageHeader
    /// Samples per pixel in the rows `readRow` hands out: 3 (RGB) when the image has no
    /// transparency, else 4 (RGBA).
    package let rowChannels: Int
    /// 8 or 16: the depth of the rows and of the decoded image.
    package let bitDepth: Int
    private let reader: CodecReader
    private var rowsRead = 0

    package var width: Int { header.storedWidth }
    package var height: Int { header.storedHeight }

    /// Who inflates and unfilters the image data of the layouts the reader reads itself: the
    /// reader (faster, and what every decode uses), or libpng (what the tests compare it with).
    package enum RowReader: Sendable {
        case thumbgen, libpng
    }

    convenience init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        try self.init(input, limits: limits, rowReader: .thumbgen)
    }

    init(_ input: ImageInput, limits: DecodeLimits, rowReader: RowReader) throws(DecodeError) {
        var info = tg_png_info()
        let byLibpng: Int32 = rowReader == .libpng ? 1 : 0
        reader = try CodecReader(PNGDecoder.self, input: input, limits: limits, info: &info,
                                 open: { tg_png_open($0, $1, byLibpng, $2, $3) }, close: tg_png_close)
        workingBytes = info.working_bytes
        rowsByLibpng = info.rows_by_libpng != 0
        rowChannels = Int(info.row_channels)
        bitDepth = Int(info.output_depth)
        header = PNGDecoder.header(info, reader: reader.handle)
    }

    /// Opens a file (tests and tools; the pipeline opens through `ImageSource`).
    package convenience init(path: String, limits: DecodeLimits = .default) throws(DecodeError) {
        try self.init(source: .file(path), limits: limits)
    }

    /// Opens PNG bytes held in memory, the image data read by `rowReader` (tests compare the two).
    package convenience init(bytes: [UInt8], limits: DecodeLimits = .default, rowReader: RowReader = .thumbgen) throws(DecodeError) {
        try self.init(ImageInput.open(.bytes(bytes), limits: limits), limits: limits, rowReader: rowReader)
    }

    /// Whether the image data read so far was inflated whole by libdeflate (an image small enough
    /// whose stream libdeflate reads to exactly its rows) rather than by zlib as libpng drives it.
    package var inflatedByLibdeflate: Bool { tg_png_inflated_by_libdeflate(reader.handle) != 0 }

    /// Rows not yet read by `readRow`.
    package var rowsRemaining: Int { height - rowsRead }

    /// Nothing to choose: PNG has no reduced decode, and rows and whole images need no set-up.
    func start(_ request: DecodeRequest) throws(DecodeError) {}

    /// The rest of the file is not read: rows past those the output needs are left, as the file
    /// cannot seek and a thumbnail of the top of an image should not wait for the bottom.
    func finish() throws(DecodeError) {}

    /// Reads the next row of an 8-bit image into `row` (resized to `width * rowChannels` samples).
    /// Only for non-interlaced images with `bitDepth == 8`.
    package func readRow(into row: inout [UInt8]) throws(DecodeError) {
        precondition(bitDepth == 8, "readRow(into: [UInt8]) needs an 8-bit image")
        try readNextRow(into: &row)
    }

    /// Reads the next row of a 16-bit image into `row` (resized to `width * rowChannels` samples).
    /// Only for non-interlaced images with `bitDepth == 16`.
    package func readRow(into row: inout [UInt16]) throws(DecodeError) {
        precondition(bitDepth == 16, "readRow(into: [UInt16]) needs a 16-bit image")
        try readNextRow(into: &row)
    }

    private func readNextRow<Sample: FixedWidthInteger>(into row: inout [Sample]) throws(DecodeError) {
        precondition(header.scanOrder != .interlaced, "interlaced images are read whole with decodeImage()")
        try reader.read(into: &row, count: width * rowChannels) { tg_png_read_rows($0, $1, 1) }
        rowsRead += 1
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        .rgba(try decodeRGBA())
    }

    /// Decodes the whole image (interlaced or not) as stored. Call it instead of `readRow`, not
    /// after it.
    package func decodeRGBA() throws(DecodeError) -> Image {
        precondition(rowsRead == 0, "decodeImage() after readRow")
        let count = width * height * 4
        let image = bitDepth == 16
            ? Image(width: width, height: height, rgba16: try reader.image(count: count) { tg_png_read_image($0, $1) })
            : Image(width: width, height: height, rgba8: try reader.image(count: count) { tg_png_read_image($0, $1) })
        rowsRead = height
        return image
    }

    /// Decodes a whole file as stored (no colour conversion, no rotation).
    package static func decode(path: String, limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        try PNGDecoder(path: path, limits: limits).decodeRGBA()
    }

    /// Decodes whole PNG bytes as stored.
    package static func decode(bytes: [UInt8], limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        try PNGDecoder(bytes: bytes, limits: limits).decodeRGBA()
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
