/// A filled outline made of straight-line contours, in drawing space (pixels, y down).
///
/// Every contour is treated as closed when filled (an open contour gets an implicit closing
/// edge back to its first point), and curves are flattened to lines when they are built
/// (`roundedRectangle`), finely enough that the flattening moves no pixel's coverage by 1/255.
/// A path knows nothing about bitmaps; `Canvas` turns it into coverage.
public struct Path: Sendable, Hashable {
    /// The contours, each a list of vertices; the edge from the last vertex back to the first is
    /// implied.
    public private(set) var contours: [[Point]] = []
    private var open = false

    /// An empty path.
    public init() {}

    /// A path with the given closed polygon contours.
    public init(polygons: [[Point]]) {
        contours = polygons.filter { !$0.isEmpty }
    }

    /// Paths are equal when their contours are (whether a contour is still open for `line(to:)`
    /// does not matter: filling closes it either way).
    public static func == (lhs: Path, rhs: Path) -> Bool { lhs.contours == rhs.contours }

    /// Hashes the contours, as `==` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(contours) }

    /// True when the path has no vertices.
    public var isEmpty: Bool { contours.allSatisfy(\.isEmpty) }

    /// Starts a new contour at `point`.
    public mutating func move(to point: Point) {
        contours.append([point])
        open = true
    }

    /// Adds a straight edge from the current point to `point` (starting a contour if none is open).
    public mutating func line(to point: Point) {
        if !open {
            move(to: point)
            return
        }
        contours[contours.count - 1].append(point)
    }

    /// Closes the current contour; the next `line(to:)` starts a new one at its point.
    public mutating func close() {
        open = false
    }

    /// Appends all contours of `other`.
    public mutating func append(_ other: Path) {
        contours += other.contours
        open = false
    }

    /// The smallest rectangle holding every vertex, or nil for an empty path.
    public var bounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for contour in contours {
            for p in contour {
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// This path moved by (`dx`, `dy`).
    public func translated(dx: Double, dy: Double) -> Path {
        Path(polygons: contours.map { $0.map { Point(x: $0.x + dx, y: $0.y + dy) } })
    }

    /// This path scaled by `factor` about the origin.
    public func scaled(by factor: Double) -> Path {
        Path(polygons: contours.map { $0.map { Point(x: $0.x * factor, y: $0.y * factor) } })
    }

    /// The part of this path inside a half-plane, cut exactly (Sutherland–Hodgman per contour).
    ///
    /// Where a contour leaves and re-enters the half-plane, the result joins the pieces with edges
    /// along the boundary line that run both ways and so enclose no area: the filled region (under
    /// either fill rule) is exactly the intersection.
    package func clipped(to halfPlane: HalfPlane) -> Path {
        var result: [[Point]] = []
        for contour in contours where contour.count >= 2 {
            var out: [Point] = []
            var previous = contour[contour.count - 1]
            var previousInside = halfPlane.inside(previous) >= 0
            for current in contour {
                let currentInside = halfPlane.inside(current) >= 0
                if currentInside != previousInside {
                    out.append(halfPlane.boundaryPoint(from: previous, to: current))
                }
                if currentInside { out.append(current) }
                previous = current
                previousInside = currentInside
            }
            if out.count >= 3 { result.append(out) }
        }
        return Path(polygons: result)
    }

    /// The rectangle as one clockwise (on screen, y down) contour.
    public static func rectangle(_ rect: Rect) -> Path {
        Path(polygons: [[
            Point(x: rect.x, y: rect.y), Point(x: rect.maxX, y: rect.y),
            Point(x: rect.maxX, y: rect.maxY), Point(x: rect.x, y: rect.maxY),
        ]])
    }

    /// The rectangle with top-left (`x`, `y`) and the given extents, as one contour.
    public static func rectangle(x: Double, y: Double, width: Double, height: Double) -> Path {
        rectangle(Rect(x: x, y: y, width: width, height: height))
    }

    /// The badge star (see `StarGeometry`) with centre (`cx`, `cy`) and outer radius
    /// `outerRadius`, as one clockwise contour of ten vertices.
    public static func star(cx: Double, cy: Double, outerRadius: Double) -> Path {
        StarGeometry(cx: cx, cy: cy, outerRadius: outerRadius).path
    }

    /// Largest distance, in pixels, between a flattened arc and the true circle.
    ///
    /// A chord strays from its arc by at most this sagitta, so within one pixel the area between
    /// them is below sagitta × (chord length inside the pixel, at most √2): 0.001 × 1.42 < 1/255
    /// with a wide margin for the rasterizer's own float error.
    public static let arcTolerance = 0.001

    /// A rectangle with circular corners of `radius` (clamped to half the shorter side), one
    /// clockwise contour with each quarter circle flattened to chords within `arcTolerance`.
    ///
    /// The chord count depends only on the radius, so equal inputs give identical vertices.
    public static func roundedRectangle(x: Double, y: Double, width: Double, height: Double,
                                        radius: Double) -> Path {
        let r = max(0, min(radius, width / 2, height / 2))
        guard r > 0 else { return rectangle(x: x, y: y, width: width, height: height) }
        let segments = arcSegments(radius: r, halfTurns: 0.5)
        var points: [Point] = []
        points.reserveCapacity(4 * (segments + 1))
        // Corner centres and start angles in half turns (θ/π), clockwise on screen starting at the
        // top-right corner: with y down, angle θ maps to (cos θ, sin θ), so −½ points up. Angles
        // in half turns let `PortableMath` give exact 0 and ±1 at the arcs' ends.
        let corners: [(cx: Double, cy: Double, start: Double)] = [
            (x + width - r, y + r, -0.5),
            (x + width - r, y + height - r, 0),
            (x + r, y + height - r, 0.5),
            (x + r, y + r, 1),
        ]
        for corner in corners {
            for k in 0...segments {
                let turns = corner.start + 0.5 * Double(k) / Double(segments)
                points.append(Point(x: corner.cx + r * PortableMath.cospi(turns), y: corner.cy + r * PortableMath.sinpi(turns)))
            }
        }
        return Path(polygons: [points])
    }

    /// Chords needed so that an arc of `radius` spanning `halfTurns` half turns (angle/π) stays
    /// within `arcTolerance`: a chord over angle φ has sagitta r(1 − cos(φ/2)), so n chords do
    /// when cos(φ/2n) ≥ 1 − tolerance/r. Found by counting from an estimate with `cospi` rather
    /// than with the platform's `acos`, which differs by an ulp between C libraries.
    static func arcSegments(radius: Double, halfTurns: Double) -> Int {
        guard radius > arcTolerance else { return 1 }
        let floor = 1 - arcTolerance / radius
        func fits(_ n: Int) -> Bool { PortableMath.cospi(halfTurns / Double(2 * n)) >= floor }
        // 1 − cos(φ/2) ≈ φ²/8, so φ ≈ √(8·tolerance/r): an estimate within a chord or two.
        let step = (8 * arcTolerance / radius).squareRoot() / Double.pi
        var n = max(1, Int((halfTurns / step).rounded(.up)))
        while n > 1 && fits(n - 1) { n -= 1 }
        while !fits(n) { n += 1 }
        return n
    }
}
