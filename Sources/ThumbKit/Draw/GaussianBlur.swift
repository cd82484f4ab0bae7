/// An exact Gaussian blur of a coverage mask: what a drop shadow is drawn from.
///
/// A mask is a function that is constant over each pixel square (its coverage). Blurred exactly,
/// it is that function convolved with the continuous Gaussian of standard deviation `sigma`, then
/// averaged over each pixel square again, as every coverage value is an average over its pixel.
/// For one axis, pixel `i` of the result is Σⱼ cⱼ · W(i − j), where W(d) is the Gaussian averaged
/// over two unit intervals `d` apart: W(d) = ∫∫ g(d + x − y) dx dy over [0, 1]², which in closed
/// form is G(d + 1) − 2 G(d) + G(d − 1), G being the second antiderivative of the Gaussian,
/// G(x) = x Φ(x/σ) + σ φ(x/σ) (Φ and φ the standard normal CDF and density). The Gaussian is
/// separable and pixels are squares, so the 2D weights are products of the 1D ones: the blur runs
/// as two passes, rows then columns, in double precision.
///
/// Weights are taken out to `radius` pixels, where the tail left out is below 1e-9 of the total,
/// and renormalised to sum exactly 1, so an area of full coverage stays full. Outside the mask the
/// coverage is 0 (the shape a shadow is blurred from lies inside its canvas).
package struct GaussianBlur: Sendable, Hashable {
    /// Standard deviation in pixels, > 0.
    package let sigma: Double

    package init(sigma: Double) {
        precondition(sigma > 0 && sigma.isFinite, "sigma must be positive")
        self.sigma = sigma
    }

    /// The weights W(d) for d = −radius … radius (index d + radius), summing to 1.
    package var weights: [Double] {
        let radius = self.radius
        var w = (-radius...radius).map { Self.pixelPairWeight(Double($0), sigma: sigma) }
        let total = w.reduce(0, +)
        for i in w.indices { w[i] /= total }
        return w
    }

    /// How many pixels either side the weights reach: where W(d) and everything beyond is below
    /// 1e-9 (6σ for the Gaussian itself, plus the pixel the triangle reaches).
    package var radius: Int { Int((6 * sigma).rounded(.up)) + 1 }

    /// W(d): the Gaussian averaged over two unit intervals `d` apart.
    static func pixelPairWeight(_ d: Double, sigma: Double) -> Double {
        secondAntiderivative(d + 1, sigma: sigma) - 2 * secondAntiderivative(d, sigma: sigma)
            + secondAntiderivative(d - 1, sigma: sigma)
    }

    /// G(x) = x Φ(x/σ) + σ φ(x/σ): G'' is the Gaussian density of standard deviation σ.
    static func secondAntiderivative(_ x: Double, sigma: Double) -> Double {
        let t = x / sigma
        // thumbgen's own erfc and exp: the platform's differ by an ulp between C libraries.
        let cdf = 0.5 * PortableMath.erfc(-t / 2.0.squareRoot())
        let density = PortableMath.exp(-0.5 * t * t) / (2 * Double.pi).squareRoot()
        return x * cdf + sigma * density
    }

    /// The blurred mask, the same size.
    package func blurred(_ mask: CoverageMask) -> CoverageMask {
        let width = mask.width, height = mask.height
        let w = weights, r = radius
        var rows = [Double](repeating: 0, count: width * height)
        w.withUnsafeBufferPointer { w in
            mask.values.withUnsafeBufferPointer { source in
                rows.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        let row = y * width
                        // Only columns a covered pixel reaches get anything.
                        for x in 0..<width where source[row + x] != 0 {
                            let c = Double(source[row + x])
                            for k in max(0, x - r)...min(width - 1, x + r) { out[row + k] += c * w[k - x + r] }
                        }
                    }
                }
            }
        }
        var result = [Float](repeating: 0, count: width * height)
        var column = [Double](repeating: 0, count: height)
        w.withUnsafeBufferPointer { w in
            rows.withUnsafeBufferPointer { rows in
                result.withUnsafeMutableBufferPointer { out in
                    for x in 0..<width {
                        for y in 0..<height { column[y] = 0 }
                        for y in 0..<height where rows[y * width + x] != 0 {
                            let c = rows[y * width + x]
                            for k in max(0, y - r)...min(height - 1, y + r) { column[k] += c * w[k - y + r] }
                        }
                        for y in 0..<height { out[y * width + x] = Float(min(max(column[y], 0), 1)) }
                    }
                }
            }
        }
        return CoverageMask(width: width, height: height, values: result)
    }
}
