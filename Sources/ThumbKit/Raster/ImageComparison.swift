import Glibc

/// How two images differ, sample by sample at 8 bits per channel (straight RGBA, as `rgba8`):
/// the measure a golden test accepts or rejects an output by.
///
/// ```swift
/// let comparison = ImageComparison(actual, golden)
/// if comparison.maximumDifference > 1 { print(comparison.summary) }   // "12 pixels differ, …"
/// ```
public struct ImageComparison: Sendable, Equatable {
    /// The two sizes, `width`×`height` of each.
    public let actualSize: (width: Int, height: Int)
    public let expectedSize: (width: Int, height: Int)
    /// Pixels with any channel different; every pixel of the larger image when the sizes differ.
    public let differingPixels: Int
    /// The largest difference of one channel of one pixel, 0…255 (255 when the sizes differ).
    public let maximumDifference: Int
    /// Peak signal-to-noise ratio over all channels in decibels, 10·log₁₀(255²/MSE): +∞ for equal
    /// images, 0 when the sizes differ. Computed for the report only, never for pixels.
    public let psnr: Double
    private let actual: Image
    private let expected: Image

    /// Compares `actual` with `expected` (the golden).
    public init(_ actual: Image, _ expected: Image) {
        self.actual = actual.converted8()
        self.expected = expected.converted8()
        actualSize = (actual.width, actual.height)
        expectedSize = (expected.width, expected.height)
        guard actual.width == expected.width && actual.height == expected.height else {
            differingPixels = max(actual.width * actual.height, expected.width * expected.height)
            maximumDifference = 255
            psnr = 0
            return
        }
        let a = self.actual.rgba8, e = self.expected.rgba8
        var differing = 0, maximum = 0
        var squares: UInt64 = 0
        for pixel in 0..<(a.count / 4) {
            var pixelMaximum = 0
            for channel in 0..<4 {
                let d = abs(Int(a[4 * pixel + channel]) - Int(e[4 * pixel + channel]))
                pixelMaximum = max(pixelMaximum, d)
                squares += UInt64(d * d)
            }
            if pixelMaximum > 0 { differing += 1 }
            maximum = max(maximum, pixelMaximum)
        }
        differingPixels = differing
        maximumDifference = maximum
        psnr = squares == 0 ? .infinity : 10 * log10(255.0 * 255.0 * Double(a.count) / Double(squares))
    }

    /// True when both images have the same width and height.
    public var sameSize: Bool { actualSize == expectedSize }

    /// True when no sample differs.
    public var isIdentical: Bool { sameSize && differingPixels == 0 }

    /// True when the sizes agree and no channel differs by more than `tolerance` levels.
    public func matches(tolerance: Int) -> Bool { sameSize && maximumDifference <= tolerance }

    /// One line: "identical", "size differs (40x30, golden 40x31)" or "12 pixels differ, maximum
    /// difference 3, PSNR 51.2 dB".
    public var summary: String {
        if !sameSize {
            return "size differs (\(actualSize.width)x\(actualSize.height), golden \(expectedSize.width)x\(expectedSize.height))"
        }
        if differingPixels == 0 { return "identical" }
        let decibels = (psnr * 10).rounded() / 10
        return "\(differingPixels) pixel\(differingPixels == 1 ? "" : "s") differ\(differingPixels == 1 ? "s" : ""), maximum difference \(maximumDifference), PSNR \(decibels) dB"
    }

    /// An opaque picture of where the images differ, the size of `actual`: equal pixels as a faint
    /// grey copy of the golden, differing ones in red, brighter the larger the difference (a
    /// difference of one level is still plainly red). Nil when the sizes differ.
    public func diffImage() -> Image? {
        guard actual.width == expected.width && actual.height == expected.height else { return nil }
        let a = actual.rgba8, e = expected.rgba8
        var out = [UInt8](repeating: 255, count: a.count)
        for pixel in 0..<(a.count / 4) {
            var d = 0
            for channel in 0..<4 { d = max(d, abs(Int(a[4 * pixel + channel]) - Int(e[4 * pixel + channel]))) }
            if d == 0 {
                // Rec. 601 luma of the golden over white by its alpha, faded to a quarter.
                let alpha = Int(e[4 * pixel + 3])
                let luma = (299 * Int(e[4 * pixel]) + 587 * Int(e[4 * pixel + 1]) + 114 * Int(e[4 * pixel + 2])) / 1000
                let over = (luma * alpha + 255 * (255 - alpha)) / 255
                let grey = UInt8(191 + over / 4)
                out[4 * pixel] = grey
                out[4 * pixel + 1] = grey
                out[4 * pixel + 2] = grey
            } else {
                out[4 * pixel] = UInt8(128 + min(127, d * 127 / 32 + 16))
                out[4 * pixel + 1] = 0
                out[4 * pixel + 2] = 0
            }
        }
        return Image(width: actual.width, height: actual.height, rgba8: out)
    }

    public static func == (lhs: ImageComparison, rhs: ImageComparison) -> Bool {
        lhs.actual == rhs.actual && lhs.expected == rhs.expected
    }
}
