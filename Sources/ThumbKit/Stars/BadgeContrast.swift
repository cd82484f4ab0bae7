import Glibc

/// How well a rating badge stands out from the photo under it, as WCAG 2's contrast ratio: the
/// measure the default halo was chosen by (docs/ratings-and-sheets.md), for
/// `thumbgen-bench contrast` and the tests.
package enum BadgeContrast {
    /// How far from the stars (@1x pixels, in every direction) the photo counts as "right around
    /// them": what the eye compares a thin outline with.
    package static let ringReach = 2

    /// The contrast ratio (1…21) between the stars and what is right around them once `style`'s
    /// badge for `stars` is drawn on `picture` (a finished opaque thumbnail at @1x; the badge in
    /// `style.corner`): the mean relative luminance of the star pixels (the badge opaque) against
    /// the mean of the pixels within `ringReach` of them that the badge leaves uncovered (the gaps inside empty stars count), both read from the composited thumbnail.
    package static func ratio(of style: RatingBadgeStyle, stars: Double, on picture: Image) throws(ThumbnailError) -> Double {
        let plan = FitPlan(sourceWidth: picture.width, sourceHeight: picture.height, boxWidth: picture.width, boxHeight: picture.height)
        let overlay = BadgeOverlay(style: style, boxWidth: picture.width, boxHeight: picture.height)
        let placed = try overlay.placement(stars: stars, plan: plan, scale: 1)
        let drawn = try overlay.draw(.stars(stars), on: picture, plan: plan, scale: 1).converted8().rgba8
        let badge = placed.badge.converted8().rgba8
        func badgeAlpha(_ x: Int, _ y: Int) -> UInt8 {
            let bx = x - placed.x, by = y - placed.y
            guard bx >= 0, by >= 0, bx < placed.badge.width, by < placed.badge.height else { return 0 }
            return badge[(by * placed.badge.width + bx) * 4 + 3]
        }
        func luminance(_ x: Int, _ y: Int) -> Double {
            let i = (y * picture.width + x) * 4
            return 0.2126 * linear(drawn[i]) + 0.7152 * linear(drawn[i + 1]) + 0.0722 * linear(drawn[i + 2])
        }
        // The stars' own colour is judged where the badge covers the pixel whole: an
        // anti-aliased edge pixel is part photo, and its light would be counted as the star's.
        // Hair-thin outlines that cover no pixel whole fall back to those covered at least half.
        var star = (sum: 0.0, count: 0), edge = (sum: 0.0, count: 0), ring = (sum: 0.0, count: 0)
        let r = ringReach
        for y in max(0, placed.y - r) ..< min(picture.height, placed.y + placed.badge.height + r) {
            for x in max(0, placed.x - r) ..< min(picture.width, placed.x + placed.badge.width + r) {
                let alpha = badgeAlpha(x, y)
                if alpha == 255 {
                    star.sum += luminance(x, y); star.count += 1
                } else if alpha >= 128 {
                    edge.sum += luminance(x, y); edge.count += 1
                } else if alpha == 0 {
                    let nearStar = (y - r ... y + r).contains { v in (x - r ... x + r).contains { u in badgeAlpha(u, v) >= 128 } }
                    if nearStar { ring.sum += luminance(x, y); ring.count += 1 }
                }
            }
        }
        if star.count == 0 { star = edge }
        guard star.count > 0, ring.count > 0 else { return 1 }
        let a = star.sum / Double(star.count), b = ring.sum / Double(ring.count)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// An sRGB-encoded sample as linear light (IEC 61966-2-1, as WCAG 2 defines luminance).
    private static func linear(_ value: UInt8) -> Double {
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
}
