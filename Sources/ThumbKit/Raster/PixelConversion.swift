// The one place where straight 8/16-bit sRGB samples and premultiplied float pixels meet.

/// Straight 8/16-bit sRGB samples to premultiplied float pixels, a run of pixels at a time.
///
/// The one conversion from samples to float: `Bitmap(_:light:)` runs it over a whole image and
/// the resampler over each streamed row, so an unscaled thumbnail is bit-identical to converting
/// the image directly. A pixel is `channel * (alpha / max)`, the channel linearised first for
/// linear light.
enum PremultipliedConversion {
    /// `code / 255` for every 8-bit code: alpha, and colour when filtering sRGB values directly.
    static let encodedFromByte: [Float] = (0..<256).map { Float($0) / 255 }

    /// 768 entries: for each 8-bit code, its colour value in the red lane, then in the green
    /// lane, then in the blue lane with alpha 1; every other lane 0. A pixel is the sum of three
    /// entries (exact: adding zero changes nothing), built and stored as one SIMD4 rather than
    /// four scalar stores, which bounded the resampler's conversion loop.
    private static func laneTable(_ colour: [Float]) -> [SIMD4<Float>] {
        colour.map { SIMD4($0, 0, 0, 0) } + colour.map { SIMD4(0, $0, 0, 0) } + colour.map { SIMD4(0, 0, $0, 1) }
    }

    private static let linearLanes = laneTable(SRGB.linearFromByte)
    private static let encodedLanes = laneTable(encodedFromByte)

    /// Converts pixels `columns` of an 8-bit row (RGBA, or opaque RGB when `channels` is 3) into
    /// `out[columns]`.
    @inline(__always)
    static func convert(_ row: UnsafeBufferPointer<UInt8>, channels: Int, columns: Range<Int>,
                        light: Bitmap.LightEncoding, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let lanes = light == .linear ? linearLanes : encodedLanes
        lanes.withUnsafeBufferPointer { table in
            encodedFromByte.withUnsafeBufferPointer { alpha in
                let red = table.baseAddress!, green = red + 256, blue = red + 512
                if channels == 3 {
                    var i = columns.lowerBound &* 3
                    for x in columns {
                        let colour = red[Int(row[i])] + green[Int(row[i &+ 1])] + blue[Int(row[i &+ 2])]
                        out[x] = colour
                        i &+= 3
                    }
                    return
                }
                var i = columns.lowerBound &* 4
                for x in columns {
                    let colour = red[Int(row[i])] + green[Int(row[i &+ 1])] + blue[Int(row[i &+ 2])]
                    let alphaCode = row[i &+ 3]
                    // Opaque: `colour * 1` is exact, so skipping it changes nothing.
                    let pixel = alphaCode == 255 ? colour : colour * alpha[Int(alphaCode)]
                    out[x] = pixel
                    i &+= 4
                }
            }
        }
    }

    /// The same for a 16-bit row.
    @inline(__always)
    static func convert(_ row: UnsafeBufferPointer<UInt16>, channels: Int, columns: Range<Int>,
                        light: Bitmap.LightEncoding, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let linear = light == .linear
        SRGB.linearFromSample16.withUnsafeBufferPointer { table in
            for x in columns {
                let i = x &* channels
                let a = channels == 4 ? Float(row[i &+ 3]) / 65535 : 1
                let rgb = linear
                    ? SIMD4(table[Int(row[i])], table[Int(row[i &+ 1])], table[Int(row[i &+ 2])], 1)
                    : SIMD4(Float(row[i]) / 65535, Float(row[i &+ 1]) / 65535, Float(row[i &+ 2]) / 65535, 1)
                out[x] = rgb * a
            }
        }
    }
}

extension Bitmap {
    /// Converts decoded samples to premultiplied float pixels in the given light encoding.
    public init(_ image: Image, light: Bitmap.LightEncoding = .linear) {
        let count = image.width * image.height
        var pixels = [SIMD4<Float>](repeating: .zero, count: count)
        pixels.withUnsafeMutableBufferPointer { out in
            // The whole image is one run of pixels: rows are contiguous in both layouts.
            switch image.samples {
            case .eight(let s):
                s.withUnsafeBufferPointer {
                    PremultipliedConversion.convert($0, channels: 4, columns: 0..<count, light: light,
                                                    into: out.baseAddress!)
                }
            case .sixteen(let s):
                s.withUnsafeBufferPointer {
                    PremultipliedConversion.convert($0, channels: 4, columns: 0..<count, light: light,
                                                    into: out.baseAddress!)
                }
            }
        }
        // A copy, as `[Float]` storage is not promised the alignment of SIMD4; only an image
        // that is not resized comes here.
        let channels = pixels.withUnsafeBufferPointer { $0.withMemoryRebound(to: Float.self) { Array($0) } }
        self.init(width: image.width, height: image.height, light: light, pixels: channels)
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
                            let a = p[i + 3]
                            // Opaque pixels (most of a photo) need no division: x / 1 is x exactly.
                            if a == 1 {
                                for c in 0..<3 {
                                    let straight = min(max(p[i + c], 0), 1)
                                    out[i + c] = linear
                                        ? SRGB.byte(fromLinear: straight, thresholds: thresholds, codes: codes)
                                        : SRGB.byte(fromEncoded: straight)
                                }
                                out[i + 3] = 255
                                continue
                            }
                            let alpha = SRGB.byte(fromEncoded: a)
                            if alpha == 0 { continue }
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
