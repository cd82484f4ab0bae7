/// One side of a vertical line: the region kept when a path is cut at `x`.
///
/// Star badges split a star at a fill fraction; cutting the polygon here (rather than multiplying
/// two coverage masks) keeps the split exact, because the coverage of an intersection is not the
/// product of the coverages.
package enum HalfPlane: Sendable, Hashable {
    /// Points with `x <= bound`.
    case left(of: Double)
    /// Points with `x >= bound`.
    case right(of: Double)

    /// Signed distance of a point inside the half-plane (>= 0 means kept).
    func inside(_ p: Point) -> Double {
        switch self {
        case .left(let bound): return bound - p.x
        case .right(let bound): return p.x - bound
        }
    }

    /// The point where the segment from `a` to `b` meets the boundary line.
    func boundaryPoint(from a: Point, to b: Point) -> Point {
        let bound: Double
        switch self {
        case .left(let x), .right(let x): bound = x
        }
        let t = (bound - a.x) / (b.x - a.x)
        // The x is set exactly so that pieces from both sides of a cut share the same boundary.
        return Point(x: bound, y: a.y + t * (b.y - a.y))
    }
}
