/// The compose step's last layer: a photo's star rating drawn onto its finished thumbnail, in a
/// corner of the picture (the placed image, so `contain`'s margins stay clear).
///
/// The badge is rendered and quantised exactly as `thumbgen stars` writes it, then composited
/// onto the 8-bit thumbnail (`Image.compositing`): pixel for pixel the stars command's badge laid
/// over the plain thumbnail with its halo under it. A plate, when asked for, is a rounded
/// rectangle a quarter cell wider than the badge on every side, composited first instead.
struct BadgeOverlay {
    let style: RatingBadgeStyle
    /// The @1x box, which the automatic cell size is chosen for.
    let boxWidth: Int
    let boxHeight: Int

    /// The picture of `plan` (placed on its canvas) with the badge for `rating` at `scale`; a
    /// rejected photo gets no badge.
    func draw(_ rating: Rating, on image: Image, plan: FitPlan, scale: Int) throws(ThumbnailError) -> Image {
        guard let stars = rating.stars else { return image }
        let placed = try placement(stars: stars, plan: plan, scale: scale)
        let padding = style.platePadding(cellSize: placed.cell) * scale
        var result = image
        if let plate = style.plateImage(around: placed.badge, cellSize: placed.cell, scale: scale) {
            result = result.compositing(plate, x: placed.x - padding, y: placed.y - padding)
        }
        if let halo = style.haloImage(around: placed.badge, cellSize: placed.cell, scale: scale) {
            let reach = style.haloReach(cellSize: placed.cell) * scale
            result = result.compositing(halo, x: placed.x - reach, y: placed.y - reach)
        }
        return result.compositing(placed.badge, x: placed.x, y: placed.y)
    }

    /// The badge for `stars` on the picture of `plan` at `scale`: its image, its cell size at
    /// @1x, and where its top-left pixel goes (inside the plate's padding and the margin).
    func placement(stars: Double, plan: FitPlan, scale: Int) throws(ThumbnailError) -> (badge: Image, cell: Int, x: Int, y: Int) {
        // An automatic size fits the picture as well as the box: a portrait in a landscape box, a
        // panorama, get smaller stars rather than none.
        let cell = min(style.cellSize(boxWidth: boxWidth, boxHeight: boxHeight),
                       style.cellSize(boxWidth: max(plan.width / scale, 1), boxHeight: max(plan.height / scale, 1)))
        let badge: Image
        do { badge = try style.render(stars: stars, cellSize: cell, scale: scale) } catch { throw .badge(error) }
        let padding = style.platePadding(cellSize: cell) * scale, margin = style.margin * scale
        let outerWidth = badge.width + 2 * padding, outerHeight = badge.height + 2 * padding
        let freeWidth = plan.width - 2 * margin - outerWidth, freeHeight = plan.height - 2 * margin - outerHeight
        guard freeWidth >= 0 && freeHeight >= 0 else {
            throw .badgeDoesNotFit(badgeWidth: outerWidth, badgeHeight: outerHeight, pictureWidth: plan.width, pictureHeight: plan.height)
        }
        let (hn, hd) = style.corner.horizontal, (vn, vd) = style.corner.vertical
        return (badge, cell, plan.x + margin + freeWidth * hn / hd + padding, plan.y + margin + freeHeight * vn / vd + padding)
    }
}
