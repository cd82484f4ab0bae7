/// Why a contact sheet (not one of its photos) could not be made. Messages name `SheetOptions`'
/// fields (`columns`, `perPage`, `thumbnail.size`, …; see `OptionError`).
public enum SheetError: OptionError, Equatable {
    /// `columns` outside 1…`SheetOptions.maximumColumns`.
    case invalidColumns(Int)
    /// `gap` outside 0…10000 pixels.
    case invalidGap(Int)
    /// `perPage` below 1.
    case invalidPerPage(Int)
    /// `minimumRating` not a number of stars from 0 to 5.
    case invalidMinimumRating(Double)
    /// `scales` empty, or holding a scale other than 1, 2 or 3.
    case invalidScales
    /// The cell, `thumbnail.size`, not 1 to 10000 pixels a side.
    case invalidCell(width: Int, height: Int)
    /// The rating badge cannot be drawn as `badgeStyle` says.
    case badge(StarBadgeError)
    /// The rating badge with its margins is larger than the cell.
    case badgeDoesNotFitCell(width: Int, height: Int)
    /// A page at some scale would exceed a limit.
    case pageTooLarge(width: Int, height: Int, scale: Int, limit: PageLimit)
    /// A page could not be encoded.
    case encode(EncodeError)
    /// `label`'s format is unusable; `reason` says why.
    case invalidLabel(format: String, reason: String)

    /// What a page that is too large would exceed.
    public enum PageLimit: Sendable, Equatable {
        /// The output format's largest side (WebP: 16383 pixels).
        case formatSide(format: String, pixels: Int)
        /// `thumbnail.limits.maxPixels`.
        case pixels(limit: UInt64)
        /// Half of `thumbnail.limits.maxMemory` (the other half is the jobs').
        case memory(needed: UInt64, budget: UInt64)
    }

    /// Whether the options themselves cannot make a sheet (rather than these photos' pages).
    public var isAboutOptions: Bool {
        switch self {
        case .pageTooLarge, .encode: return false
        default: return true
        }
    }

    public func message(naming name: (String) -> String) -> String {
        switch self {
        case .invalidColumns(let columns):
            return "\(name("columns")) must be 1 to \(SheetOptions.maximumColumns), not \(columns)"
        case .invalidGap(let gap):
            return "\(name("gap")) must be 0 to 10000 pixels, not \(gap)"
        case .invalidPerPage(let perPage):
            return "\(name("perPage")) must be at least 1, not \(perPage)"
        case .invalidMinimumRating(let minimum):
            return "\(name("minimumRating")) must be 0 to 5, not \(minimum)"
        case .invalidScales:
            return "sheet scales must be 1, 2 or 3"
        case .invalidCell(let width, let height):
            return "\(name("thumbnail.size")) must be 1 to 10000 pixels a side, not \(width)x\(height)"
        case .badge(let error):
            return error.message(naming: name)
        case .badgeDoesNotFitCell(let width, let height):
            return "the rating badge with its margins does not fit the \(width)x\(height) cell "
                + "(see \(name("badgeStyle.cellSize")), \(name("badgeStyle.margin")))"
        case .pageTooLarge(let width, let height, let scale, let limit):
            let reason: String
            switch limit {
            case .formatSide(let format, let pixels): reason = "beyond \(format)'s \(pixels) pixels a side"
            case .pixels(let limit): reason = "over the \(limit)-pixel limit (\(name("thumbnail.limits.maxPixels")))"
            case .memory(let needed, let budget):
                reason = "needing \(needed) bytes at every scale, over half the \(budget)-byte budget (\(name("thumbnail.limits.maxMemory")))"
            }
            return "a sheet page would be \(width)x\(height) at @\(scale)x, \(reason) (use \(name("perPage")) or fewer \(name("columns")))"
        case .encode(let error):
            return error.message
        case .invalidLabel(let format, let reason):
            return "invalid \(name("label")) \"\(format)\": \(reason)"
        }
    }
}
