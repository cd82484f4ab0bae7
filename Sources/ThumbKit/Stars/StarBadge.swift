/// A star-rating badge: a row of star cells, each star filled according to a rating.
///
/// Geometry (fixed, at @1x; at scale k every length below is multiplied by k):
/// - `slots` cells of `size` × `size` pixels (S), `spacing` pixels (G) between cells, so the
///   badge is `slots·S + (slots − 1)·G` pixels wide and `S` high;
/// - the star in cell i (0-based) is `StarGeometry` with outer radius R = S/2, inner radius
///   r = 0.381966·R, centre cx = i·(S + G) + S/2 and cy = S/2 + 0.0954915·R (which centres the
///   star's bounding box vertically in the cell); vertex k = 0…9 at angle −90° + 36°·k, radius R
///   for even k and r for odd k;
/// - star i is filled to level f = `fillMode.rounded(rating − i)`: the part of the star left of
///   x = cx + (2f − 1)·R·sin 72° (f = 0: the left tip, ½: cx, 1: the right tip) takes the fill
///   colour, the rest the empty colour (or stays transparent). The split cuts the polygon exactly.
/// - The outline is a stroke of `outlineWidth` pixels lying inside each star's edge: the ring
///   between the star and the star inset by that width with mitred corners (for this star, the
///   same star scaled about its centre). Fill and empty colours cover only the inset star, so the
///   outline sits over neither.
///
/// Rendering is exact-area: the ring, the filled part and the empty part are disjoint, and each
/// pixel gets Σ (area of part in pixel) × (colour of part), in linear light, so edges are neither
/// darkened nor seamed. Deterministic: same badge, same bitmap, on every machine.
public struct StarBadge: Sendable, Hashable {
    /// Allowed `slots`, the number of star cells in a badge.
    public static let slotRange = 1...20
    /// Allowed cell `size` at @1x, pixels.
    public static let sizeRange = 1...512
    /// Allowed `spacing` at @1x, pixels.
    public static let spacingRange = 0...512
    /// Allowed render scales: 1 (@1x), 2 (@2x) and 3 (@3x), the scales Xcode asset catalogs know.
    public static let scaleRange = 1...3
    /// Most pixels a badge may have at @3x (checked before anything is allocated): 16 Mi, about
    /// 256 MiB of float working memory.
    public static let maxPixels = 1 << 24
    /// Cosmos's default orange, `ff9500`, opaque: the default fill and outline colour.
    public static let defaultColor = Color(red: 0xff, green: 0x95, blue: 0x00)

    /// The rating, 0…`slots` (fractional ratings allowed; see `fillMode`).
    public let rating: Double
    /// Number of star cells, in `slotRange`.
    public let slots: Int
    /// Cell side S at @1x, pixels, in `sizeRange`.
    public let size: Int
    /// Gap G between cells at @1x, pixels, in `spacingRange`.
    public let spacing: Int
    /// Colour of the filled part of each star (sRGB, straight alpha).
    public let fill: Color
    /// Colour of the unfilled part, or nil to leave it transparent.
    public let empty: Color?
    /// Colour of the outline, or nil for none.
    public let outline: Color?
    /// Outline width at @1x, pixels (0 for none); less than 0.1545·`size`.
    public let outlineWidth: Double
    /// How fractional ratings fill a star.
    public let fillMode: StarBadge.FillMode

    /// A validated badge. `slots`, `size` and `spacing` must lie in `slotRange`, `sizeRange` and
    /// `spacingRange`, the @3x bitmap within `maxPixels`; `rating` must be finite and in 0…`slots`;
    /// `outlineWidth` (pixels at @1x) finite, at least 0 and under the star's edge distance,
    /// 0.1545·`size`, so some of the star is left inside the outline. Every error names the
    /// field it concerns. By default a fractional rating fills exactly that fraction (3.5 draws
    /// three and a half stars); `.full` and `.half` round it as the Cosmos rating view does.
    public init(rating: Double, slots: Int = 5, size: Int = 16, spacing: Int = 1,
                fill: Color = StarBadge.defaultColor, empty: Color? = nil,
                outline: Color? = StarBadge.defaultColor, outlineWidth: Double = 1,
                fillMode: StarBadge.FillMode = .precise) throws(StarBadgeError) {
        guard Self.slotRange.contains(slots) else { throw .invalidSlots(slots) }
        guard Self.sizeRange.contains(size) else { throw .invalidSize(size) }
        guard Self.spacingRange.contains(spacing) else { throw .invalidSpacing(spacing) }
        let width3x = (slots * size + (slots - 1) * spacing) * 3, height3x = size * 3
        guard width3x * height3x <= Self.maxPixels else { throw .tooLarge(width: width3x, height: height3x) }
        guard rating.isFinite else { throw .malformedRating(text: "\(rating)") }
        guard rating >= 0 && rating <= Double(slots) else { throw .ratingOutOfRange(rating: rating, slots: slots) }
        // The ring must leave an inset star: the edge distance is 0.309·R = 0.1545·S.
        let star = StarGeometry(cx: 0, cy: 0, outerRadius: Double(size) / 2)
        guard outlineWidth.isFinite && outlineWidth >= 0 && outlineWidth < star.edgeDistance else {
            throw .invalidOutlineWidth(outlineWidth)
        }
        self.rating = rating
        self.slots = slots
        self.size = size
        self.spacing = spacing
        self.fill = fill
        self.empty = empty
        self.outline = outline
        self.outlineWidth = outlineWidth
        self.fillMode = fillMode
    }

