/// The regular five-pointed star used by rating badges, as pure geometry.
///
/// Convention (fixed; badge goldens depend on it): outer radius `R`, inner radius
/// `r = R × 0.381966`, centre (`cx`, `cy`); vertex k = 0…9 lies at angle −90° + 36°·k (vertex 0
/// points straight up, y down), at radius R for even k and r for odd k:
/// `(cx + ρ cos θ, cy + ρ sin θ)`.
///
/// 0.381966 = (3 − √5)/2 = 1/φ²: the ratio at which the five chords of a pentagram cross, which
/// makes the inner vertices collinear with the outer ones (each edge pair is one straight chord).
package struct StarGeometry: Sendable, Hashable {
    /// Inner radius as a fraction of the outer radius, (3 − √5)/2 rounded to six places.
    package static let innerRatio = 0.381966
    /// How far below the circle's centre a star sits so its bounding box is centred vertically, as
    /// a fraction of R: the top tip is at −R and the lowest tips at R·sin 54° = 0.809017R, so the
    /// box's middle is (0.809017 − 1)/2·R = −0.0954915R above the centre.
    package static let verticalCentring = 0.0954915
    /// sin 72°: the half-width of the star as a fraction of R (its side tips at ±18° above level).
    package static let halfWidthRatio = (10 + 2 * 5.0.squareRoot()).squareRoot() / 4

    /// Centre x, pixels.
    package var cx: Double
    /// Centre y, pixels (the circle centre, not the bounding-box centre).
    package var cy: Double
    /// Outer radius R, pixels.
    package var outerRadius: Double

    /// A star with the given centre and outer radius.
    package init(cx: Double, cy: Double, outerRadius: Double) {
        self.cx = cx
        self.cy = cy
        self.outerRadius = outerRadius
    }

    /// Inner radius r = R × `innerRatio`.
    package var innerRadius: Double { outerRadius * Self.innerRatio }

    /// The ten vertices, clockwise on screen from the top tip.
    package var vertices: [Point] { vertices(scaledBy: 1) }

    /// The left and right extremes of the star: cx ∓ R·sin 72°.
    package var horizontalExtent: (min: Double, max: Double) {
        (cx - outerRadius * Self.halfWidthRatio, cx + outerRadius * Self.halfWidthRatio)
    }

    /// Distance from the centre to the line of every edge (all ten are alike by symmetry).
    package var edgeDistance: Double {
        let v = vertices
        let a = v[0], b = v[1]
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        return abs((b.x - a.x) * (a.y - cy) - (b.y - a.y) * (a.x - cx)) / length
    }

    /// The star's outline as a one-contour path.
    package var path: Path { Path(polygons: [vertices]) }

    /// The star inset by `distance` pixels with mitred corners: every edge moved inward, parallel.
    ///
    /// Because every edge line lies at the same distance d from the centre, moving them all in by
    /// `distance` gives the same star scaled by (d − distance)/d about the centre — the exact
    /// mitre offset. Returns nil when the inset leaves nothing.
    package func inset(by distance: Double) -> StarGeometry? {
        let d = edgeDistance
        guard distance < d else { return nil }
        return StarGeometry(cx: cx, cy: cy, outerRadius: outerRadius * (d - distance) / d)
    }

    private func vertices(scaledBy factor: Double) -> [Point] {
        let directions = Self.directions
        return (0..<10).map { k in
            let rho = (k % 2 == 0 ? outerRadius : innerRadius) * factor
            return Point(x: cx + rho * directions[k].x, y: cy + rho * directions[k].y)
        }
    }

    /// (cos θ, sin θ) for θ = −90° + 36°·k, k = 0…9, in closed form from √5 rather than from the
    /// C library's `cos`/`sin`, whose last bit may differ between systems: `sqrt` is correctly
    /// rounded everywhere, so star vertices (and badge pixels) are the same on every machine.
    static let directions: [Point] = {
        let root5 = 5.0.squareRoot()
        let cos36 = (1 + root5) / 4, sin36 = (10 - 2 * root5).squareRoot() / 4
        let cos72 = (root5 - 1) / 4, sin72 = (10 + 2 * root5).squareRoot() / 4
        return [
            Point(x: 0, y: -1),            // −90°
            Point(x: sin36, y: -cos36),    // −54°
            Point(x: sin72, y: -cos72),    // −18°
            Point(x: sin72, y: cos72),     // 18°
            Point(x: sin36, y: cos36),     // 54°
            Point(x: 0, y: 1),             // 90°
            Point(x: -sin36, y: cos36),    // 126°
            Point(x: -sin72, y: cos72),    // 162°
            Point(x: -sin72, y: -cos72),   // 198°
            Point(x: -sin36, y: -cos36),   // 234°
        ]
    }()
}
