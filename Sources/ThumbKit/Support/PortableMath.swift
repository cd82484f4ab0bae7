/// The transcendental functions thumbgen's pixels depend on, computed by thumbgen itself so that
/// they give the same bits on every platform and CPU.
///
/// The platform's `sin`, `exp` or `pow` may differ by an ulp between glibc versions, macOS and
/// musl, and an ulp in a filter weight or a corner point is enough to move a pixel by a level. These
/// use only `+ − × ÷`, `squareRoot()` (all correctly rounded by IEEE 754) and exact operations
/// (scaling by powers of two, `rounded()`), each in a fixed order; Swift does not fuse
/// multiplies and adds unless asked (`FMA` contraction is off), so the result is the same
/// everywhere. Accuracy is within a few ulps, far below what a pixel can show.
package enum PortableMath {
    /// sin(πx). Exact at multiples of ½ (0, ±1) and of ¼ (±√½, rounded).
    package static func sinpi(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (quarter, r) = quarterTurns(x)
        switch quarter {
        case 0: return sinpiReduced(r)
        case 1: return cospiReduced(r)
        case 2: return -sinpiReduced(r)
        default: return -cospiReduced(r)
        }
    }

    /// cos(πx). Exact at multiples of ½ (0, ±1) and of ¼ (±√½, rounded).
    package static func cospi(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (quarter, r) = quarterTurns(x)
        switch quarter {
        case 0: return cospiReduced(r)
        case 1: return -sinpiReduced(r)
        case 2: return -cospiReduced(r)
        default: return sinpiReduced(r)
        }
    }

    /// x = n/2 + r with |r| ≤ ¼, both steps exact (n/2 is a multiple of ½ within x's exponent
    /// range, so the subtraction is exact), and n mod 4, the quarter turn x is in. n mod 4 comes
    /// from the whole number's bits rather than from `fmod`, which the resampler's filter weights
    /// would call four times a tap; a whole number of 2⁵⁴ or more is a multiple of 4 (its ulp is
    /// at least 4).
    private static func quarterTurns(_ x: Double) -> (quarter: Int, r: Double) {
        let n = (2 * x).rounded()
        let quarter = abs(n) < 0x1p54 ? Int(n) & 3 : 0
        return (quarter, x - n / 2)
    }

    /// √½ correctly rounded: sin(π/4) and cos(π/4).
    static let halfRoot2 = 0.7071067811865476

    /// sin(πr) for |r| ≤ ¼: the Taylor series of sin in t = πr to t¹⁹ (the first term left out is
    /// below 2⁻⁶⁰ of the result at t = π/4), summed by Horner's rule from the smallest term.
    static func sinpiReduced(_ r: Double) -> Double {
        if r == 0.25 { return halfRoot2 }
        if r == -0.25 { return -halfRoot2 }
        let t = Double.pi * r
        let t2 = t * t
        var sum = sinCoefficients[sinCoefficients.count - 1]
        for k in stride(from: sinCoefficients.count - 2, through: 0, by: -1) { sum = sum * t2 + sinCoefficients[k] }
        return t * sum
    }

    /// cos(πr) for |r| ≤ ¼: the Taylor series of cos in t = πr to t²⁰.
    static func cospiReduced(_ r: Double) -> Double {
        if r == 0.25 || r == -0.25 { return halfRoot2 }
        let t = Double.pi * r
        let t2 = t * t
        var sum = cosCoefficients[cosCoefficients.count - 1]
        for k in stride(from: cosCoefficients.count - 2, through: 0, by: -1) { sum = sum * t2 + cosCoefficients[k] }
        return sum
    }

    /// (−1)ᵏ/(2k+1)!, k = 0…9.
    static let sinCoefficients: [Double] = (0..<10).map { k in
        (k % 2 == 0 ? 1 : -1) / factorial(2 * k + 1)
    }
    /// (−1)ᵏ/(2k)!, k = 0…10.
    static let cosCoefficients: [Double] = (0...10).map { k in
        (k % 2 == 0 ? 1 : -1) / factorial(2 * k)
    }

    /// n! as a Double; exact up to 22!, and rounded once above (only 1/n! is used).
    static func factorial(_ n: Int) -> Double {
        var product = 1.0
        if n > 1 { for k in 2...n { product *= Double(k) } }
        return product
    }

    /// eˣ. Exact at 0.
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.8 { return .infinity }
        if x < -745.2 { return 0 }
        // x = k·ln 2 + r with |r| ≤ ln2/2: ln 2 in two parts (Cody and Waite), the first with
        // its low 32 bits zero so that k·ln2High is exact for any k in range.
        let ln2High = 0.6931471803691238   // 0x3FE62E42FEE00000
        let ln2Low = 1.9082149292705877e-10
        let k = (x / 0.6931471805599453).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        // Taylor series of eʳ to r¹⁶ (|r| ≤ 0.347: the first term left out is below 2⁻⁶⁰).
        var sum = 1.0 / factorial(16)
        for n in stride(from: 15, through: 0, by: -1) { sum = sum * r + 1 / factorial(n) }
        // Scale by 2ᵏ in two exact steps, so that results near the subnormal range are not
        // rounded twice more than once.
        let half = Int(k) / 2
        return sum * Double(sign: .plus, exponent: half, significand: 1) * Double(sign: .plus, exponent: Int(k) - half, significand: 1)
    }

    /// The complementary error function erfc(x) = 1 − erf(x).
    package static func erfc(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return 2 - erfc(-x) }
        if x < 2 {
            // erf(x) = 2/√π Σ (−1)ⁿ x²ⁿ⁺¹ / (n! (2n+1)), summed until the terms no longer count
            // (at most 60 terms below 2: the n-th term is below 4ⁿ/n!).
            var term = x
            var sum = x
            var n = 0
            while n < 60 {
                n += 1
                term *= -(x * x) / Double(n)
                let next = term / Double(2 * n + 1)
                if abs(next) < 1e-17 * abs(sum) { break }
                sum += next
            }
            return 1 - sum * twoOverRootPi
        }
        // Laplace's continued fraction erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …)))),
        // evaluated from its 60th level up (for x ≥ 2 its error is then below 2⁻⁵⁵).
        var fraction = x
        for level in stride(from: 60, through: 1, by: -1) { fraction = x + (Double(level) / 2) / fraction }
        return exp(-x * x) / rootPi / fraction
    }

    /// 2/√π and √π, correctly rounded.
    static let twoOverRootPi = 1.1283791670955126
    static let rootPi = 1.7724538509055159
}
