/// The shapes app icons are cut to: circles (Android's round icon, the web's maskable safe zone)
/// and rectangles with Apple's continuous corners (the macOS app icon body).
extension Path {
    /// A circle as one clockwise contour, flattened to chords within `arcTolerance`.
    public static func circle(cx: Double, cy: Double, radius: Double) -> Path {
        let segments = max(8, arcSegments(radius: radius, halfTurns: 2))
        let points = (0..<segments).map { k -> Point in
            // The angle in half turns, for `PortableMath` (the same points on every platform).
            let turns = 2 * Double(k) / Double(segments)
            return Point(x: cx + radius * PortableMath.cospi(turns), y: cy + radius * PortableMath.sinpi(turns))
        }
        return Path(polygons: [points])
    }

    /// A rectangle with continuous corners: each corner leaves the straight edge 1.52866483 radii
    /// before the rectangle's corner and reaches it through three cubic curves, so the curvature
    /// grows from zero instead of jumping to 1/r as a circular arc's does. These are the curves of
    /// iOS 7's icon shape as PaintCode measured them from `UIBezierPath`, the ones design tools use
    /// for Apple's icon body, with the measured coefficients made exactly symmetric about the
    /// corner's diagonal (they differed in the seventh digit), so the shape is mirror-symmetric;
    /// `radius` is limited so that two corners fit on the shorter side. Each curve is flattened to
    /// chords within `arcTolerance`.
    public static func continuousRoundedRectangle(x: Double, y: Double, width: Double, height: Double,
                                                  radius: Double) -> Path {
        let r = max(0, min(radius, min(width, height) / 2 / continuousCornerReach))
        guard r > 0 else { return rectangle(x: x, y: y, width: width, height: height) }
        // One corner, from the top edge round to the right edge, in radii: (along the top edge
        // from the corner, down the right edge from the corner).
        let corner: [[(Double, Double)]] = [
            [(1.52866483, 0)],
            [(1.08849299, 0), (0.86840701, 0), (0.66993397, 0.06549600)],
            [(0.63149399, 0.07491100)],
            [(0.37282401, 0.16906001), (0.16906001, 0.37282401), (0.07491100, 0.63149399)],
            [(0.06549600, 0.66993397)],
            [(0, 0.86840701), (0, 1.08849299), (0, 1.52866483)],
        ]
        // The four corners clockwise (y down): each maps (along, down) to a point by turning the
        // top-right corner's frame a quarter turn at a time.
        let frames: [(origin: Point, along: Point, down: Point)] = [
            (Point(x: x + width, y: y), Point(x: -1, y: 0), Point(x: 0, y: 1)),
            (Point(x: x + width, y: y + height), Point(x: 0, y: -1), Point(x: -1, y: 0)),
            (Point(x: x, y: y + height), Point(x: 1, y: 0), Point(x: 0, y: -1)),
            (Point(x: x, y: y), Point(x: 0, y: 1), Point(x: 1, y: 0)),
        ]
        var points: [Point] = []
        for frame in frames {
            func place(_ p: (Double, Double)) -> Point {
                Point(x: frame.origin.x + r * (p.0 * frame.along.x + p.1 * frame.down.x),
                      y: frame.origin.y + r * (p.0 * frame.along.y + p.1 * frame.down.y))
            }
            for step in corner {
                if step.count == 1 {
                    points.append(place(step[0]))
                } else {
                    let start = points[points.count - 1]
                    points += flattenCubic(from: start, place(step[0]), place(step[1]), place(step[2])).dropFirst()
                }
            }
        }
        return Path(polygons: [points])
    }

    /// How far a continuous corner reaches along each edge, in radii.
    public static let continuousCornerReach = 1.52866483

    /// A cubic Bézier curve as chords within `arcTolerance` of it, its end points included. Uniform
    /// steps in t: a chord over 1/n of the curve strays from it by at most M / (8 n²), where M
    /// bounds the second derivative, 6 × the larger second difference of the control points.
    static func flattenCubic(from p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> [Point] {
        func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
        let d1 = length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        let d2 = length(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y)
        let n = max(1, Int((0.75 * max(d1, d2) / arcTolerance).squareRoot().rounded(.up)))
        return (0...n).map { k in
            let t = Double(k) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }
    }
}
