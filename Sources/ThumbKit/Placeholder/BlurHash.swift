/// BlurHash (woltapp/blurhash): a few cosine components of an image in linear light, quantised
/// and written in base 83.
///
/// Follows the reference C encoder (`C/encode.c`) exactly in its definition: for component
/// (i, j), the factor is `norm / (w·h) · Σ cos(π·i·x/w) · cos(π·j·y/h) · linear(pixel)` over every
/// pixel (norm 1 for the DC term, 2 otherwise), with the sRGB curve's linear values; the DC is
/// written as sRGB bytes (4 base-83 digits), the maximum AC magnitude as one digit, each AC
/// component as `floor(signPow(v / max, 0.5) · 9 + 9.5)` per channel (2 digits). Alpha is ignored,
/// as the reference ignores it.
///
/// Determinism: the cosines come from `PortableMath.cospi`, the sRGB curve from thumbgen's
/// generated tables (both identical on every machine), and the sums are in double precision in a
/// fixed order, so a hash never depends on the platform's libm.
public struct BlurHash: Sendable, Hashable {
    /// Components across, 1…9.
    public var xComponents: Int
    /// Components down, 1…9.
    public var yComponents: Int

    /// 4×3, the reference's usual choice (and `--placeholder blurhash`'s default).
    public init(xComponents: Int = 4, yComponents: Int = 3) {
        self.xComponents = xComponents
        self.yComponents = yComponents
    }

    /// The components each way BlurHash can hold (its size digit has 9 × 9 values).
    public static let componentRange = 1...9

    /// The hash of an image's straight RGB (alpha ignored): `1 + 1 + 4 + 2·(x·y − 1)` characters.
    public func hash(of image: Image) -> String {
        precondition(Self.componentRange.contains(xComponents) && Self.componentRange.contains(yComponents))
        let factors = self.factors(of: image)
        return Self.encode(factors, xComponents: xComponents, yComponents: yComponents)
    }

    /// The mean of each channel in linear light (the DC factor), 0…1.
    static func meanLinear(of image: Image) -> (Double, Double, Double) {
        let f = BlurHash(xComponents: 1, yComponents: 1).factors(of: image)
        return (f[0], f[1], f[2])
    }

    /// Factors by component (j major, then i), three channels each: what the hash quantises.
    func factors(of image: Image) -> [Double] {
        let w = image.width, h = image.height
        let linear = (0..<256).map { Double(SRGB.linear(fromByte: UInt8($0))) }
        // cos(π·i·x/w) for each i and x, and cos(π·j·y/h) for each j and y.
        let cosX = (0..<xComponents).map { i in (0..<w).map { x in PortableMath.cospi(Double(i * x) / Double(w)) } }
        let cosY = (0..<yComponents).map { j in (0..<h).map { y in PortableMath.cospi(Double(j * y) / Double(h)) } }
        var sums = [Double](repeating: 0, count: xComponents * yComponents * 3)
        var row = [Double](repeating: 0, count: xComponents * 3)
        let rgba = image.rgba8
        rgba.withUnsafeBufferPointer { pixels in
            for y in 0..<h {
                // Each row's sums per horizontal component first, then weighted by the row's
                // vertical cosines: w·h·x + h·x·y products instead of w·h·x·y.
                for k in row.indices { row[k] = 0 }
                let base = y * w * 4
                for x in 0..<w {
                    let r = linear[Int(pixels[base + x * 4])], g = linear[Int(pixels[base + x * 4 + 1])], b = linear[Int(pixels[base + x * 4 + 2])]
                    for i in 0..<xComponents {
                        let c = cosX[i][x]
                        row[i * 3] += c * r
                        row[i * 3 + 1] += c * g
                        row[i * 3 + 2] += c * b
                    }
                }
                for j in 0..<yComponents {
                    let c = cosY[j][y]
                    for i in 0..<xComponents {
                        let at = (j * xComponents + i) * 3
                        sums[at] += c * row[i * 3]
                        sums[at + 1] += c * row[i * 3 + 1]
                        sums[at + 2] += c * row[i * 3 + 2]
                    }
                }
            }
        }
        for j in 0..<yComponents {
            for i in 0..<xComponents {
                let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(w * h)
                for c in 0..<3 { sums[(j * xComponents + i) * 3 + c] *= scale }
            }
        }
        return sums
    }

    /// The reference's quantisation and base-83 digits.
    static func encode(_ factors: [Double], xComponents: Int, yComponents: Int) -> String {
        var out = ""
        out += base83((xComponents - 1) + (yComponents - 1) * 9, digits: 1)
        let ac = factors.dropFirst(3)
        let maximum: Double
        if !ac.isEmpty {
            let actual = ac.map { abs($0) }.max()!
            // floor(max·166 − 0.5) clamped to 0…82: the reference's quantised maximum.
            let quantised = Int(max(0, min(82, (actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            out += base83(quantised, digits: 1)
        } else {
            maximum = 1
            out += base83(0, digits: 1)
        }
        func sRGBByte(_ v: Double) -> Int { Int(SRGB.byte(fromLinear: Float(max(0, min(1, v))))) }
        out += base83((sRGBByte(factors[0]) << 16) + (sRGBByte(factors[1]) << 8) + sRGBByte(factors[2]), digits: 4)
        func quantise(_ v: Double) -> Int {
            let s = v / maximum
            let signed = s < 0 ? -(-s).squareRoot() : s.squareRoot()
            return Int(max(0, min(18, (signed * 9 + 9.5).rounded(.down))))
        }
        var index = 3
        while index < factors.count {
            out += base83(quantise(factors[index]) * 19 * 19 + quantise(factors[index + 1]) * 19 + quantise(factors[index + 2]), digits: 2)
            index += 3
        }
        return out
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    static func base83(_ value: Int, digits: Int) -> String {
        var out = ""
        var divisor = 1
        for _ in 1..<max(1, digits) { divisor *= 83 }
        for _ in 0..<digits {
            out.append(alphabet[(value / divisor) % 83])
            divisor = max(1, divisor / 83)
        }
        return out
    }
}
