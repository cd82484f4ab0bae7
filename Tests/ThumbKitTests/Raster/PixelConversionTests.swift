import Testing
@testable import ThumbKit
import TestSupport

/// sRGB transfer, premultiplication and the one sample-to-float conversion.
@Suite struct PixelConversionTests {
    @Test func allSRGBBytesSurviveLinearLight() {
        for value in 0...255 {
            #expect(SRGB.byte(fromLinear: SRGB.linear(fromByte: UInt8(value))) == UInt8(value))
        }
    }

    @Test func linearToByteRoundsInSRGBSpace() {
        for step in 0...4096 {
            let linear = Double(step) / 4096
            let exact = (SRGB.encode(linear) * 255 + 0.5).rounded(.down)
            #expect(Int(SRGB.byte(fromLinear: Float(linear))) == Int(exact))
        }
        #expect(SRGB.byte(fromLinear: -1) == 0 && SRGB.byte(fromLinear: 2) == 255 && SRGB.byte(fromLinear: .nan) == 0)
        #expect(SRGB.byte(fromLinear: .infinity) == 255 && SRGB.byte(fromLinear: -.infinity) == 0)
    }

    /// The bin table gives exactly what counting every threshold gives: at each threshold, the
    /// floats either side of it, every bin edge, and a dense sweep.
    @Test func linearToByteMatchesCountingThresholds() {
        func counted(_ value: Float) -> UInt8 { UInt8(SRGB.byteThresholds.count { $0 <= value }) }
        var values: [Float] = [0, .leastNonzeroMagnitude, 1, Float(1).nextDown]
        for t in SRGB.byteThresholds { values += [t.nextDown, t, t.nextUp] }
        for bin in 0..<SRGB.binCount {
            let edge = Float(bin) / Float(SRGB.binCount)
            values += [edge.nextDown, edge, edge.nextUp]
        }
        for i in 0..<200_000 { values.append(Float(i) / 200_000) }
        let wrong = values.filter { $0 >= 0 && $0 < 1 && SRGB.byte(fromLinear: $0) != counted($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func transferCurveIsTheIECPiecewiseOne() {
        #expect(abs(SRGB.decode(0.5) - 0.21404114048223255) < 1e-12)
        #expect(abs(SRGB.decode(0.04) - 0.04 / 12.92) < 1e-15)
        #expect(abs(SRGB.encode(SRGB.decode(0.73)) - 0.73) < 1e-12)
    }

    @Test(arguments: [Bitmap.LightEncoding.linear, .sRGB])
    func everyColourAlphaPairSurvivesPremultiplication(light: Bitmap.LightEncoding) {
        // All 65,536 (colour, alpha) pairs: straight → premultiplied float → straight is exact.
        var samples = [UInt8]()
        for alpha in 1...255 { for colour in 0...255 { samples += [UInt8(colour), UInt8(255 - colour), UInt8(colour / 2), UInt8(alpha)] } }
        let image = Image(width: 256, height: 255, rgba8: samples)
        #expect(Image(Bitmap(image, light: light)) == image)
        let transparent = Image(width: 1, height: 1, rgba8: [200, 100, 50, 0])
        #expect(Image(Bitmap(transparent, light: light)).rgba8 == [0, 0, 0, 0])
    }

    @Test func sixteenBitKeepsPrecisionInTheBitmap() {
        let image = Image(width: 2, height: 1, rgba16: [1000, 1001, 1002, 65535, 65535, 0, 0, 1])
        let bitmap = Bitmap(image, light: .sRGB)
        #expect(bitmap.pixels[0] != bitmap.pixels[1])
        #expect(abs(bitmap.pixels[7] - 1 / 65535) < 1e-9)
    }

    static func noise16(_ width: Int, _ height: Int, seed: UInt64) -> Image {
        var generator = SeededGenerator(seed: seed)
        var s = [UInt16](repeating: 0, count: width * height * 4)
        for i in s.indices { s[i] = UInt16.random(in: 0...65535, using: &generator) }
        // Some opaque and some invisible pixels, which the conversion treats specially.
        for p in stride(from: 0, to: s.count, by: 12) { s[p + 3] = 65535 }
        for p in stride(from: 4, to: s.count, by: 20) { s[p + 3] = 0 }
        return Image(width: width, height: height, rgba16: s)
    }

    /// `channel * (alpha / max)`, the channel linearised first for linear light.
    static func reference(_ image: Image, light: Bitmap.LightEncoding) -> [Float] {
        var out: [Float] = []
        switch image.samples {
        case .eight(let s):
            for i in stride(from: 0, to: s.count, by: 4) {
                let a = Float(s[i + 3]) / 255
                for c in 0..<3 { out.append((light == .linear ? SRGB.linear(fromByte: s[i + c]) : Float(s[i + c]) / 255) * a) }
                out.append(a)
            }
        case .sixteen(let s):
            for i in stride(from: 0, to: s.count, by: 4) {
                let a = Float(s[i + 3]) / 65535
                for c in 0..<3 { out.append((light == .linear ? SRGB.linear(fromSample16: s[i + c]) : Float(s[i + c]) / 65535) * a) }
                out.append(a)
            }
        }
        return out
    }

    @Test(arguments: [Bitmap.LightEncoding.linear, .sRGB])
    func wholeImagesMatchTheDefinition(light: Bitmap.LightEncoding) {
        var opaque = TestPatterns.noise(13, 7, seed: 3)
        if case .eight(var s) = opaque.samples {
            for p in stride(from: 3, to: s.count, by: 8) { s[p] = 255 }
            opaque = Image(width: 13, height: 7, rgba8: s)
        }
        for image in [TestPatterns.noise(13, 7, seed: 4), opaque, Self.noise16(9, 5, seed: 5)] {
            #expect(Bitmap(image, light: light).pixels == Self.reference(image, light: light))
        }
    }

    /// The resampler's streamed rows use the same conversion: an RGB row equals its RGBA form.
    @Test(arguments: [Bitmap.LightEncoding.linear, .sRGB])
    func rowsOfThreeChannelsReadAsOpaque(light: Bitmap.LightEncoding) {
        var generator = SeededGenerator(seed: 6)
        let rgb = (0..<30).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let rgba: [UInt8] = stride(from: 0, to: 30, by: 3).flatMap { i -> [UInt8] in [rgb[i], rgb[i + 1], rgb[i + 2], 255] }
        func converted(_ samples: [UInt8], channels: Int) -> [SIMD4<Float>] {
            var out = [SIMD4<Float>](repeating: .zero, count: 10)
            samples.withUnsafeBufferPointer { (row: UnsafeBufferPointer<UInt8>) in
                out.withUnsafeMutableBufferPointer { (pixels: inout UnsafeMutableBufferPointer<SIMD4<Float>>) in
                    PremultipliedConversion.convert(row, channels: channels, columns: 2..<10, light: light,
                                                    into: pixels.baseAddress!)
                }
            }
            return out
        }
        let three = converted(rgb, channels: 3), four = converted(rgba, channels: 4)
        #expect(three == four)
        #expect(three[0] == .zero && three[1] == .zero)   // columns outside the range are left alone
        #expect(three[2] != .zero)
    }
}
