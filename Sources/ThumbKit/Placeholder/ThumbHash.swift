/// ThumbHash (evanw/thumbhash): a small DCT of an image of at most 100×100 pixels in an LPQA
/// colour space, with its aspect ratio and alpha.
///
/// A line-by-line port of `js/thumbhash.js`' `rgbaToThumbHash`: the average colour weighted by
/// alpha; each pixel composited over it and turned into L = (r+g+b)/3, P = (r+g)/2 − b, Q = r − g
/// and A (gamma-encoded values, as the reference works on them); DCT terms
/// `Σ channel · cos(π/w·cx·(x+½)) · cos(π/h·cy·(y+½)) / (w·h)` over the triangle `cx·ny <
/// nx·(ny−cy)`, with nx×ny = 7 (5 with alpha) scaled by the aspect ratio for L (at least 3), 3×3
/// for P and Q, 5×5 for A; a 5-byte header (6 with alpha) and 4-bit AC terms. JavaScript's
/// `Math.round` (halves up) is `floor(v + 0.5)` here.
///
/// The cosines come from `PortableMath.cospi`, so the bytes are the same on every machine.
public enum ThumbHash {
    /// The largest side the encoder takes (the reference refuses larger images).
    public static let maximumSide = 100

    /// The hash bytes of straight RGBA8 pixels, `width`×`height` ≤ 100×100.
    public static func hash(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(w >= 1 && h >= 1 && w <= maximumSide && h <= maximumSide && rgba.count == w * h * 4)
        func round(_ v: Double) -> Int { Int((v + 0.5).rounded(.down)) }
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            avgR += alpha / 255 * Double(rgba[i * 4])
            avgG += alpha / 255 * Double(rgba[i * 4 + 1])
            avgB += alpha / 255 * Double(rgba[i * 4 + 2])
            avgA += alpha
        }
        if avgA > 0 {
            avgR /= avgA
            avgG /= avgA
            avgB /= avgA
        }
        let hasAlpha = avgA < Double(w * h)
        let lLimit = hasAlpha ? 5 : 7
        let lx = max(1, round(Double(lLimit * w) / Double(max(w, h))))
        let ly = max(1, round(Double(lLimit * h) / Double(max(w, h))))
        var l = [Double](repeating: 0, count: w * h), p = l, q = l, a = l
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = avgR * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = avgG * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = avgB * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }

        func encodeChannel(_ channel: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, scale = 0.0
            var ac: [Double] = []
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    // cos(π/w·cx·(x+½)) = cospi(cx·(2x+1) / 2w), exact in its argument.
                    for x in 0..<w { fx[x] = PortableMath.cospi(Double(cx * (2 * x + 1)) / Double(2 * w)) }
                    for y in 0..<h {
                        let fy = PortableMath.cospi(Double(cy * (2 * y + 1)) / Double(2 * h))
                        for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 {
                for i in ac.indices { ac[i] = 0.5 + 0.5 / scale * ac[i] }
            }
            return (dc, ac, scale)
        }
        let lc = encodeChannel(l, max(3, lx), max(3, ly))
        let pc = encodeChannel(p, 3, 3)
        let qc = encodeChannel(q, 3, 3)
        let ac = hasAlpha ? encodeChannel(a, 5, 5) : nil

        let isLandscape = w > h
        let header24 = round(63 * lc.dc) | (round(31.5 + 31.5 * pc.dc) << 6) | (round(31.5 + 31.5 * qc.dc) << 12)
            | (round(31 * lc.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 = (isLandscape ? ly : lx) | (round(63 * pc.scale) << 3) | (round(63 * qc.scale) << 9) | ((isLandscape ? 1 : 0) << 15)
        var hash: [Int] = [header24 & 255, (header24 >> 8) & 255, header24 >> 16, header16 & 255, header16 >> 8]
        let acStart = hasAlpha ? 6 : 5
        var acIndex = 0
        if let ac { hash.append(round(15 * ac.dc) | (round(15 * ac.scale) << 4)) }
        for terms in [lc.ac, pc.ac, qc.ac] + (ac.map { [$0.ac] } ?? []) {
            for f in terms {
                let at = acStart + (acIndex >> 1)
                while hash.count <= at { hash.append(0) }
                hash[at] |= round(15 * f) << ((acIndex & 1) << 2)
                acIndex += 1
            }
        }
        return hash.map { UInt8(truncatingIfNeeded: $0) }
    }
}
