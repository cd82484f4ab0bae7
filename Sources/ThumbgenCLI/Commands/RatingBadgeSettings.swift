import ThumbKit

/// `--rating-badge` and the options that shape the badge: how the thumbnail and sheet commands
/// draw a photo's own star rating.
enum RatingBadgeSettings {
    static let options: [OptionSpec] = [
        OptionSpec("rating-badge", value: "CORNER",
                   help: "Draw the photo's star rating (XMP, EXIF, sidecar) on it: southeast, southwest, northeast, northwest, south, north, …"),
        OptionSpec("badge-size", value: "PX", help: "Star cell size at @1x (default: up to 16, to fit the box)."),
        OptionSpec("badge-margin", value: "PX", help: "Gap between the badge and the picture's edges at @1x (default 4)."),
        OptionSpec("badge-plate", value: "COLOR", help: "Draw the badge on a rounded plate of RRGGBBAA, e.g. 00000080 (default none)."),
        halo,
    ] + StarLookOptions.options

    /// `--badge-halo`, which the sheet command shares.
    static let halo = OptionSpec("badge-halo", value: "COLOR",
                                 help: "Soft rim around the stars, RRGGBBAA or none, so they read on any photo (default 000000e6; none with a plate).")

    /// The options that shape a badge (size, margin, plate, star look), refused unless a badge
    /// is drawn.
    static let shapingOptions = ["badge-size", "badge-margin", "badge-plate", "badge-halo"] + StarLookOptions.names

    /// The badge style for the thumbnail command, nil without `--rating-badge` (then every badge
    /// option is refused). A badge that cannot fit the @1x box is a usage error here, not a
    /// failure of every file.
    static func style(_ arguments: ParsedArguments, box: ThumbnailSize) throws(UsageError) -> RatingBadgeStyle? {
        guard let cornerText = arguments.value("rating-badge") else {
            try refuseShaping(arguments)
            return nil
        }
        var style = try look(arguments)
        guard let corner = Gravity(name: cornerText) else {
            throw .invalidValue("rating-badge", cornerText, expected: "a corner or edge: southeast, southwest, northeast, northwest, south, north, east, west or centre")
        }
        style.corner = corner
        try check(style, box: box)
        return style
    }

    /// Refuses badge-shaping options where no badge is drawn.
    static func refuseShaping(_ arguments: ParsedArguments) throws(UsageError) {
        if let given = shapingOptions.first(where: { arguments.has($0) || arguments.value($0) != nil }) {
            throw UsageError("--\(given) applies to rating badges (see --rating-badge)")
        }
    }

    /// Everything but the corner: size, margin, plate, and the stars' look.
    static func look(_ arguments: ParsedArguments) throws(UsageError) -> RatingBadgeStyle {
        var style = RatingBadgeStyle()
        style.cellSize = try arguments.optionalValue("badge-size", expected: "a cell size from 1 to 512 pixels") {
            Int($0).flatMap { StarBadge.sizeRange.contains($0) ? $0 : nil }
        }
        style.margin = try arguments.value("badge-margin", default: style.margin, expected: "a number of pixels, 0 or more") {
            Int($0).flatMap { (0...10_000).contains($0) ? $0 : nil }
        }
        if let text = arguments.value("badge-plate") {
            do { style.plate = try Color(hex: text) } catch { throw .invalidValue("badge-plate", text, expected: "RRGGBB or RRGGBBAA") }
        }
        if let text = arguments.value("badge-halo") {
            if text.lowercased() == "none" {
                style.halo = nil
            } else {
                do { style.halo = try Color(hex: text) } catch { throw .invalidValue("badge-halo", text, expected: "RRGGBB, RRGGBBAA or none") }
            }
        }
        do throws(StarBadgeError) {
            let colors = try StarLookOptions.colors(arguments)
            if let fill = colors.fill { style.fill = fill }
            if let empty = colors.empty { style.empty = empty }
            if let outline = colors.outline { style.outline = outline }
            if let mode = try StarLookOptions.fillMode(arguments) { style.fillMode = mode }
        } catch {
            throw UsageError(error)
        }
        style.outlineWidth = try StarLookOptions.outlineWidth(arguments)
        return style
    }

    /// A full badge must be valid and fit the box with its margins.
    private static func check(_ style: RatingBadgeStyle, box: ThumbnailSize) throws(UsageError) {
        let width: Int, height: Int
        do { (width, height) = try style.footprint(boxWidth: box.width, boxHeight: box.height) } catch { throw UsageError(error) }
        if width > box.width || height > box.height {
            throw UsageError("the rating badge with its margins is \(width)x\(height), larger than the \(box.sides) box (see --badge-size, --badge-margin)")
        }
    }
}
