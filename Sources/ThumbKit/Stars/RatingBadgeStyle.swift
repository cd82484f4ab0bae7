/// How a thumbnail shows its photo's star rating: a five-star `StarBadge` in a corner of the
/// picture, optionally on a translucent plate. What `--rating-badge` and its options build.
///
/// The badge is the very badge `thumbgen stars` draws for the same look and rating: the overlay
/// composites that 8-bit badge onto the 8-bit thumbnail, so an app that lays `4StarsSmall.png`
/// over the plain thumbnail sees the same pixels.
public struct RatingBadgeStyle: Sendable, Hashable {
    /// Cell side at @1x when the box has room (`stars`'s default size).
    public static let preferredCellSize = 16
    /// The smallest cell an automatic size goes down to.
    public static let smallestAutomaticCellSize = 4
    /// Star cells in a rating badge: ratings are 0–5 stars.
    public static let slots = 5

    /// Where the badge sits on the picture (the placed image, not `contain`'s margins).
    public var corner: Gravity = .southEast
    /// Star cell side at @1x in pixels; nil picks one from the box (`cellSize(boxWidth:boxHeight:)`).
    public var cellSize: Int?
    /// Gap between the badge (or its plate) and the picture's edges at @1x, pixels.
    public var margin: Int = 4
    /// Gap between star cells at @1x, pixels.
    public var spacing: Int = 1
    /// Colour of a plate behind the badge, nil for none.
    public var plate: Color?
    /// Colour of a soft rim around the stars, drawn under the badge when there is no plate; nil
    /// for none (the bare badge, as `thumbgen stars` writes it). The default, black at 90%, keeps
    /// the orange stars readable on any photo: without it, five empty stars vanish on a
    /// sunflower and four stars on dune grass are barely seen (docs/ratings-and-sheets.md has
    /// the measured contrast).
    public var halo: Color? = RatingBadgeStyle.defaultHalo
    /// Filled star colour.
    public var fill: Color = StarBadge.defaultColor
    /// Unfilled star colour, nil for transparent.
    public var empty: Color?
    /// Outline colour, nil for none.
    public var outline: Color? = StarBadge.defaultColor
    /// Outline width at @1x; nil: a sixteenth of the cell (1 pixel at `stars`'s 16).
    public var outlineWidth: Double?
    /// How fractional ratings fill stars.
    public var fillMode: StarBadge.FillMode = .full

    /// Black at 90% opacity. The default orange (#ff9500, relative luminance 0.42) sits in the
    /// middle of the luminance range, so no photo colour is far from it everywhere; a rim dark
    /// enough for 3:1 against it even over white (luminance 1 × 10% = 0.1) gives every photo
    /// the same backdrop right around the stars. Less (60% was tried) leaves the ring on a
    /// sunflower or a white page too bright.
    public static let defaultHalo = Color(red: 0, green: 0, blue: 0, alpha: 0xE6)

    /// The default style: bottom-right, automatic size, `stars`'s colours, no plate, the halo.
    public init() {}

    /// The cell side for a box of this size at @1x: `cellSize` when given; otherwise the largest
    /// side up to `preferredCellSize` whose badge spans at most 60% of the box's width and whose
    /// height at most a quarter of the box's height, but never under `smallestAutomaticCellSize`.
    public func cellSize(boxWidth: Int, boxHeight: Int) -> Int {
        if let cellSize { return cellSize }
        func fits(_ side: Int) -> Bool {
            (Self.slots * side + (Self.slots - 1) * spacing) * 5 <= boxWidth * 3 && side * 4 <= boxHeight
        }
        var side = Self.preferredCellSize
        while side > Self.smallestAutomaticCellSize && !fits(side) { side -= 1 }
        return side
    }

    /// The validated badge for a rating at this cell size, every length multiplied by
    /// `magnification` (for thumbnails above @3x, which a badge cannot be rendered at: the same
    /// geometry).
    public func badge(stars: Double, cellSize: Int, magnification: Int = 1) throws(StarBadgeError) -> StarBadge {
        let k = magnification
        return try StarBadge(rating: min(max(stars, 0), Double(Self.slots)), slots: Self.slots, size: cellSize * k,
                             spacing: spacing * k, fill: fill, empty: empty, outline: outline,
                             outlineWidth: (outlineWidth ?? Double(cellSize) / 16) * Double(k), fillMode: fillMode)
    }

    /// The badge's pixels at a thumbnail scale, as `thumbgen stars` writes them (8-bit, sRGB).
    public func render(stars: Double, cellSize: Int, scale: Int) throws(StarBadgeError) -> Image {
        if StarBadge.scaleRange.contains(scale) {
            return Image(try badge(stars: stars, cellSize: cellSize).render(scale: scale))
        }
        return Image(try badge(stars: stars, cellSize: cellSize, magnification: scale).render(scale: 1))
    }

    /// How far the halo reaches past the stars at @1x: an eighth of the cell and one pixel more
    /// for its soft edge (3 at the default 16), so the rim is solid for the two pixels the eye
    /// compares a thin outline with; within the default 4-pixel margin, so it stays on the picture.
    public func haloReach(cellSize: Int) -> Int { cellSize / 8 + 1 }

