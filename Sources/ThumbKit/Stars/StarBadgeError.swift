/// Why a star badge or badge set could not be made. Each message starts with the field it
/// concerns, spelt as `StarBadgeSpec`'s members (`slots`, `outlineWidth`, …; see `OptionError`).
public enum StarBadgeError: OptionError, Equatable {
    /// A rating below 0 or above the number of slots.
    case ratingOutOfRange(rating: Double, slots: Int)
    /// A rating list entry that is not a finite number, or an empty list.
    case malformedRating(text: String)
    /// `slots` outside `StarBadge.slotRange`.
    case invalidSlots(Int)
    /// `size` outside `StarBadge.sizeRange`.
    case invalidSize(Int)
    /// `spacing` outside `StarBadge.spacingRange`.
    case invalidSpacing(Int)
    /// A badge whose @3x bitmap would exceed `StarBadge.maxPixels`.
    case tooLarge(width: Int, height: Int)
    /// `outlineWidth` negative, not finite, or so wide it would swallow the whole star.
    case invalidOutlineWidth(Double)
    /// A colour field (`fill`, `empty` or `outline`) that is not `RRGGBB`, `RRGGBBAA` (or `none`
    /// where allowed: all but `fill`).
    case malformedColor(field: String, text: String)
    /// A scale other than 1, 2 or 3 (the scales Xcode asset catalogs know).
    case invalidScale(text: String)
    /// A scale listed twice in a spec's `scales`: its files would overwrite each other.
    case repeatedScale(Int)
    /// `StarBadge.render(scale:)` was asked for a scale outside 1…3.
    case unsupportedScale(Int)
    /// A fill mode other than `full`, `half` or `precise`.
    case invalidFillMode(text: String)
    /// A `name` format that cannot name the files; `reason` says why.
    case invalidNameFormat(format: String, reason: String)
    /// A badge spec file that is not valid JSON of the expected shape; `reason` says what is wrong.
    case malformedSpec(reason: String)
    /// PNG encoding failed.
    case encoding(EncodeError)
    /// A file could not be written.
    case writing(path: String, FileWriteError)

    /// One line starting with the field concerned (`size: 0 is outside 1…512 pixels`).
    public func message(naming name: (String) -> String) -> String {
        switch self {
        case .ratingOutOfRange(let rating, let slots):
            return rating < 0
                ? "\(name("ratings")): rating \(BadgeNameFormat.text(forRating: rating)) is negative"
                : "\(name("ratings")): rating \(BadgeNameFormat.text(forRating: rating)) is above \(name("slots")) \(slots)"
        case .malformedRating(let text):
            return "\(name("ratings")): '\(text)' is not a comma-separated list of numbers"
        case .invalidSlots(let value):
            return "\(name("slots")): \(value) is outside \(StarBadge.slotRange.lowerBound)…\(StarBadge.slotRange.upperBound)"
        case .invalidSize(let value):
            return "\(name("size")): \(value) is outside \(StarBadge.sizeRange.lowerBound)…\(StarBadge.sizeRange.upperBound) pixels"
        case .invalidSpacing(let value):
            return "\(name("spacing")): \(value) is outside \(StarBadge.spacingRange.lowerBound)…\(StarBadge.spacingRange.upperBound) pixels"
        case .tooLarge(let width, let height):
            return "\(name("size")): a badge of \(width)×\(height) pixels at @3x is above the limit of \(StarBadge.maxPixels) "
                + "pixels (reduce \(name("size")), \(name("slots")) or \(name("spacing")))"
        case .invalidOutlineWidth(let value):
            return "\(name("outlineWidth")): \(value) must be at least 0 and leave some of the star inside the outline"
        case .malformedColor(let field, let text):
            return "\(name(field)): '\(text)' is not a colour (expected RRGGBB or RRGGBBAA"
                + (field == "fill" ? ")" : " or none)")
        case .invalidScale(let text):
            return "\(name("scales")): '\(text)' is not a scale (expected 1, 2 or 3)"
        case .unsupportedScale(let scale):
            return "scale \(scale) is not 1, 2 or 3"
        case .repeatedScale(let scale):
            return "\(name("scales")): \(scale) is listed twice"
        case .invalidFillMode(let text):
            return "\(name("fillMode")): '\(text)' is not a fill mode (expected full, half or precise)"
        case .invalidNameFormat(let format, let reason):
            return "\(name("name")): '\(format)': \(reason)"
        case .malformedSpec(let reason):
            return "badge spec: \(reason)"
        case .encoding(let error):
            return error.message
        case .writing(let path, let error):
            return "\(path): \(error.message)"
        }
    }
}
