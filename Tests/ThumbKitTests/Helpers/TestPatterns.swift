import Foundation
import ThumbKit
import TestSupport

/// Synthetic test images, deterministic (a fixed-seed generator, no system randomness).
enum TestPatterns {
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> Image {
        var s = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                let i = (y * width + x) * 4
                s[i] = r; s[i + 1] = g; s[i + 2] = b; s[i + 3] = a
            }
        }
        return Image(width: width, height: height, rgba8: s)
    }

    static func constant(_ width: Int, _ height: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) -> Image {
        image(width, height) { _, _ in c }
    }

    /// Red rising left to right, green top to bottom, blue along the diagonal; opaque.
    static func gradient(_ width: Int, _ height: Int) -> Image {
        image(width, height) { x, y in
            (UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)),
             UInt8((x + y) * 255 / max(width + height - 2, 1)), 255)
        }
    }

    /// A zone plate: cos(k·r²) rings whose frequency rises to Nyquist at the corners — the classic
    /// aliasing test.
    static func zonePlate(_ size: Int) -> Image {
        image(size, size) { x, y in
            let dx = Double(x) - Double(size) / 2, dy = Double(y) - Double(size) / 2
            let v = 0.5 + 0.5 * cos(Double.pi * (dx * dx + dy * dy) / Double(size))
            let g = UInt8((v * 255).rounded())
            return (g, g, g, 255)
        }
    }

    /// Uniform random colour and alpha in every pixel.
    static func noise(_ width: Int, _ height: Int, seed: UInt64) -> Image {
        var generator = SeededGenerator(seed: seed)
        var s = [UInt8](repeating: 0, count: width * height * 4)
        for i in s.indices { s[i] = UInt8.random(in: 0...255, using: &generator) }
        return Image(width: width, height: height, rgba8: s)
    }

    /// Black and white squares of `cell` pixels.
    static func checkerboard(_ width: Int, _ height: Int, cell: Int) -> Image {
        image(width, height) { x, y in
            let v: UInt8 = (x / cell + y / cell) % 2 == 0 ? 0 : 255
            return (v, v, v, 255)
        }
    }

    /// A 16-bit smooth ramp with varying alpha, using the low bits an 8-bit image would lose.
    static func ramp16(_ width: Int, _ height: Int) -> Image {
        var s = [UInt16](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                s[i] = UInt16(x * 65535 / max(width - 1, 1))
                s[i + 1] = UInt16(1000 + (x * 7 + y * 13) % 3000)
                s[i + 2] = UInt16(y * 65535 / max(height - 1, 1))
                s[i + 3] = UInt16(40000 + (x * 37 + y * 11) % 25000)
            }
        }
        return Image(width: width, height: height, rgba16: s)
    }

    /// The largest per-channel difference between two equally sized 8-bit sample arrays.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count)
        var worst = 0
        for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        return worst
    }
}
