/// Everything that decides what a contact sheet looks like and which photos it shows.
public struct SheetOptions: Sendable, Hashable {
    /// Where each cell's star badge goes.
    public enum BadgePlacement: Sendable, Hashable {
        /// Centred in a strip under the picture (the default): the picture stays whole.
        case under
        /// On the picture, in this corner or edge, as `--rating-badge` draws it on thumbnails.
        case on(Gravity)
        /// No badges.
        case none
    }

    /// The order of the cells.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// By path, as the inputs were walked (the default).
        case path
        /// Highest rating first, then unrated, then rejected photos; ties by path.
        case rating
        /// By capture time (EXIF `DateTimeOriginal`), earliest first; photos without one after
        /// those with one; ties by name.
        case date
    }

    /// How every cell's picture is made: `thumbnail.size` is the cell's box at @1x and how the
    /// picture fits it; its background is the sheet's (nil: transparent); its format is the
    /// sheet's file format. Its `ratingBadge` is ignored (see `badge`), and so is `keepProfile`:
    /// a sheet mixes sources, so every cell is converted to sRGB.
    public var thumbnail: ThumbnailOptions
    /// Cells per row, 1…`maximumColumns`; a page with fewer cells is as wide as they need.
    public var columns: Int = 5
    /// Gap between cells and around the sheet at @1x, pixels.
    public var gap: Int = 8
    /// Where the badges go.
    public var badge: BadgePlacement = .under
    /// How the badges look (their corner comes from `badge`).
    public var badgeStyle = RatingBadgeStyle()
    /// The order of the cells.
    public var order: Order = .path
    /// The line of text under each cell (file name, rating, date, size), nil for none.
    public var label: SheetOptions.Label?
    /// Only photos rated at least this many stars are shown (rejected and unrated ones never are);
    /// nil shows every photo.
    public var minimumRating: Double?
    /// Cells per page, nil for one page of every cell.
    public var perPage: Int?
    /// The scales to draw every page at (@1x, @2x, @3x), ascending.
    public var scales: [Int] = [1]

    /// Most cells in a row.
    public static let maximumColumns = 1000

    /// Options with a white background and the sheet defaults: 128-pixel cells, five columns,
    /// 8-pixel gaps, badges under the pictures, path order, one page, @1x.
    public init(thumbnail: ThumbnailOptions = ThumbnailOptions(background: .white)) {
        self.thumbnail = thumbnail
    }
}
