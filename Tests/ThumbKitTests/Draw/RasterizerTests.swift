import Testing
import Foundation
import ThumbKit
import TestSupport

/// Exactness of the coverage rasterizer against independent Double references.
@Suite struct RasterizerTests {
    static let tolerance = 1.0 / 255

    @Test func unitSquareCoversOnePixel() {
        let mask = CoverageMask(path: .rectangle(x: 1, y: 1, width: 1, height: 1), width: 3, height: 3)
        #expect(mask.values == [0, 0, 0, 0, 1, 0, 0, 0, 0])
    }

    @Test func halfPixelRectangleHasHalfCoverage() {
        let mask = CoverageMask(path: .rectangle(x: 0.5, y: 0, width: 2, height: 1), width: 3, height: 1)
        #expect(mask.values == [0.5, 1, 0.5])
    }

    @Test func bothWindingDirectionsFillTheSame() {
        let cw = Path(polygons: [[Point(x: 0.3, y: 0.2), Point(x: 4.7, y: 1.1), Point(x: 2.2, y: 3.9)]])
        let ccw = Path(polygons: [cw.contours[0].reversed()])
        for rule in [Path.FillRule.nonZero, .evenOdd] {
            #expect(CoverageMask(path: cw, width: 5, height: 4, rule: rule)
                == CoverageMask(path: ccw, width: 5, height: 4, rule: rule))
        }
    }

    @Test func overlappingSquaresDifferByRule() {
        // Two same-direction squares, one inside the other: non-zero fills the hole, even-odd not.
        let path = Path(polygons: [
            [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 4), Point(x: 0, y: 4)],
            [Point(x: 1, y: 1), Point(x: 3, y: 1), Point(x: 3, y: 3), Point(x: 1, y: 3)],
        ])
        #expect(CoverageMask(path: path, width: 4, height: 4, rule: .nonZero)[1, 1] == 1)
        #expect(CoverageMask(path: path, width: 4, height: 4, rule: .evenOdd)[1, 1] == 0)
        #expect(CoverageMask(path: path, width: 4, height: 4, rule: .evenOdd)[0, 1] == 1)
    }

    @Test func pentagramCentreDependsOnRule() {
        // The five-point chord star {5/2}: winding 2 in the centre pentagon.
        let vertices = (0..<5).map { k -> Point in
            let theta = (-90 + 144 * Double(k)) * Double.pi / 180
            return Point(x: 20 + 18 * cos(theta), y: 20 + 18 * sin(theta))
        }
        let path = Path(polygons: [vertices])
        for rule in [Path.FillRule.nonZero, .evenOdd] {
            let mask = CoverageMask(path: path, width: 40, height: 40, rule: rule)
            let error = ReferenceCoverage(path, rule: rule).maxError(against: mask)
            #expect(error < Self.tolerance)
            #expect(mask[20, 20] == (rule == .nonZero ? 1 : 0))
        }
    }

    @Test(arguments: [4.0, 5.5, 8, 11.3, 16, 24, 32, 47.9])
    func starsMatchReference(radius: Double) {
        var rng = SeededGenerator(seed: UInt64(radius * 1000))
        for _ in 0..<6 {
            let star = StarGeometry(cx: rng.uniform(radius - 2, radius + 4), cy: rng.uniform(radius - 2, radius + 4),
                                    outerRadius: radius)
            let size = Int(2 * radius) + 6
            for rule in [Path.FillRule.nonZero, .evenOdd] {
                let mask = CoverageMask(path: star.path, width: size, height: size, rule: rule)
                var worst = 0.0
                for y in 0..<size {
                    for x in 0..<size {
                        worst = max(worst, abs(Double(mask[x, y]) - clippedArea(star.vertices, x: x, y: y)))
                    }
                }
                #expect(worst < Self.tolerance, "star R=\(radius) \(rule): max error \(worst)")
                #expect(ReferenceCoverage(star.path, rule: rule).maxError(against: mask) < Self.tolerance)
            }
        }
    }

    /// A few hundred seeded random polygons, many self-intersecting, partly off the canvas, some on
    /// a half-pixel lattice (edges along pixel boundaries, shared vertices, horizontal edges).
    @Test(arguments: 0..<4)
    func randomPolygonsMatchReference(batch: Int) {
        var rng = SeededGenerator(seed: 0x5eed_0000 + UInt64(batch))
        var worst = 0.0
        for index in 0..<75 {
            let contourCount = index % 5 == 0 ? 2 : 1
            var contours: [[Point]] = []
            for _ in 0..<contourCount {
                let n = 3 + Int(rng.next() % 10)
                let lattice = index % 4 == 3
                contours.append((0..<n).map { _ in
                    var x = rng.uniform(-3, 23), y = rng.uniform(-3, 23)
                    if lattice { x = (x * 2).rounded() / 2; y = (y * 2).rounded() / 2 }
                    return Point(x: x, y: y)
                })
            }
            let path = Path(polygons: contours)
            for rule in [Path.FillRule.nonZero, .evenOdd] {
                let mask = CoverageMask(path: path, width: 20, height: 20, rule: rule)
                let error = ReferenceCoverage(path, rule: rule).maxError(against: mask)
                worst = max(worst, error)
                #expect(error < Self.tolerance, "batch \(batch) polygon \(index) \(rule): \(error)")
            }
        }
        print("random polygons batch \(batch): max coverage error \(worst)")
    }

    @Test func geometryFarOffCanvasIsClipped() {
        let path = Path.rectangle(x: -1e6, y: 2.5, width: 1e6 + 1.25, height: 1e6)
        let mask = CoverageMask(path: path, width: 4, height: 4)
        #expect(mask[0, 1] == 0)
        #expect(mask[0, 2] == 0.5)
        #expect(mask[1, 2] == 0.125)
        #expect(mask[0, 3] == 1)
        #expect(mask[2, 3] == 0)
        // Far beyond Int range: ignored without trapping.
        #expect(CoverageMask(path: .rectangle(x: 0, y: 1e300, width: 4, height: 1), width: 4, height: 4).values.allSatisfy { $0 == 0 })
        #expect(CoverageMask(path: .rectangle(x: -1e300, y: 0, width: 1e300, height: 4), width: 4, height: 4).values.allSatisfy { $0 == 0 })
    }
}
