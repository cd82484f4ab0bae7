/// Why thumbnails could not be made.
public enum ThumbnailError: ThumbKitError, Equatable {
    /// The source could not be decoded.
    case decode(DecodeError)
    /// A thumbnail could not be encoded.
    case encode(EncodeError)
    /// A thumbnail's canvas would be larger than `DecodeLimits.maxPixels` (limit `.outputPixels`).
    case limitExceeded(LimitExceeded)
    /// A scale is not `1...ThumbnailError.maximumScale`, or no scale was asked for (0).
    case invalidScale(Int)
    /// The box is not `1...ThumbnailSize.maximumSide` on each side.
    case invalidSize(width: Int, height: Int)
    /// The box leaves a side open (`640x`), which only the `inside` fit can fill.
    case openBox(ThumbnailSize)
    /// A scale above @1x needs more pixels than the source has, and `ThumbnailSet.strictScales`
    /// forbids enlarging for it. The sizes are the output's and the source region's (rounded).
    case scaleNeedsEnlarging(scale: Scale, width: Int, height: Int, sourceWidth: Int, sourceHeight: Int)
    /// A rating badge is drawn at whole scales only (a badge's cells are whole pixels at @1x).
    case badgeNeedsWholeScale(Scale)
    /// An output was asked for that the set does not make (the source changed size since its
    /// outputs were named, so its widths are others).
    case missingVariant(ThumbnailVariant)
    /// The rating badge's look is invalid (its message names the option).
    case badge(StarBadgeError)
    /// A camera RAW's largest embedded preview (`previewWidth` × `previewHeight`, upright) is
    /// smaller than the box at @1x (`box`, its `sides`), and the size's `scale` rule does not allow
    /// enlarging (`ThumbnailSize.ScaleRule.any` uses the preview anyway).
    case previewTooSmall(previewWidth: Int, previewHeight: Int, box: String)
    /// The rating badge (with its plate and margins) is larger than the picture it goes on.
    case badgeDoesNotFit(badgeWidth: Int, badgeHeight: Int, pictureWidth: Int, pictureHeight: Int)

    /// The largest scale a thumbnail can be asked for (@8x; asset catalogs use up to @3x).
    public static let maximumScale = 8

    /// One line, lower-case, for `thumbgen: FILE: message`.
    public var message: String {
        switch self {
        case .decode(let error): return error.message
        case .encode(let error): return error.message
        case .limitExceeded(let limit): return limit.message
        case .invalidScale(let scale):
            return scale == 0 ? "no scale given" : "scale \(scale) is not 1 to \(ThumbnailError.maximumScale)"
        case .openBox(let size):
            return "a box with an open side (\(size.sides)) fits inside only, not \(size.mode.rawValue)"
        case .scaleNeedsEnlarging(let scale, let width, let height, let sourceWidth, let sourceHeight):
            return "@\(scale)x is \(width)x\(height), more than the \(sourceWidth)x\(sourceHeight) pixels of the source"
        case .badgeNeedsWholeScale(let scale):
            return "a rating badge needs whole scales, not \(scale)"
        case .missingVariant(let variant):
            return "changed while it was being read (no \(variant.width.map { "\($0)-pixel " } ?? "")output at @\(variant.scale)x any more)"
        case .invalidSize(let width, let height):
            return "box \(width)x\(height) is not 1 to \(ThumbnailSize.maximumSide) pixels a side"
        case .previewTooSmall(let width, let height, let box):
            return "largest embedded preview is \(width)x\(height), smaller than the \(box) box; enlarging (scale any) uses it anyway"
        case .badge(let error): return error.message
        case .badgeDoesNotFit(let badgeWidth, let badgeHeight, let pictureWidth, let pictureHeight):
            return "the \(badgeWidth)x\(badgeHeight) rating badge and its margins do not fit the \(pictureWidth)x\(pictureHeight) picture"
        }
    }

    /// The limit behind the failure, if a limit was hit (so a caller can name its own option).
    public var exceededLimit: LimitExceeded? {
        switch self {
        case .decode(.limitExceeded(let limit)), .limitExceeded(let limit): return limit
        default: return nil
        }
    }
}
