import Foundation
@testable import ThumbKit

/// A deliberately slow, independent float64 implementation of thumbgen's resampling convention,
/// written straight from the documented definition (not from `AxisWeights`/`ResampleEngine`):
///
/// - output pixel `i` on an axis mapping `span` source pixels from `origin` onto `n` output pixels
///   is centred at `origin + (i + 0.5)·span/n − 0.5` (source pixel `j` centred at `j`);
/// - the kernel is stretched by `max(span/n, 1)`;
/// - an unscaled axis starting on a whole pixel copies (one tap of weight 1);
/// - taps outside the image are dropped and each axis's weights renormalised to sum to 1;
/// - filtering happens on premultiplied RGBA, in linear light (or on sRGB values), summed over
///   the full 2-D footprint at once (no separable passes, no float32, no ring buffer);
/// - the result is clamped to `0 ≤ c ≤ a ≤ 1`, un-premultiplied and rounded half up in sRGB.
enum ReferenceResampler {
    /// The IEC 61966-2-1 curves, again written out here so the reference does not share code.
    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    static func kernel(_ kernel: ResamplingKernel, _ x: Double) -> (value: Double, support: Double) {
        func sinc(_ t: Double) -> Double { t == 0 ? 1 : sin(.pi * t) / (.pi * t) }
        func cubic(_ t: Double, _ b: Double, _ c: Double) -> Double {
            let t = abs(t)
            if t < 1 { return ((12 - 9 * b - 6 * c) * pow(t, 3) + (-18 + 12 * b + 6 * c) * t * t + 6 - 2 * b) / 6 }
            if t < 2 { return ((-b - 6 * c) * pow(t, 3) + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t + 8 * b + 24 * c) / 6 }
            return 0
        }
        switch kernel {
        case .lanczos3: return (abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0, 3)
        case .lanczos2: return (abs(x) < 2 ? sinc(x) * sinc(x / 2) : 0, 2)
        case .mitchell: return (cubic(x, 1.0 / 3, 1.0 / 3), 2)
        case .catrom: return (cubic(x, 0, 0.5), 2)
        case .bilinear: return (max(0, 1 - abs(x)), 1)
        case .box, .nearest: return (x >= -0.5 && x < 0.5 ? 1 : 0, 0.5)
        }
    }

    /// Every source pixel with its normalised weight for output pixel `i`.
    static func taps(_ i: Int, inputSize: Int, outputSize: Int, origin: Double, span: Double,
                     kernel k: ResamplingKernel) -> [(index: Int, weight: Double)] {
        let scale = span / Double(outputSize)
        let centre = origin + (Double(i) + 0.5) * scale - 0.5
        // Documented rule: an unscaled axis on a pixel boundary is a copy, for every kernel (Mitchell
        // would otherwise blur an image it does not resize).
        if scale == 1 && origin == origin.rounded() { return [(Int(centre), 1)] }
        let stretch = max(scale, 1)
        var taps: [(Int, Double)] = []
        for j in 0..<inputSize {
            let w = kernel(k, (Double(j) - centre) / stretch).value
            if w != 0 { taps.append((j, w)) }
        }
        let total = taps.reduce(0) { $0 + $1.1 }
        return taps.map { ($0.0, $0.1 / total) }
    }

    /// Premultiplied output pixels (`width * height * 4` doubles, unclamped) in the given light.
    static func premultiplied(_ image: Image, width: Int, height: Int, region: Rect? = nil,
                              kernel: ResamplingKernel = .lanczos3, light: Bitmap.LightEncoding = .linear) -> [Double] {
        let region = region ?? Rect(width: image.width, height: image.height)
        let (samples, maxValue): ([Double], Double) = switch image.samples {
        case .eight(let s): (s.map(Double.init), 255)
        case .sixteen(let s): (s.map(Double.init), 65535)
        }
        var source = [Double](repeating: 0, count: samples.count)
        for p in stride(from: 0, to: samples.count, by: 4) {
            let a = samples[p + 3] / maxValue
            for c in 0..<3 {
                let v = samples[p + c] / maxValue
                source[p + c] = (light == .linear ? decode(v) : v) * a
            }
            source[p + 3] = a
        }
        let columns = (0..<width).map { taps($0, inputSize: image.width, outputSize: width, origin: region.x,
                                            span: region.width, kernel: kernel) }
        let rows = (0..<height).map { taps($0, inputSize: image.height, outputSize: height, origin: region.y,
                                          span: region.height, kernel: kernel) }
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var sum = [0.0, 0.0, 0.0, 0.0]
                for (sy, wy) in rows[y] {
                    for (sx, wx) in columns[x] {
                        let p = (sy * image.width + sx) * 4
                        for c in 0..<4 { sum[c] += wy * wx * source[p + c] }
                    }
                }
                for c in 0..<4 { out[(y * width + x) * 4 + c] = sum[c] }
            }
        }
        return out
    }

    /// Straight 8-bit sRGB output, as `Image(bitmap)` would produce from an exact result.
    static func bytes(_ image: Image, width: Int, height: Int, region: Rect? = nil,
                      kernel: ResamplingKernel = .lanczos3, light: Bitmap.LightEncoding = .linear) -> [UInt8] {
        let p = premultiplied(image, width: width, height: height, region: region, kernel: kernel, light: light)
        func round255(_ v: Double) -> UInt8 { UInt8(min(max((v * 255 + 0.5).rounded(.down), 0), 255)) }
        var out = [UInt8](repeating: 0, count: p.count)
        for i in stride(from: 0, to: p.count, by: 4) {
            let a = min(max(p[i + 3], 0), 1)
            let alpha = round255(a)
            if alpha == 0 { continue }
            for c in 0..<3 {
                let straight = min(max(p[i + c] / a, 0), 1)
                out[i + c] = round255(light == .linear ? encode(straight) : straight)
            }
            out[i + 3] = alpha
        }
        return out
    }
}
