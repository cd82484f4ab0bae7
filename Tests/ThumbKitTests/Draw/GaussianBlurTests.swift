import TestSupport
import Foundation
import Testing
@testable import ThumbKit

/// The drop shadow's blur against independent references: numerical integration of the Gaussian,
/// the closed form of a blurred straight edge, and a brute-force 2D convolution.
@Suite struct GaussianBlurTests {
    /// The Gaussian density of standard deviation `sigma`.
    static func density(_ x: Double, sigma: Double) -> Double {
        exp(-x * x / (2 * sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot())
    }

    /// W(d) = ∫₀¹∫₀¹ g(d + x − y) dx dy, by the midpoint rule on a 400×400 grid: independent of the
    /// closed form the blur uses.
    static func numericWeight(_ d: Double, sigma: Double) -> Double {
        let n = 400
        var total = 0.0
        for i in 0..<n {
            let x = (Double(i) + 0.5) / Double(n)
            for j in 0..<n { total += density(d + x - (Double(j) + 0.5) / Double(n), sigma: sigma) }
        }
        return total / Double(n * n)
    }

    @Test(arguments: [0.3, 1.0, 2.5, 5.0])
    func weightsAreTheGaussianAveragedOverPixelPairs(sigma: Double) {
        let blur = GaussianBlur(sigma: sigma)
        let weights = blur.weights
        #expect(abs(weights.reduce(0, +) - 1) < 1e-12)
        for d in 0...min(blur.radius, 12) {
            #expect(abs(weights[blur.radius + d] - weights[blur.radius - d]) < 1e-13, "symmetric at \(d)")
            #expect(abs(weights[blur.radius + d] - Self.numericWeight(Double(d), sigma: sigma)) < 2e-5, "W(\(d)) at σ \(sigma)")
        }
    }

    /// A half-plane whose edge lies on a pixel boundary is exactly a mask of 1s and 0s; blurred,
    /// pixel i must hold the true edge's blur averaged over the pixel: ∫ᵢ^(i+1) Φ((e − t)/σ) dt.
    @Test(arguments: [0.4, 1.5, 5.0])
    func blurredEdgeMatchesTheClosedForm(sigma: Double) {
        // Wide and tall enough that the blur reaches neither the image's left edge nor its top and
        // bottom from the pixels compared (the half-plane is infinite).
        let width = 240, height = 240, edge = 120
        func cdf(_ t: Double) -> Double { 0.5 * erfc(-t / 2.0.squareRoot()) }
        func integral(_ a: Double, _ b: Double) -> Double {
            // Simpson's rule on Φ((edge − t)/σ), independent of the antiderivative the blur uses.
            let n = 2000, h = (b - a) / Double(n)
            var s = cdf((Double(edge) - a) / sigma) + cdf((Double(edge) - b) / sigma)
            for k in 1..<n { s += (k % 2 == 1 ? 4 : 2) * cdf((Double(edge) - (a + Double(k) * h)) / sigma) }
            return s * h / 3
        }
        // Tall enough that the middle row is as far from the top and bottom as the blur reaches.
        let mask = CoverageMask(width: width, height: height, values: (0..<(width * height)).map { $0 % width < edge ? 1 : 0 })
        let blurred = GaussianBlur(sigma: sigma).blurred(mask)
        for x in (edge - 20)..<(edge + 20) {
            let expected = integral(Double(x), Double(x + 1))
            #expect(abs(Double(blurred[x, 120]) - expected) < 2e-6, "pixel \(x): \(blurred[x, 120]) vs \(expected)")
        }
    }

    /// Against a direct 2D convolution of a random mask with product weights from numerical
    /// integration: separability and edge handling.
    @Test func matchesABruteForceConvolution() {
        let width = 17, height = 13, sigma = 1.3
        var generator = SeededGenerator(seed: 27)
        var values = [Float](repeating: 0, count: width * height)
        for i in values.indices where generator.uniform(0, 1) < 0.3 { values[i] = Float(generator.uniform(0, 1)) }
        let mask = CoverageMask(width: width, height: height, values: values)
        let blurred = GaussianBlur(sigma: sigma).blurred(mask)
        let reach = 10
        let w = (-reach...reach).map { Self.numericWeight(Double($0), sigma: sigma) }
        let total = w.reduce(0, +)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for j in 0..<height where abs(j - y) <= reach {
                    for i in 0..<width where abs(i - x) <= reach {
                        sum += Double(mask[i, j]) * w[x - i + reach] / total * w[y - j + reach] / total
                    }
                }
                #expect(abs(Double(blurred[x, y]) - sum) < 1e-5, "(\(x), \(y))")
            }
        }
    }

    @Test func fullCoverageFarFromTheEdgesStaysFull() {
        let mask = CoverageMask(width: 60, height: 60, value: 1)
        let blur = GaussianBlur(sigma: 3)
        let blurred = blur.blurred(mask)
        #expect(blurred[30, 30] == 1)
        // A corner keeps the weights that fall inside on both axes: (Σ over d ≤ 0 of W(d))².
        let inside = blur.weights[...blur.radius].reduce(0, +)
        #expect(abs(Double(blurred[0, 0]) - inside * inside) < 1e-6)
    }
}
