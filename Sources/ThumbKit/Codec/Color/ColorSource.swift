/// What colours a decoded image's samples are in, as its file declares them.
///
/// Precedence when a PNG declares several (PNG 3rd edition §4.3): an ICC profile (`iCCP`) over
/// `sRGB` over `gAMA`/`cHRM`. `cICP` is not read: the libpng in use (before 1.6.45) does not
/// expose it, so such files are taken by their other chunks, or as sRGB.
package enum ColorSource: Sendable, Hashable {
    /// sRGB, declared or assumed (no colour information at all): nothing to convert.
    case sRGB
    /// An embedded ICC profile (JPEG APP2, PNG `iCCP`): RGB or gray for RGBA samples, CMYK for
    /// CMYK JPEGs.
    case iccProfile([UInt8])
    /// PNG `gAMA` without a profile: `gamma` is the file gamma (encoded = linear^gamma, e.g. 0.45455),
    /// with the `cHRM` chromaticities (white x, y, red x, y, green x, y, blue x, y) if present,
    /// else the sRGB ones.
    case gamma(Double, chromaticities: [Double]?)

    /// The sRGB (BT.709) white point and primaries as CIE xy: white, red, green, blue.
    static let sRGBChromaticities: [Double] = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

    /// True when the source needs no conversion to be sRGB. A `gAMA` of 1/2.2 (stored as 45455)
    /// with sRGB or no chromaticities is how many encoders label sRGB (libpng itself treats it so),
    /// and browsers show it unconverted; converting it as a pure 2.2 power law would shift dark
    /// tones by a few levels from what was meant. An ICC profile counts when it is sRGB in effect
    /// (`ColorManagement.isEffectivelySRGB`), as most embedded profiles are.
    package var isSRGB: Bool {
        switch self {
        case .sRGB: return true
        case .iccProfile(let profile): return ColorManagement.isEffectivelySRGB(profile)
        case .gamma(let gamma, let chromaticities):
            let srgbGamma = abs(gamma - 0.45455) <= 0.0005
            let srgbPrimaries = chromaticities.map { values in
                values.count == 8 && zip(values, ColorSource.sRGBChromaticities).allSatisfy { abs($0 - $1) <= 0.001 }
            } ?? true
            return srgbGamma && srgbPrimaries
        }
    }
}
