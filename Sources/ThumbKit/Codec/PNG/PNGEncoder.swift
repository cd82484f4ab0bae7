import CLibPNG

/// Writes 8-bit-per-channel PNGs through libpng, deterministically.
///
/// The same pixels and options always give the same bytes for a given zlib: no tIME or text
/// chunks, no interlacing, fixed zlib level, window and strategy, and a fixed filter choice
/// (none for palette and sub-byte gray, libpng's adaptive choice among all five otherwise).
/// 16-bit images are written at 8 bits, rounded as `(v * 255 + 32767) / 65535`.
public struct PNGEncoder: Sendable {
    /// Which colour type the file uses.
    public enum ColorTypeChoice: String, Sendable, Hashable, CaseIterable {
        /// The smallest lossless type: gray, palette, gray+alpha, RGB or RGBA.
        case automatic = "auto"
        /// Always 8-bit RGBA (`--color-type rgba`), for consumers that expect one layout.
        case rgba
    }

    /// zlib level thumbgen uses unless told otherwise: 4.
    ///
    /// Measured on 397 icons from Debian packages (8–256 px, RGBA, adaptive filters): level 9 makes
    /// the smallest files but deflate then takes about 6× as long as at level 6 and 10× as long as
    /// at level 4, for 3% and 7% less data. Thumbnails are small and written often (batch jobs,
    /// build steps), so encoding time matters more than the last few percent: level 4 is where
    /// further levels stop paying for themselves (5: −2%, 6: −4% size, for 1.3× and 1.7× the time).
    public static let defaultCompressionLevel = 4

    /// Which PNG colour type to write; `.automatic` picks the smallest lossless one.
    public var colorType: ColorTypeChoice
    /// zlib level, 0…9; `encode` throws for any other.
    public var compressionLevel: Int
    /// Adds an `sRGB` chunk saying the samples are sRGB.
    public var marksSRGB: Bool
    /// An ICC profile written as an `iCCP` chunk (in place of `sRGB`); libpng drops one that does
    /// not fit the written colour type (an RGB profile on a gray image).
    public var iccProfile: [UInt8]? = nil

    /// An encoder with the given settings (checked when encoding, so no argument can trap).
    public init(colorType: ColorTypeChoice = .automatic, compressionLevel: Int = PNGEncoder.defaultCompressionLevel, marksSRGB: Bool = false) {
        self.colorType = colorType
        self.compressionLevel = compressionLevel
        self.marksSRGB = marksSRGB
    }

    /// The PNG file bytes for an image.
    public func encode(_ image: Image) throws(EncodeError) -> [UInt8] {
        let layout = colorType == .rgba ? PNGLayout.rgba(image) : PNGLayout.smallest(for: image)
        return try encode(layout, width: image.width, height: image.height)
    }

    func encode(_ layout: PNGLayout, width: Int, height: Int) throws(EncodeError) -> [UInt8] {
        guard (0...9).contains(compressionLevel) else {
            throw .failed(.png, reason: "compression level \(compressionLevel) is not 0…9")
        }
        // Filtering does not pay on palette indexes and packed gray (the PNG spec's advice).
        let filters = layout.colorType == .palette || layout.bitDepth < 8
            ? Int32(PNG_FILTER_NONE_C) : Int32(PNG_ALL_FILTERS_C)
        let icc = iccProfile ?? []
        return try EncoderCall.bytes(.png) { buffer, message in
            icc.withUnsafeBufferPointer { icc in layout.samples.withUnsafeBufferPointer { samples in
                layout.palette.withUnsafeBufferPointer { palette in
                    layout.transparency.withUnsafeBufferPointer { transparency in
                        var params = tg_png_encode_params(
                            width: UInt32(width), height: UInt32(height),
                            color_type: Int32(layout.colorType.rawValue), bit_depth: Int32(layout.bitDepth),
                            pixels: samples.baseAddress, stride: width * layout.samplesPerPixel,
                            palette: palette.baseAddress, palette_count: Int32(layout.palette.count / 3),
                            trns: transparency.baseAddress, trns_count: Int32(layout.transparency.count),
                            compression_level: Int32(compressionLevel), filter_mask: filters,
                            write_srgb: marksSRGB ? 1 : 0, icc: icc.baseAddress, icc_size: icc.count)
                        return tg_png_encode(&params, buffer, message)
                    }
                }
            } }
        }
    }
}