    /// The halo for a badge image at `scale`, `haloReach` larger on every side (its top-left
    /// corner goes `haloReach × scale` above and left of the badge's); nil without a halo or with
    /// a plate. The stars' coverage is spread by the reach (a square maximum filter) and softened
    /// by a Gaussian of a quarter of the reach, then filled with `halo` in linear light: a rim
    /// solid right around the stars (where their contrast is judged) whose outer edge is
    /// anti-aliased rather than stepped, the same at every scale up to the scale.
    func haloImage(around badge: Image, cellSize: Int, scale: Int) -> Image? {
        guard let halo, plate == nil else { return nil }
        let reach = haloReach(cellSize: cellSize) * scale
        let width = badge.width + 2 * reach, height = badge.height + 2 * reach
        let alpha = badge.converted8().rgba8
        // Coverage of the badge, spread by `reach` (rows, then columns: a square maximum filter).
        var rows = [Float](repeating: 0, count: width * height)
        for y in 0..<badge.height {
            for x in 0..<badge.width where alpha[(y * badge.width + x) * 4 + 3] != 0 {
                // Half coverage counts as whole: a thin outline at a small cell covers no pixel
                // fully, and its halo would otherwise be as faint as its anti-aliased edge.
                let value = min(1, Float(alpha[(y * badge.width + x) * 4 + 3]) / 255 * 2)
                for k in x...(x + 2 * reach) { rows[(y + reach) * width + k] = max(rows[(y + reach) * width + k], value) }
            }
        }
        var spread = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where rows[y * width + x] != 0 {
                for k in max(0, y - reach)...min(height - 1, y + reach) {
                    spread[k * width + x] = max(spread[k * width + x], rows[y * width + x])
                }
            }
        }
        let soft = GaussianBlur(sigma: Double(reach) / 4).blurred(CoverageMask(width: width, height: height, values: spread))
        var canvas = Canvas(width: width, height: height, light: .linear)
        canvas.fill(soft, color: halo)
        return Image(canvas.bitmap)
    }

    /// The plate's padding around the badge at @1x: a quarter cell, at least one pixel.
    public func platePadding(cellSize: Int) -> Int { plate == nil ? 0 : max(1, cellSize / 4) }

    /// The room a full badge needs at @1x for a box of this size: the badge, its plate and its
    /// margin on every side. Throws when the look makes no valid badge.
    public func footprint(boxWidth: Int, boxHeight: Int) throws(StarBadgeError) -> (width: Int, height: Int) {
        let cell = cellSize(boxWidth: boxWidth, boxHeight: boxHeight)
        let badge = try badge(stars: Double(Self.slots), cellSize: cell)
        let edge = 2 * (platePadding(cellSize: cell) + margin)
        return (badge.pixelWidth(scale: 1) + edge, badge.pixelHeight(scale: 1) + edge)
    }

    /// The plate for a badge image of this size at `scale`: a rounded rectangle `platePadding`
    /// wider on every side, drawn in linear light; nil without a plate.
    func plateImage(around badge: Image, cellSize: Int, scale: Int) -> Image? {
        guard let plate else { return nil }
        let padding = platePadding(cellSize: cellSize) * scale
        var canvas = Canvas(width: badge.width + 2 * padding, height: badge.height + 2 * padding, light: .linear)
        canvas.fill(.roundedRectangle(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height), radius: Double(padding)),
                    color: plate)
        return Image(canvas.bitmap)
    }

    // MARK: Settings description

    /// The style's part of a thumbnail's settings description, in a fixed order.
    var canonicalFields: [String] {
        [
            "badge=\(corner.rawValue)",
            "badge-size=\(cellSize.map(String.init) ?? "auto")",
            "badge-margin=\(margin)",
            "badge-spacing=\(spacing)",
            "badge-plate=\(plate?.description ?? "none")",
            "badge-halo=\(halo?.description ?? "none")",
            "badge-fill=\(fill)",
            "badge-empty=\(empty?.description ?? "none")",
            "badge-outline=\(outline?.description ?? "none")",
            "badge-outline-width=\(outlineWidth.map { "\($0)" } ?? "auto")",
            "badge-fill-mode=\(fillMode.rawValue)",
        ]
    }

    /// The style a settings description recorded, nil when it has no `badge` field.
    init?(canonicalFields fields: [String: String]) throws(FieldError) {
        guard let cornerText = fields["badge"] else { return nil }
        func field<T>(_ name: String, _ convert: (String) -> T?) throws(FieldError) -> T {
            guard let text = fields[name], let value = convert(text) else { throw FieldError(field: name) }
            return value
        }
        func optionalColor(_ text: String) -> Color?? { text == "none" ? .some(nil) : (try? Color(hex: text)).map { $0 } }
        guard let corner = Gravity(rawValue: cornerText) else { throw FieldError(field: "badge") }
        self.corner = corner
        cellSize = try field("badge-size") { $0 == "auto" ? .some(nil) : Int($0).map { $0 } }
        margin = try field("badge-margin") { Int($0) }
        spacing = try field("badge-spacing") { Int($0) }
        plate = try field("badge-plate", optionalColor)
        // Recorded before halos existed: made without one.
        halo = fields["badge-halo"] == nil ? nil : try field("badge-halo", optionalColor)
        fill = try field("badge-fill") { try? Color(hex: $0) }
        empty = try field("badge-empty", optionalColor)
        outline = try field("badge-outline", optionalColor)
        outlineWidth = try field("badge-outline-width") { $0 == "auto" ? .some(nil) : Double($0).map { $0 } }
        fillMode = try field("badge-fill-mode") { StarBadge.FillMode(rawValue: $0) }
    }

    /// A field of a recorded description that is missing or malformed.
    struct FieldError: Error { let field: String }
}
