import CSRGBTables
import Glibc

/// The sRGB transfer function of IEC 61966-2-1 (the piecewise curve, not a 2.2 power), and exact
/// conversions between 8- or 16-bit sRGB samples and linear light.
///
/// The tables pixels are converted with are constants (`CSRGBTables`, written by
/// Scripts/make-srgb-tables.py in 40-digit arithmetic and rounded once), not computed with the
/// platform's `pow`, which differs by an ulp between C libraries; `decode` and `encode` are the
/// curve in double precision, for tests and for colours that are not pixels.
package enum SRGB {
    /// sRGB-encoded value in [0, 1] to linear light in [0, 1].
    package static func decode(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear light in [0, 1] to the sRGB-encoded value in [0, 1].
    package static func encode(_ v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// Linear light of every 8-bit sRGB code.
    static let linearFromByte = Array(UnsafeBufferPointer(start: tg_srgb_linear_from_byte, count: 256))

    /// Linear light of every 16-bit sRGB code (copied on first use: 256 KiB).
    static let linearFromSample16 = Array(UnsafeBufferPointer(start: tg_srgb_linear_from_sample16, count: 65536))

    /// `byteThresholds[k]` is the linear value halfway (in sRGB space) between codes k and k+1:
    /// a linear value rounds to code k+1 exactly when it is at or above that threshold, so counting
    /// thresholds gives the correctly rounded code without evaluating the curve per pixel.
    static let byteThresholds = Array(UnsafeBufferPointer(start: tg_srgb_byte_thresholds, count: 255))

    @inline(__always)
    package static func linear(fromByte value: UInt8) -> Float { linearFromByte[Int(value)] }

    @inline(__always)
    package static func linear(fromSample16 value: UInt16) -> Float { linearFromSample16[Int(value)] }

    /// The 8-bit sRGB code nearest (in sRGB space) to a linear value; out-of-range values clamp.
    @inline(__always)
    package static func byte(fromLinear value: Float) -> UInt8 {
        stepThresholds.withUnsafeBufferPointer { thresholds in
            codeAtBinStart.withUnsafeBufferPointer { codes in
                byte(fromLinear: value, thresholds: thresholds, codes: codes)
            }
        }
    }

    /// `byte(fromLinear:)` with its tables (`stepThresholds`, `codeAtBinStart`) already in hand,
    /// for loops over many pixels.
    @inline(__always)
    static func byte(fromLinear value: Float, thresholds: UnsafeBufferPointer<Float>,
                     codes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        guard value > 0 else { return 0 }  // also NaN
        guard value < 1 else { return 255 }
        // Start from the code at the bottom of the value's bin and count the thresholds between
        // there and the value: bins are narrower than the closest two thresholds (1/(255·12.92)
        // apart, near black), so this takes at most one step and equals counting them all.
        // Branch-free: which way the one step goes is unpredictable from pixel to pixel.
        let code = Int(codes[Int(value * Float(binCount))])
        return UInt8(code + (thresholds[code] <= value ? 1 : 0))
    }

    /// `byteThresholds` and one more, +∞ for code 255, so the step needs no bounds test.
    static let stepThresholds: [Float] = byteThresholds + [.infinity]

    /// Bins of [0, 1) for `byte(fromLinear:)`.
    static let binCount = 1 << 14

    /// For each bin, the number of thresholds at or below its lower edge: the code its smallest
    /// value rounds to.
    static let codeAtBinStart: [UInt8] = {
        var codes = [UInt8](repeating: 0, count: binCount)
        var code = 0
        for bin in 0..<binCount {
            let start = Float(bin) / Float(binCount)
            while code < 255 && byteThresholds[code] <= start { code += 1 }
            codes[bin] = UInt8(code)
        }
        return codes
    }()

    /// An sRGB-space value in [0, 1] to its nearest 8-bit code, rounding half up; out-of-range clamps.
    @inline(__always)
    package static func byte(fromEncoded value: Float) -> UInt8 {
        let scaled = (value * 255 + 0.5).rounded(.down)
        return scaled <= 0 ? 0 : (scaled >= 255 ? 255 : UInt8(scaled))
    }
}
