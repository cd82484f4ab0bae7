// The one place where straight 8/16-bit sRGB samples and premultiplied float pixels meet.

extension Bitmap {
    /// Converts decoded samples to premultiplied float pixels in the given light encoding.
    public init(_ image: Image, light: LightEncoding = .linear) {
        var out = [Float](repeating: 0, count: image.width * image.height * 4)
        switch image.samples {
        case .eight(let s):
            for i in stride(from: 0, to: s.count, by: 4) {
                let a = Float(s[i + 3]) / 255
                for c in 0..<3 {
                    let v = light == .linear ? SRGB.linear(fromByte: s[i + c]) : Float(s[i + c]) / 255
                    out[i + c] = v * a
                }
                out[i + 3] = a
            }
        case .sixteen(let s):
            for i in stride(from: 0, to: s.count, by: 4) {
                let a = Float(s[i + 3]) / 65535
                for c in 0..<3 {
                    let v = light == .linear ? SRGB.linear(fromSample16: s[i + c]) : Float(s[i + c]) / 65535
                    out[i + c] = v * a
                }
                out[i + 3] = a
            }
        }
        self.init(width: image.width, height: image.height, light: light, pixels: out)
    }
}

extension Image {
    /// Converts a bitmap to straight 8-bit sRGB samples: un-premultiplies in float, then rounds each
    /// channel to the nearest code (in sRGB space for linear bitmaps). A pixel whose alpha rounds to
    /// 0 becomes (0, 0, 0, 0), so invisible colour never reaches the file.
    public init(_ bitmap: Bitmap) {
        let linear = bitmap.light == .linear
        var out = [UInt8](repeating: 0, count: bitmap.pixels.count)
        // The tables are taken once for the whole bitmap rather than once a sample.
        SRGB.stepThresholds.withUnsafeBufferPointer { thresholds in
            SRGB.codeAtBinStart.withUnsafeBufferPointer { codes in
                bitmap.pixels.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBufferPointer { out in
                        for i in stride(from: 0, to: p.count, by: 4) {
                            let alpha = SRGB.byte(fromEncoded: p[i + 3])
                            if alpha == 0 { continue }
                            let a = p[i + 3]
                            for c in 0..<3 {
                                let straight = min(max(p[i + c] / a, 0), 1)
                                out[i + c] = linear
                                    ? SRGB.byte(fromLinear: straight, thresholds: thresholds, codes: codes)
                                    : SRGB.byte(fromEncoded: straight)
                            }
                            out[i + 3] = alpha
                        }
                    }
                }
            }
        }
        self.init(width: bitmap.width, height: bitmap.height, rgba8: out)
    }
}
