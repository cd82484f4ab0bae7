import CThumbKernels

/// One source row converted to premultiplied float for the horizontal pass: as three colour planes
/// when every pixel read is opaque (the planar vector pass, which then needs no shuffles and does
/// no work for the constant alpha), else as RGBA pixels. Only the columns asked for are written;
/// `AxisWeights.tapBlock` zero pixels past the row let the last blocks read on.
///
/// Converting is as costly as filtering, so a row converted once can feed several engines (every
/// size a set of outputs resamples the source to), in the light they share.
struct ConvertedRow {
    /// Pixels in a source row.
    let width: Int
    /// True when the row is in `planes`, false when in `pixels`.
    private(set) var isPlanar = false
    /// Red, green and blue planes of `length` floats each; allocated on first use.
    private(set) var planes: [Float] = []
    /// RGBA pixels, `length` of them; allocated on first use.
    private(set) var pixels: [SIMD4<Float>] = []

    init(width: Int) {
        self.width = width
    }

    /// The row and its zero padding.
    var length: Int { width + AxisWeights.tapBlock }

    /// Converts `columns` of a row of straight 8-bit sRGB samples (RGBA, or RGB when `channels` is
    /// 3); planes when `planar` allows them and every pixel in `columns` is opaque.
    mutating func load(_ row: UnsafeBufferPointer<UInt8>, channels: Int, columns: Range<Int>, light: Bitmap.LightEncoding, planar: Bool) {
        guard planar && (channels == 3 || Self.isOpaque(row, columns)) else {
            return loadPixels { PremultipliedConversion.convert(row, channels: channels, columns: columns, light: light, into: $0) }
        }
        let table = light == .linear ? SRGB.linearFromByte : PremultipliedConversion.encodedFromByte
        precondition(columns.isEmpty || (columns.lowerBound >= 0 && columns.upperBound * channels <= row.count))
        table.withUnsafeBufferPointer { table in
            withPlanes { red, green, blue in
                guard let samples = row.baseAddress, !columns.isEmpty else { return }
                let first = columns.lowerBound
                tk_samples_to_planes(samples + first * channels, columns.count, channels, table.baseAddress!,
                                     red + first, green + first, blue + first)
            }
        }
        isPlanar = true
    }

    /// The same for 16-bit samples, with the values `PremultipliedConversion` gives them.
    mutating func load(_ row: UnsafeBufferPointer<UInt16>, channels: Int, columns: Range<Int>, light: Bitmap.LightEncoding, planar: Bool) {
        guard planar && (channels == 3 || Self.isOpaque(row, columns)) else {
            return loadPixels { PremultipliedConversion.convert(row, channels: channels, columns: columns, light: light, into: $0) }
        }
        let linear = light == .linear
        SRGB.linearFromSample16.withUnsafeBufferPointer { table in
            withPlanes { red, green, blue in
                var i = columns.lowerBound &* channels
                for x in columns {
                    if linear {
                        red[x] = table[Int(row[i])]
                        green[x] = table[Int(row[i &+ 1])]
                        blue[x] = table[Int(row[i &+ 2])]
                    } else {
                        red[x] = Float(row[i]) / 65535
                        green[x] = Float(row[i &+ 1]) / 65535
                        blue[x] = Float(row[i &+ 2]) / 65535
                    }
                    i &+= channels
                }
            }
        }
        isPlanar = true
    }

    /// The RGBA pixels, allocated on first use, written by `convert`.
    private mutating func loadPixels(_ convert: (UnsafeMutablePointer<SIMD4<Float>>) -> Void) {
        if pixels.isEmpty { pixels = [SIMD4<Float>](repeating: .zero, count: length) }
        pixels.withUnsafeMutableBufferPointer { convert($0.baseAddress!) }
        isPlanar = false
    }

    /// The three colour planes, allocated on first use.
    private mutating func withPlanes(_ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                                              UnsafeMutablePointer<Float>) -> Void) {
        let length = self.length
        if planes.isEmpty { planes = [Float](repeating: 0, count: 3 * length) }
        planes.withUnsafeMutableBufferPointer { planes in
            let red = planes.baseAddress!
            body(red, red + length, red + 2 * length)
        }
    }

    /// Whether every RGBA pixel in `columns` has alpha 255. Such a row takes the planar pass,
    /// which gives it exactly the bits the RGBA pass would; many PNGs carry an alpha channel they
    /// never use.
    private static func isOpaque(_ row: UnsafeBufferPointer<UInt8>, _ columns: Range<Int>) -> Bool {
        let pixels = UnsafeRawPointer(row.baseAddress!)
        var all: UInt32 = .max
        for x in columns { all &= pixels.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self) }
        return withUnsafeBytes(of: all) { $0[3] } == 255
    }

    /// The same for a 16-bit RGBA row: every alpha in `columns` is 65535.
    private static func isOpaque(_ row: UnsafeBufferPointer<UInt16>, _ columns: Range<Int>) -> Bool {
        var all: UInt16 = .max
        for x in columns { all &= row[x &* 4 &+ 3] }
        return all == .max
    }
}
