import Foundation
import Testing
@testable import ThumbKit

/// The shapes icons are cut to: continuous-corner rectangles (the macOS body) and circles.
@Suite struct IconShapeTests {
    /// A point on the cubic Bézier at t.
    static func cubic(_ p: [Point], _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(x: a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x, y: a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y)
    }

    /// Distance from a point to a segment.
    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return (x * x + y * y).squareRoot()
    }

    @Test func flattenedCubicStaysWithinTolerance() {
        let control = [Point(x: 0, y: 0), Point(x: 80, y: 0), Point(x: 150, y: 40), Point(x: 185, y: 120)]
        let chords = Path.flattenCubic(from: control[0], control[1], control[2], control[3])
        #expect(chords.first == control[0] && chords.last == control[3])
        for k in 0...2000 {
            let p = Self.cubic(control, Double(k) / 2000)
            let nearest = zip(chords, chords.dropFirst()).map { Self.distance(p, $0, $1) }.min()!
            #expect(nearest <= Path.arcTolerance, "t = \(Double(k) / 2000): \(nearest)")
        }
    }

    @Test func continuousBodyIsSymmetricAndStraightBetweenItsCorners() {
        let k = 0.25   // the 256 px icon
        let body = Path.continuousRoundedRectangle(x: 100 * k, y: 100 * k, width: 824 * k, height: 824 * k, radius: 185.4 * k)
        let mask = CoverageMask(path: body, width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                #expect(abs(mask[x, y] - mask[255 - x, y]) < 1e-5 && abs(mask[x, y] - mask[y, x]) < 1e-5, "(\(x), \(y))")
            }
        }
        // The straight top edge runs from 1.5287 radii in from each corner: whole pixels there.
        let reach = 100 * k + Path.continuousCornerReach * 185.4 * k
        #expect(mask[Int(reach.rounded(.up)), 25] == 1 && mask[Int(reach.rounded(.up)), 24] == 0)
        // A continuous corner bulges less than a circular one of the same radius.
        let circular = CoverageMask(path: .roundedRectangle(x: 25, y: 25, width: 206, height: 206, radius: 185.4 * k), width: 256, height: 256)
        #expect(mask.values.reduce(0, +) < circular.values.reduce(0, +))
    }

    @Test func circleCoversItsArea() {
        let mask = CoverageMask(path: .circle(cx: 50, cy: 50, radius: 33), width: 100, height: 100)
        let area = Double(mask.values.reduce(0, +))
        // Chords lie inside the circle, each within `arcTolerance` of it: the area is short by less
        // than the perimeter times the tolerance.
        #expect(area < Double.pi * 33 * 33 && Double.pi * 33 * 33 - area < 2 * Double.pi * 33 * Path.arcTolerance, "\(area)")
        #expect(mask[50, 50] == 1 && mask[50, 16] == 0 && mask[50, 17] > 0)
    }
}
