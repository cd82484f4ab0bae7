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
final class HEIFDecoder: FullSizeDecoder {
    static let format = ImageFormat.heif
    /// libheif and the decoders it uses (HEVC, AV1), e.g. "libheif 1.15.1, libde265 1.0.11,
    /// dav1d 1.0.0".
    static let libraryVersion = CodecVersions.text(tg_heif_version)

    let header: ImageHeader
    let warnings: [String]
    /// The file's coded data and libheif's decoded images: the decoder's frames and YCbCr planes,
    /// and the planar RGB (and alpha) libheif converts them to, at most 8 samples a pixel at once.
    let workingBytes: UInt64
    /// Samples come out at 16 bits for images coded with more than 8.
    var bitDepth: Int { header.bitDepth > 8 ? 16 : 8 }
    var request: DecodeRequest?
    private let reader: CodecReader

    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        var info = tg_heif_info()
        reader = try CodecReader(HEIFDecoder.self, input: input, limits: limits, info: &info, open: tg_heif_open, close: tg_heif_close)
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
                             metadata: HEIFMetadata.read(reader))
    }

    /// Every image streams: HEIF has no interlacing, and its transforms are already applied.
    static func streams(_ header: ImageHeader) -> Bool { true }

    func readRow(into row: inout [UInt8]) throws(DecodeError) { try read(into: &row) }

    func readRow(into row: inout [UInt16]) throws(DecodeError) { try read(into: &row) }

    /// One row of 8-bit (`UInt8`) or 16-bit (`UInt16`) samples from CLibHEIF.
    private func read<Sample: FixedWidthInteger>(into row: inout [Sample]) throws(DecodeError) {
        let channels = Int32(rowChannels), sixteen: Int32 = Sample.bitWidth == 16 ? 1 : 0
        try reader.read(into: &row, count: width * rowChannels) { tg_heif_read_row($0, $1, channels, sixteen) }
    }

    /// The whole image was decoded with the first row.
    func finish() throws(DecodeError) {}

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        let count = width * height * 4
        if bitDepth == 16 {
            return .rgba(Image(width: width, height: height, rgba16: try reader.image(count: count) { tg_heif_read_image($0, $1, 1) }))
        }
        return .rgba(Image(width: width, height: height, rgba8: try reader.image(count: count) { tg_heif_read_image($0, $1, 0) }))
    }
}