    /// Badge width at `scale`: `(slots·S + (slots − 1)·G)·scale` pixels.
    public func pixelWidth(scale: Int) -> Int { (slots * size + (slots - 1) * spacing) * scale }

    /// Badge height at `scale`: `S·scale` pixels.
    public func pixelHeight(scale: Int) -> Int { size * scale }

    /// Fill level of star `index` (0-based), in [0, 1], after rounding by `fillMode`.
    package func fillLevel(ofStar index: Int) -> Double {
        fillMode.rounded(rating - Double(index))
    }

    /// The star in cell `index` at `scale`.
    package func star(_ index: Int, scale: Int) -> StarGeometry {
        let s = Double(size * scale), g = Double(spacing * scale)
        let r = s / 2
        return StarGeometry(cx: Double(index) * (s + g) + s / 2,
                            cy: s / 2 + StarGeometry.verticalCentring * r, outerRadius: r)
    }

    /// The x where star `index` at `scale` splits between fill and empty colour:
    /// cx + (2f − 1)·R·sin 72°.
    func splitX(ofStar index: Int, scale: Int) -> Double {
        let star = star(index, scale: scale)
        return star.cx + (2 * fillLevel(ofStar: index) - 1) * star.outerRadius * StarGeometry.halfWidthRatio
    }

    /// The three disjoint regions at `scale`: outline ring (fill with even-odd), filled part and
    /// empty part (non-zero).
    func regions(scale: Int) -> (outline: Path, filled: Path, empty: Path) {
        var ring = Path(), filled = Path(), unfilled = Path()
        let width = outline == nil ? 0 : outlineWidth * Double(scale)
        for index in 0..<slots {
            let star = star(index, scale: scale)
            var interior = star.path
            if width > 0, let inset = star.inset(by: width) {
                // Star plus inset star under even-odd is exactly the ring between them.
                ring.append(star.path)
                ring.append(inset.path)
                interior = inset.path
            }
            let level = fillLevel(ofStar: index)
            let split = splitX(ofStar: index, scale: scale)
            if level >= 1 {
                filled.append(interior)
            } else if level <= 0 {
                unfilled.append(interior)
            } else {
                filled.append(interior.clipped(to: .left(of: split)))
                unfilled.append(interior.clipped(to: .right(of: split)))
            }
        }
        return (ring, filled, unfilled)
    }

    /// The badge as a premultiplied linear-light bitmap, transparent where no star is, of
    /// `pixelWidth(scale:)` × `pixelHeight(scale:)` pixels. `scale` is in `scaleRange` (1 for @1x,
    /// 2 for @2x, 3 for @3x); any other throws `StarBadgeError.unsupportedScale`.
    public func render(scale: Int) throws(StarBadgeError) -> Bitmap {
        guard Self.scaleRange.contains(scale) else { throw .unsupportedScale(scale) }
        StarRenderLog.current?.record(rating: rating, scale: scale)
        var canvas = Canvas(width: pixelWidth(scale: scale), height: pixelHeight(scale: scale), light: .linear)
        let parts = regions(scale: scale)
        var layers: [(mask: CoverageMask, color: Color)] = []
        if let outline, !parts.outline.isEmpty {
            layers.append((canvas.coverage(of: parts.outline, rule: .evenOdd), outline))
        }
        if !parts.filled.isEmpty {
            layers.append((canvas.coverage(of: parts.filled), fill))
        }
        if let empty, !parts.empty.isEmpty {
            layers.append((canvas.coverage(of: parts.empty), empty))
        }
        canvas.fill(regions: layers)
        return canvas.bitmap
    }
}
