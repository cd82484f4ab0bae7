import ThumbKit

/// An independent exact coverage computation for the rasterizer tests, pixel by pixel, in Double.
///
/// For a fixed pixel [px, px+1] × [py, py+1], let L(y) be the length of the filled part of the
/// horizontal line at height y inside [px, px+1]. Between consecutive "breakpoints" — edge
/// endpoints, crossings of two edges, and crossings of an edge with the lines x = px and x = px+1
/// — the filled set is a union of intervals whose ends move linearly without changing order or
/// leaving/entering the pixel, so L is linear there and the midpoint rule integrates it exactly.
/// This shares no code or structure with `Rasterizer` (no bands across the row, no accumulator).
struct ReferenceCoverage {
    struct Segment { var a: Point; var b: Point }
    let segments: [Segment]
    let rule: Path.FillRule
    /// y of every vertex and every crossing of two edges.
    let criticalYs: [Double]

    init(_ path: Path, rule: Path.FillRule) {
        var segments: [Segment] = []
        var ys: [Double] = []
        for contour in path.contours where contour.count >= 2 {
            for i in contour.indices {
                let a = contour[i], b = contour[(i + 1) % contour.count]
                segments.append(Segment(a: a, b: b))
                ys.append(a.y)
            }
        }
        for i in segments.indices {
            for j in (i + 1)..<segments.count {
                if let y = Self.crossingY(segments[i], segments[j]) { ys.append(y) }
            }
        }
        self.segments = segments
        self.rule = rule
        self.criticalYs = ys.sorted()
    }

    /// The y where two segments properly cross (nil when parallel or apart).
    static func crossingY(_ s: Segment, _ t: Segment) -> Double? {
        let r = Point(x: s.b.x - s.a.x, y: s.b.y - s.a.y)
        let q = Point(x: t.b.x - t.a.x, y: t.b.y - t.a.y)
        let denom = r.x * q.y - r.y * q.x
        if denom == 0 { return nil }
        let wx = t.a.x - s.a.x, wy = t.a.y - s.a.y
        let u = (wx * q.y - wy * q.x) / denom
        let v = (wx * r.y - wy * r.x) / denom
        guard u >= 0 && u <= 1 && v >= 0 && v <= 1 else { return nil }
        return s.a.y + u * r.y
    }

    func coverage(x px: Int, y py: Int) -> Double {
        let top = Double(py), bottom = top + 1
        let left = Double(px), right = left + 1
        var ys = [top, bottom]
        for y in criticalYs where y > top && y < bottom { ys.append(y) }
        for s in segments where s.a.y != s.b.y {
            for xLine in [left, right] {
                let lo = min(s.a.x, s.b.x), hi = max(s.a.x, s.b.x)
                guard xLine > lo && xLine < hi else { continue }
                let y = s.a.y + (xLine - s.a.x) / (s.b.x - s.a.x) * (s.b.y - s.a.y)
                if y > top && y < bottom { ys.append(y) }
            }
        }
        ys.sort()
        var area = 0.0
        for k in 1..<ys.count where ys[k] > ys[k - 1] {
            area += filledLength(atY: (ys[k] + ys[k - 1]) / 2, from: left, to: right) * (ys[k] - ys[k - 1])
        }
        return area
    }

    /// Length of {x in [left, right] : (x, y) is filled}.
    func filledLength(atY y: Double, from left: Double, to right: Double) -> Double {
        var crossings: [(x: Double, w: Int)] = []
        for s in segments {
            let (y0, y1) = (s.a.y, s.b.y)
            guard y0 != y1, y >= min(y0, y1), y < max(y0, y1) else { continue }
            let x = s.a.x + (y - y0) / (y1 - y0) * (s.b.x - s.a.x)
            crossings.append((x, y1 > y0 ? 1 : -1))
        }
        crossings.sort { $0.x < $1.x }
        var winding = 0
        var length = 0.0
        for i in crossings.indices {
            winding += crossings[i].w
            let inside = rule == .nonZero ? winding != 0 : winding % 2 != 0
            if inside && i + 1 < crossings.count {
                let a = max(crossings[i].x, left), b = min(crossings[i + 1].x, right)
                if b > a { length += b - a }
            }
        }
        return length
    }

    /// Largest |mask − reference| over the mask.
    func maxError(against mask: CoverageMask) -> Double {
        var worst = 0.0
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                worst = max(worst, abs(Double(mask[x, y]) - coverage(x: x, y: y)))
            }
        }
        return worst
    }
}

/// Area of a simple polygon clipped to a pixel square (Sutherland–Hodgman then the shoelace
/// formula): a second, classical reference for simple shapes such as stars.
/// `maxX` additionally cuts the square at a vertical line (for star fill splits).
func clippedArea(_ polygon: [Point], x px: Int, y py: Int, maxX: Double = .infinity, minX: Double = -.infinity) -> Double {
    var poly = polygon
    let l = max(Double(px), minX), t = Double(py), r = min(Double(px) + 1, maxX)
    if r <= l { return 0 }
    let planes: [(Point) -> Double] = [{ $0.x - l }, { r - $0.x }, { $0.y - t }, { t + 1 - $0.y }]
    for plane in planes {
        guard !poly.isEmpty else { break }
        var out: [Point] = []
        var prev = poly[poly.count - 1]
        for cur in poly {
            let dp = plane(prev), dc = plane(cur)
            if (dc >= 0) != (dp >= 0) {
                let s = dp / (dp - dc)
                out.append(Point(x: prev.x + s * (cur.x - prev.x), y: prev.y + s * (cur.y - prev.y)))
            }
            if dc >= 0 { out.append(cur) }
            prev = cur
        }
        poly = out
    }
    var twice = 0.0
    for i in poly.indices {
        let a = poly[i], b = poly[(i + 1) % poly.count]
        twice += a.x * b.y - b.x * a.y
    }
    return abs(twice) / 2
}
