import CLibPNG

/// The colour and orientation chunks libpng read with the header (those before the first IDAT;
/// an `eXIf` after the image data is not seen, as the PNG spec asks encoders to avoid).
extension PNGDecoder {
    /// What colours the samples are in: `iCCP`, else `sRGB`, else `gAMA` (with `cHRM`), else sRGB.
    public var colorSource: ColorSource {
        var m = tg_png_metadata()
        tg_png_get_metadata(reader, &m)
        if let icc = m.icc, m.icc_size > 0 { return .iccProfile(Array(UnsafeBufferPointer(start: icc, count: m.icc_size))) }
        if m.has_srgb != 0 { return .sRGB }
        if m.has_gama != 0 {
            let c = m.chrm
            return .gamma(m.gamma, chromaticities: m.has_chrm != 0 ? [c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7] : nil)
        }
        return .sRGB
    }

    /// The `eXIf` chunk's TIFF structure, if any.
    public var exif: [UInt8]? {
        var m = tg_png_metadata()
        tg_png_get_metadata(reader, &m)
        guard let exif = m.exif, m.exif_size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: exif, count: m.exif_size))
    }
}
