import Foundation
import Testing
import ThumbKit

/// Compositing, clipping and masking on `Canvas`.
@Suite struct CanvasTests {
    /// Exact area of a rounded rectangle (true circular corners) inside pixel (px, py), by the
    /// midpoint rule over 4000 columns of the pixel: each column's covered height is exact, and
    /// the rule's error here is below 1e-5.
    static func roundedRectArea(x px: Int, y py: Int, width: Double, height: Double, radius r: Double) -> Double {
        let n = 4000
        var area = 0.0
        for k in 0..<n {
            let x = Double(px) + (Double(k) + 0.5) / Double(n)
            guard x > 0 && x < width else { continue }
            var top = 0.0, bottom = height
            let dx = x < r ? r - x : (x > width - r ? x - (width - r) : 0)
            if dx > 0 {
                let h = (r * r - dx * dx).squareRoot()
                top = r - h
                bottom = height - r + h
            }
            let covered = min(bottom, Double(py) + 1) - max(top, Double(py))
            if covered > 0 { area += covered / Double(n) }
        }
        return area
    }

    @Test(arguments: [(40, 30, 8.0), (64, 64, 31.5), (300, 200, 90.0), (17, 9, 3.3)])
    func roundedRectangleMaskCornersAreExact(width: Int, height: Int, radius: Double) {
        var canvas = Canvas(width: width, height: height)
        canvas.fill(rect: Rect(width: width, height: height), color: .white)
        canvas.mask(by: .roundedRectangle(x: 0, y: 0, width: Double(width), height: Double(height), radius: radius))
        let box = Int(radius.rounded(.up)) + 1
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let nearCorner = (x < box || x >= width - box) && (y < box || y >= height - box)
                let alpha = Double(canvas.bitmap[x, y][3])
                if !nearCorner {
                    #expect(alpha == 1)
                    continue
                }
                let exact = Self.roundedRectArea(x: x, y: y, width: Double(width), height: Double(height), radius: radius)
                worst = max(worst, abs(alpha - exact))
            }
        }
        print("rounded rect \(width)x\(height) r=\(radius): max corner error \(worst)")
        #expect(worst < 1.0 / 255)
    }

    @Test func fillCompositesSourceOverByCoverage() {
        var canvas = Canvas(width: 2, height: 1, light: .sRGB)
        canvas.fill(rect: Rect(width: 2, height: 1), color: Color(red: 0, green: 0, blue: 255))
        canvas.fill(rect: Rect(x: 0, y: 0, width: 1.5, height: 1), color: Color(red: 255, green: 0, blue: 0, alpha: 128))
        let a = Float(128) / 255
        let p0 = canvas.bitmap[0, 0], p1 = canvas.bitmap[1, 0]
        #expect(abs(p0[0] - a) < 1e-6 && abs(p0[2] - (1 - a)) < 1e-6 && p0[3] == 1)
        #expect(abs(p1[0] - a / 2) < 1e-6 && abs(p1[2] - (1 - a / 2)) < 1e-6 && p1[3] == 1)
    }

    @Test func clipRestrictsLaterDrawing() {
        var canvas = Canvas(width: 4, height: 1, light: .sRGB)
        canvas.clip(to: .rectangle(x: 0, y: 0, width: 2.5, height: 1))
        canvas.fill(rect: Rect(width: 4, height: 1), color: .white)
        #expect(canvas.bitmap.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element) == [1, 1, 0.5, 0])
        canvas.resetClip()
        canvas.fill(rect: Rect(width: 4, height: 1), color: .white)
        #expect(canvas.bitmap[3, 0] == SIMD4(1, 1, 1, 1))
    }

    @Test func disjointRegionsLeaveNoSeam() {
        let left = Path.rectangle(x: 0, y: 0, width: 0.5, height: 1)
        let right = Path.rectangle(x: 0.5, y: 0, width: 0.5, height: 1)
        var canvas = Canvas(width: 1, height: 1, light: .sRGB)
        canvas.fill(regions: [(canvas.coverage(of: left), .white), (canvas.coverage(of: right), .black)])
        #expect(canvas.bitmap[0, 0] == SIMD4(0.5, 0.5, 0.5, 1))
        // Painting the halves one after another conflates them: ¾ alpha, the seam regions avoid.
        var sequential = Canvas(width: 1, height: 1, light: .sRGB)
        sequential.fill(.rectangle(x: 0, y: 0, width: 1, height: 0.5), color: .white)
        sequential.fill(.rectangle(x: 0, y: 0, width: 0.5, height: 1), color: .white)
        #expect(sequential.bitmap[0, 0][3] == 0.75)
    }

    @Test func drawCompositesBitmapAtOffsetAndCrops() {
        var sprite = Bitmap(width: 2, height: 2, light: .linear)
        sprite.fill(Color(red: 255, green: 255, blue: 255, alpha: 51))
        var canvas = Canvas(width: 3, height: 3)
        canvas.fill(rect: Rect(width: 3, height: 3), color: .black)
        canvas.draw(sprite, at: 2, y: -1)
        let a = Float(51) / 255
        #expect(canvas.bitmap[2, 0] == SIMD4(a, a, a, 1))
        #expect(canvas.bitmap[2, 1] == SIMD4(0, 0, 0, 1))
        #expect(canvas.bitmap[1, 0] == SIMD4(0, 0, 0, 1))
    }

    @Test func flattenMakesEveryPixelOpaque() {
        var canvas = Canvas(width: 2, height: 1, light: .sRGB)
        canvas.fill(rect: Rect(x: 0, y: 0, width: 1, height: 1), color: Color(red: 0, green: 0, blue: 0, alpha: 102))
        canvas.flatten(onto: .white)
        let a = Float(102) / 255
        #expect(abs(canvas.bitmap[0, 0][0] - (1 - a)) < 1e-6 && canvas.bitmap[0, 0][3] == 1)
        #expect(canvas.bitmap[1, 0] == SIMD4(1, 1, 1, 1))
    }
}
