/// Exact-area scan conversion of straight-edged paths under a fill rule.
///
/// Method. Each pixel row [y, y+1] is cut into horizontal bands at every edge endpoint and every
/// point where two edges cross. Inside one band no two edges cross, so the edges keep one left-to-
/// right order and the winding number is constant between neighbours: the filled part of the band
/// is a union of trapezoids, each bounded by the edge where the rule turns "inside" on and the edge
/// where it turns off. A trapezoid's area in every cell is (area right of its left edge) − (area
/// right of its right edge); those areas are deposited as differences in a per-row accumulator in
/// the manner of font-rs / stb_truetype (signed-area accumulation), and a running sum over the row
/// yields each pixel's coverage. Unlike plain signed-area accumulation, which sums edge directions
/// and so only equals coverage for shapes that never overlap themselves, this is exact for both
/// fill rules and for self-intersecting contours. All arithmetic is in `Double`.
///
/// Cost per row is O(k²) in the k edges that touch it (the crossing test), which is small for the
/// shapes ThumbKit draws (stars, rounded rectangles, test polygons).
struct Rasterizer {
    /// One non-horizontal edge, stored top to bottom.
    struct Edge {
        var x0: Double, y0: Double, x1: Double, y1: Double
        /// +1 when the contour runs downward along this edge, −1 when upward.
        var direction: Int
        var dxdy: Double

        @inline(__always)
        func x(at y: Double) -> Double {
            y >= y1 ? x1 : x0 + (y - y0) * dxdy
        }
    }

