/// What a HEIF `colr` box's nclx values (ITU-T H.273 colour primaries and transfer
/// characteristics) mean for the decoded RGB samples. libheif has already applied the matrix
/// coefficients and the range while converting YCbCr to RGB.
///
/// BT.709 primaries (1) and unspecified ones (2), with any SDR transfer, are taken as sRGB: the
/// BT.709 and BT.601 transfer functions are camera curves, and displays (and browsers, and
/// libvips) show such images as sRGB. Other primaries (Display P3 = 12, DCI-P3 = 11, BT.2020 = 9,
/// BT.601 = 5, 6, …) become an RGB profile made with lcms2 (`ColorManagement.makeRGBProfile`): those
/// primaries with the sRGB curve, or the pure power or linear curve H.273 names (4, 5, 8), which is
/// then converted to sRGB like any embedded profile. HDR transfers (PQ = 16, HLG = 18) are not tone
/// mapped: their primaries are converted with the sRGB curve and a warning says so.
struct NCLXColour: Hashable {
    /// H.273 `ColourPrimaries`.
    let primaries: Int
    /// H.273 `TransferCharacteristics`.
    let transfer: Int

    /// White point then red, green, blue as CIE xy (H.273 Table 2), for the primaries thumbgen
    /// converts from.
    static let chromaticities: [Int: [Double]] = [
        4: [0.310, 0.316, 0.67, 0.33, 0.21, 0.71, 0.14, 0.08],
        5: [0.3127, 0.3290, 0.64, 0.33, 0.29, 0.60, 0.15, 0.06],
        6: [0.3127, 0.3290, 0.630, 0.340, 0.310, 0.595, 0.155, 0.070],
        7: [0.3127, 0.3290, 0.630, 0.340, 0.310, 0.595, 0.155, 0.070],
        8: [0.310, 0.316, 0.681, 0.319, 0.243, 0.692, 0.145, 0.049],
        9: [0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046],
        11: [0.314, 0.351, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060],
        12: [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060],
        22: [0.3127, 0.3290, 0.630, 0.340, 0.295, 0.605, 0.155, 0.077],
    ]

    /// The colour source of the samples, and a warning when part of the description is not applied.
    var colorSource: (source: ColorSource, warning: String?) {
        let hdr = transfer == 16 || transfer == 18
        let warning = hdr ? "HDR transfer characteristics \(transfer) shown without tone mapping" : nil
        guard let xy = NCLXColour.chromaticities[primaries] else {
            // BT.709, unspecified, or primaries H.273 reserves: sRGB's.
            return (.sRGB, primaries == 1 || primaries == 2 ? warning : "unknown nclx colour primaries \(primaries), taken as sRGB")
        }
        // The curve the profile decodes with: linear = encoded^gamma, or the sRGB curve (nil).
        let gamma: Double? = switch transfer {
        case 4: 2.2
        case 5: 2.8
        case 8: 1
        default: nil
        }
        do {
            let profile = try ColorManagement.makeRGBProfile(white: (xy[0], xy[1]), primaries: Array(xy[2...7]), gamma: gamma)
            return (.iccProfile(profile), warning)
        } catch {
            return (.sRGB, "ignored nclx colour primaries \(primaries): \(error.message)")
        }
    }
}
