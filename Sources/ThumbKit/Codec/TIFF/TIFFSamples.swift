import CLibTIFF

/// A TIFF page read as samples (CIELab, CMYK, and gray or RGB of depths libtiff's RGBA reader
/// lacks), turned into what the decode plan takes: RGBA in sRGB, or CMYK ink samples for a CMYK
/// profile to convert.
///
/// Samples arrive as floats, interleaved, colour samples first and alpha next: integers over
/// their full range as 0–1, floating-point samples as stored, CIELab as L* 0–100 and a*, b*
/// signed. Floating-point samples are taken in the same encoding as integer ones (sRGB, not
/// linear light, as ImageMagick and Pillow read them) and clamped to 0–1; NaN is 0.
struct TIFFSamples {
    /// TG_TIFF_SAMPLES_*: what the colour samples are.
    let kind: Int32
    let width: Int
    let height: Int
    /// Samples per pixel, colour and extra.
    let channels: Int
    /// The colour samples per pixel: 1 gray, 3 RGB or Lab, 4 CMYK.
    var colours: Int {
        switch kind {
        case Int32(TG_TIFF_SAMPLES_CMYK): return 4
        case Int32(TG_TIFF_SAMPLES_GRAY), Int32(TG_TIFF_SAMPLES_GRAY_INVERTED): return 1
        default: return 3
        }
    }
    /// Whether the sample after the colours is alpha, and whether it is premultiplied.
    let hasAlpha: Bool
    let associatedAlpha: Bool
    /// Every sample, `width * height * channels`.
    let values: [Float]

    /// A 0–1 value as an 8-bit sample, rounded to nearest; NaN and below 0 are 0, above 1 is 255.
    static func byte(_ value: Float) -> UInt8 {
        guard value > 0 else { return 0 }
        return value >= 1 ? 255 : UInt8((value * 255).rounded())
    }

    /// Straight alpha, 8 bits a pixel, or nil when the page has none.
    func alpha() -> [UInt8]? {
        guard hasAlpha else { return nil }
        return (0..<width * height).map { TIFFSamples.byte(values[$0 * channels + colours]) }
    }

    /// A colour sample with premultiplication divided out (TIFF 6.0 §18, ExtraSamples 1).
    private func colour(_ pixel: Int, _ channel: Int) -> Float {
        let value = values[pixel * channels + channel]
        guard associatedAlpha else { return value }
        let a = values[pixel * channels + colours]
        return a > 0 ? value / a : 0
    }

    /// CMYK ink samples, 4 bytes a pixel (0 = no ink), for a CMYK profile or the naive rule.
    func cmykInks() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for pixel in 0..<width * height {
            for c in 0..<4 { out[pixel * 4 + c] = TIFFSamples.byte(colour(pixel, c)) }
        }
        return out
    }

    /// Straight RGBA in sRGB: gray repeated, RGB as stored, CMYK by the naive rule (no profile),
    /// CIELab through lcms2 from its D50 white to sRGB's.
    func rgba() throws(DecodeError) -> Image {
        let count = width * height
        var out = [UInt8](repeating: 255, count: count * 4)
        switch kind {
        case Int32(TG_TIFF_SAMPLES_CMYK):
            out = ColorManagement.naiveRGBA(fromCMYK: cmykInks(), width: width, height: height, inverted: false).rgba8
        case Int32(TG_TIFF_SAMPLES_LAB):
            var lab = [Float](repeating: 0, count: count * 3)
            for pixel in 0..<count {
                for c in 0..<3 { lab[pixel * 3 + c] = values[pixel * channels + c] }
            }
            guard let converted = ColorManagement.srgb(fromLab: lab, pixels: count) else {
                throw .unsupported(.tiff, reason: "CIELab samples lcms2 cannot convert")
            }
            out = converted
        default:
            let inverted = kind == Int32(TG_TIFF_SAMPLES_GRAY_INVERTED)
            for pixel in 0..<count {
                for c in 0..<3 {
                    let value = colour(pixel, colours == 1 ? 0 : c)
                    out[pixel * 4 + c] = TIFFSamples.byte(inverted ? 1 - value : value)
                }
            }
        }
        if let alpha = alpha() {
            for pixel in 0..<count { out[pixel * 4 + 3] = alpha[pixel] }
        }
        return Image(width: width, height: height, rgba8: out)
    }
}
