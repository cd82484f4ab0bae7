/// Why a star badge or badge set could not be made. Each message starts with the command-line
/// option it concerns (`--slots`, `--fill`, …) so the CLI can print it as it is.
public enum StarBadgeError: ThumbKitError, Equatable {
    /// A rating below 0 or above the number of slots.
    case ratingOutOfRange(rating: Double, slots: Int)
    /// A rating list entry that is not a finite number, or an empty list.
    case malformedRating(text: String)
    /// `--slots` outside `StarBadge.slotRange`.
    case invalidSlots(Int)
    /// `--size` outside `StarBadge.sizeRange`.
    case invalidSize(Int)
    /// `--spacing` outside `StarBadge.spacingRange`.
    case invalidSpacing(Int)
    /// A badge whose @3x bitmap would exceed `StarBadge.maxPixels`.
    case tooLarge(width: Int, height: Int)
    /// `--outline-width` negative, not finite, or so wide it would swallow the whole star.
    case invalidOutlineWidth(Double)
    /// A colour option (`option` is its name) that is not `RRGGBB`, `RRGGBBAA` (or `none` where
    /// allowed).
    case malformedColor(option: String, text: String)
    /// A scale other than 1, 2 or 3 (the scales Xcode asset catalogs know).
    case invalidScale(text: String)
    /// A scale listed twice in a spec's `scales`: its files would overwrite each other.
    case repeatedScale(Int)
    /// `StarBadge.render(scale:)` was asked for a scale outside 1…3.
    case unsupportedScale(Int)
    /// A fill mode other than `full`, `half` or `precise`.
    case invalidFillMode(text: String)
    /// A `--name` format that cannot name the files; `reason` says why.
    case invalidNameFormat(format: String, reason: String)
    /// A badge spec file that is not valid JSON of the expected shape; `reason` says what is wrong.
    case malformedSpec(reason: String)
    /// PNG encoding failed.
    case encoding(EncodeError)
    /// A file could not be written.
    case writing(path: String, FileWriteError)

    /// One line starting with the option concerned (`--size: 0 is outside 1…512 pixels`).
    public var message: String {
        switch self {
        case .ratingOutOfRange(let rating, let slots):
            return rating < 0
                ? "--ratings: rating \(BadgeNameFormat.text(forRating: rating)) is negative"
                : "--ratings: rating \(BadgeNameFormat.text(forRating: rating)) is above --slots \(slots)"
        case .malformedRating(let text):
            return "--ratings: '\(text)' is not a comma-separated list of numbers"
        case .invalidSlots(let value):
            return "--slots: \(value) is outside \(StarBadge.slotRange.lowerBound)…\(StarBadge.slotRange.upperBound)"
        case .invalidSize(let value):
            return "--size: \(value) is outside \(StarBadge.sizeRange.lowerBound)…\(StarBadge.sizeRange.upperBound) pixels"
        case .invalidSpacing(let value):
            return "--spacing: \(value) is outside \(StarBadge.spacingRange.lowerBound)…\(StarBadge.spacingRange.upperBound) pixels"
        case .tooLarge(let width, let height):
            return "--size: a badge of \(width)×\(height) pixels at @3x is above the limit of \(StarBadge.maxPixels) "
                + "pixels (reduce --size, --slots or --spacing)"
        case .invalidOutlineWidth(let value):
            return "--outline-width: \(value) must be at least 0 and leave some of the star inside the outline"
        case .malformedColor(let option, let text):
            return "\(option): '\(text)' is not a colour (expected RRGGBB or RRGGBBAA"
                + (option == "--fill" ? ")" : " or none)")
        case .invalidScale(let text):
            return "--scales: '\(text)' is not a scale (expected 1, 2 or 3)"
        case .unsupportedScale(let scale):
            return "scale \(scale) is not 1, 2 or 3"
        case .repeatedScale(let scale):
            return "--scales: \(scale) is listed twice"
        case .invalidFillMode(let text):
            return "--fill-mode: '\(text)' is not a fill mode (expected full, half or precise)"
        case .invalidNameFormat(let format, let reason):
            return "--name: '\(format)': \(reason)"
        case .malformedSpec(let reason):
            return "badge spec: \(reason)"
        case .encoding(let error):
            return error.message
        case .writing(let path, let error):
            return "\(path): \(error.message)"
        }
    }
}
