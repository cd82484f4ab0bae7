import Foundation
import Testing
import TestSupport
@testable import ThumbKit

/// thumbgen's own transcendental functions: exact where a closed form exists, within a few ulps of
/// the platform's elsewhere (the platform is the reference here, never in the pixels).
@Suite struct PortableMathTests {
    @Test func sinpiAndCospiAreExactAtHalvesAndQuarters() {
        for n in -16...16 {
            let x = Double(n) / 2
            let expectedSin: Double = [0, 1, 0, -1][((n % 4) + 4) % 4]
            let expectedCos: Double = [1, 0, -1, 0][((n % 4) + 4) % 4]
            #expect(PortableMath.sinpi(x) == expectedSin, "sinpi(\(x))")
            #expect(PortableMath.cospi(x) == expectedCos, "cospi(\(x))")
            #expect(abs(PortableMath.sinpi(x + 0.25)) == 0.5.squareRoot())
            #expect(abs(PortableMath.cospi(x + 0.25)) == 0.5.squareRoot())
        }
    }

    @Test func sinpiAndCospiAreWithinTwoUlps() {
        var generator = SeededGenerator(seed: 28)
        for _ in 0..<20_000 {
            let x = Double.random(in: -8...8, using: &generator)
            // A reference from the platform in a form that is exact for |r| ≤ ¼ after reduction
            // would need the same reduction; two ulps of the larger of the result and 2⁻⁵⁰ covers
            // both the reference's error and ours.
            let sinError = abs(PortableMath.sinpi(x) - Foundation.sin(Double.pi * x))
            let cosError = abs(PortableMath.cospi(x) - Foundation.cos(Double.pi * x))
            // π·x itself is rounded (an error up to |πx|·2⁻⁵³ in the platform's argument).
            let allowance = 4 * abs(Double.pi * x) * Double.ulpOfOne + 2 * Double.ulpOfOne
            #expect(sinError <= allowance, "sinpi(\(x))")
            #expect(cosError <= allowance, "cospi(\(x))")
        }
    }

    /// The filter weights, and so the pixels, hang on sinpi's exact bits. The quarter turn taken
    /// from the whole number's bits must give the bits of the plain form, which takes it by `fmod`
    /// and sums each series term by term.
    @Test func sinpiAndCospiGiveThePlainFormsBits() {
        func series(_ r: Double, odd: Bool) -> Double {
            if abs(r) == 0.25 { return odd && r < 0 ? -PortableMath.halfRoot2 : PortableMath.halfRoot2 }
            let t = Double.pi * r
            let coefficients = (0...(odd ? 9 : 10)).map { k in
                (k % 2 == 0 ? 1 : -1) / PortableMath.factorial(odd ? 2 * k + 1 : 2 * k)
            }
            var sum = coefficients[coefficients.count - 1]
            for k in stride(from: coefficients.count - 2, through: 0, by: -1) { sum = sum * (t * t) + coefficients[k] }
            return odd ? t * sum : sum
        }
        func plain(_ x: Double, cosine: Bool) -> Double {
            let n = (2 * x).rounded()
            let r = x - n / 2
            let quarter = Int((n.truncatingRemainder(dividingBy: 4) + 4).truncatingRemainder(dividingBy: 4)) + (cosine ? 1 : 0)
            let value = series(r, odd: quarter % 2 == 0)
            return quarter % 4 < 2 ? value : -value
        }
        var generator = SeededGenerator(seed: 2929)
        var samples = (0..<50_000).map { _ in Double.random(in: -9...9, using: &generator) }
        samples += (-40...40).map { Double($0) / 4 }
        let large: [Double] = [0x1p52, 0x1p52 + 1, 0x1p53 - 1, 0x1p53, 0x1p54, 0x1p62, 0x1p52 + 3, 1e300]
        samples += large + large.map { -$0 }
        for x in samples {
            #expect(PortableMath.sinpi(x).bitPattern == plain(x, cosine: false).bitPattern, "sinpi(\(x))")
            #expect(PortableMath.cospi(x).bitPattern == plain(x, cosine: true).bitPattern, "cospi(\(x))")
        }
        #expect(PortableMath.cospi(0x1p52 + 1) == -1)
        #expect(PortableMath.cospi(0x1p53 - 1) == -1)
        #expect(PortableMath.cospi(0x1p62) == 1)
    }

    @Test func expAndErfcAgreeWithThePlatform() {
        var generator = SeededGenerator(seed: 2828)
        #expect(PortableMath.exp(0) == 1)
        for _ in 0..<20_000 {
            let x = Double.random(in: -40...40, using: &generator)
            let reference = Foundation.exp(x)
            #expect(abs(PortableMath.exp(x) - reference) <= 4 * reference.ulp, "exp(\(x))")
        }
        for _ in 0..<20_000 {
            let x = Double.random(in: -6...6, using: &generator)
            let reference = Foundation.erfc(x)
            // The series below 2 cancels (erfc(2) is 0.005 of 1 − erf) and the fraction's e^(−x²)
            // is relatively accurate to x² ulps: 1e-12 relative, far below a pixel's level.
            #expect(abs(PortableMath.erfc(x) - reference) <= 1e-12 * reference, "erfc(\(x))")
        }
    }

    /// A corner's arc needs the same chords as the closed form (acos) asks for, except where the
    /// closed form is within rounding of a whole number.
    @Test func arcSegmentsMatchTheClosedForm() {
        for radius in stride(from: 0.5, through: 400, by: 0.37) {
            for halfTurns in [0.5, 2.0] {
                let closed = 2 * Foundation.acos(1 - Path.arcTolerance / radius)
                let exact = halfTurns * Double.pi / closed
                let n = Path.arcSegments(radius: radius, halfTurns: halfTurns)
                if radius <= Path.arcTolerance { #expect(n == 1); continue }
                if abs(exact - exact.rounded()) > 1e-9 { #expect(n == max(1, Int(exact.rounded(.up))), "r \(radius)") }
            }
        }
    }
}