    let width: Int
    let height: Int
    /// Differences of coverage along the current row; index `width` catches spill past the end.
    private var accumulator: [Double]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        accumulator = [Double](repeating: 0, count: width + 2)
    }

    static func edges(of path: Path) -> [Edge] {
        var edges: [Edge] = []
        for contour in path.contours where contour.count >= 2 {
            var previous = contour[contour.count - 1]
            for current in contour {
                precondition(current.x.isFinite && current.y.isFinite, "path coordinates must be finite")
                // Horizontal edges enclose no area between rows and change no winding inside one.
                if current.y != previous.y {
                    let down = current.y > previous.y
                    let (a, b) = down ? (previous, current) : (current, previous)
                    edges.append(Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, direction: down ? 1 : -1,
                                      dxdy: (b.x - a.x) / (b.y - a.y)))
                }
                previous = current
            }
        }
        return edges
    }

    /// Writes the coverage of `path` into `values` (`width * height`, zero-filled).
    mutating func rasterize(_ path: Path, rule: Path.FillRule, into values: inout [Float]) {
        var edges = Self.edges(of: path)
        guard !edges.isEmpty else { return }
        edges.sort { $0.y0 < $1.y0 }
        // Compare in Double first so that huge coordinates never reach an Int conversion.
        guard edges[0].y0 < Double(height) else { return }
        let firstRow = edges[0].y0 <= 0 ? 0 : Int(edges[0].y0)
        var next = 0
        var active: [Edge] = []
        var breaks: [Double] = []
        var rowHasInk = false
        for row in firstRow..<height {
            let top = Double(row), bottom = top + 1
            active.removeAll { $0.y1 <= top }
            while next < edges.count && edges[next].y0 < bottom {
                if edges[next].y1 > top { active.append(edges[next]) }
                next += 1
            }
            if active.isEmpty {
                if next == edges.count { break }
                continue
            }
            breaks.removeAll(keepingCapacity: true)
            breaks.append(top)
            breaks.append(bottom)
            for e in active {
                if e.y0 > top { breaks.append(e.y0) }
                if e.y1 < bottom { breaks.append(e.y1) }
            }
            breaks.sort()
            rowHasInk = false
            var bandTop = breaks[0]
            for bandBottom in breaks.dropFirst() where bandBottom > bandTop {
                rowHasInk = fillBand(active, from: bandTop, to: bandBottom, rule: rule) || rowHasInk
                bandTop = bandBottom
            }
            if rowHasInk { flushRow(row, into: &values) }
        }
    }

    /// Splits one band at edge crossings and fills each crossing-free sub-band. Returns whether
    /// anything was deposited.
    private mutating func fillBand(_ active: [Edge], from top: Double, to bottom: Double,
                                   rule: Path.FillRule) -> Bool {
        let band = active.filter { $0.y0 < bottom && $0.y1 > top }
        guard band.count >= 2 else { return false }
        var cuts: [Double] = [top, bottom]
        let xsTop = band.map { $0.x(at: top) }
        let xsBottom = band.map { $0.x(at: bottom) }
        for i in 0..<band.count {
            for j in (i + 1)..<band.count {
                let dTop = xsTop[i] - xsTop[j], dBottom = xsBottom[i] - xsBottom[j]
                // A strict sign change means the edges swap order inside the band.
                if (dTop < 0 && dBottom > 0) || (dTop > 0 && dBottom < 0) {
                    let y = top + (bottom - top) * (dTop / (dTop - dBottom))
                    if y > top && y < bottom { cuts.append(y) }
                }
            }
        }
        if cuts.count > 2 { cuts.sort() }
        var order = [(mid: Double, xTop: Double, xBottom: Double, direction: Int)]()
        order.reserveCapacity(band.count)
        var deposited = false
        var subTop = cuts[0]
        for subBottom in cuts.dropFirst() where subBottom > subTop {
            order.removeAll(keepingCapacity: true)
            for e in band {
                let a = e.x(at: subTop), b = e.x(at: subBottom)
                order.append((a + b, a, b, e.direction))
            }
            order.sort { $0.mid < $1.mid }
            let h = subBottom - subTop
            var winding = 0
            var inside = false
            for e in order {
                winding += e.direction
                let nowInside = rule.contains(winding: winding)
                if nowInside != inside {
                    deposit(xTop: e.xTop, xBottom: e.xBottom, height: h, sign: nowInside ? 1 : -1)
                    inside = nowInside
                    deposited = true
                }
            }
            subTop = subBottom
        }
        return deposited
    }

    /// Adds `sign` × (area to the right of the segment, inside each cell of the band) as
    /// differences: after a running sum, cell c holds that area for c to the right of the segment
    /// in full and the exact partial area in the cells it passes through.
    @inline(__always)
    private mutating func deposit(xTop: Double, xBottom: Double, height h: Double, sign: Double) {
        let w = Double(width)
        let lo = min(xTop, xBottom), hi = max(xTop, xBottom)
        if hi <= 0 {
            accumulator[0] += sign * h
            return
        }
        if lo >= w { return }
        accumulator.withUnsafeMutableBufferPointer { acc in
            if hi == lo {
                let c = Int(lo.rounded(.down))
                let inCell = lo - Double(c)
                acc[c] += sign * h * (1 - inCell)
                acc[c + 1] += sign * h * inCell
                return
            }
            let scale = h / (hi - lo)
            var a = lo
            if a < 0 {
                // The part left of the bitmap covers every cell from column 0 on.
                acc[0] += sign * (-a) * scale
                a = 0
            }
            let end = min(hi, w)
            var c = Int(a.rounded(.down))
            while a < end {
                let b = min(Double(c + 1), end)
                let pieceHeight = (b - a) * scale
                let inCell = (a + b) * 0.5 - Double(c)
                acc[c] += sign * pieceHeight * (1 - inCell)
                acc[c + 1] += sign * pieceHeight * inCell
                a = b
                c += 1
            }
        }
    }

    private mutating func flushRow(_ row: Int, into values: inout [Float]) {
        let base = row * width
        let w = width
        accumulator.withUnsafeMutableBufferPointer { acc in
            values.withUnsafeMutableBufferPointer { out in
                var sum = 0.0
                for x in 0..<w {
                    sum += acc[x]
                    acc[x] = 0
                    // Rounding can leave values a hair outside [0, 1].
                    out[base + x] = Float(min(max(sum, 0), 1))
                }
                acc[w] = 0
                acc[w + 1] = 0
            }
        }
    }
}
