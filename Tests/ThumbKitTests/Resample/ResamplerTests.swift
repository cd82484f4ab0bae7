import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Properties any correct resampler has, independent of the reference implementation.
@Suite("Resampler")
struct ResamplerTests {
    static let sizes: [(Int, Int)] = [(1, 1), (3, 2), (7, 11), (16, 16), (40, 25), (97, 64)]

    /// A flat colour stays exactly that colour at every size, with every kernel, even with alpha.
    @Test(arguments: ResamplingKernel.allCases)
    func constantStaysConstant(_ kernel: ResamplingKernel) {
        for colour: (UInt8, UInt8, UInt8, UInt8) in [(200, 100, 50, 255), (13, 250, 77, 180), (255, 255, 255, 1)] {
            let image = TestPatterns.constant(32, 24, colour)
            for (w, h) in Self.sizes {
                for light in [Bitmap.LightEncoding.linear, .sRGB] {
                    let out = Image(Resampler(kernel: kernel, light: light).resample(image, to: w, height: h)).rgba8
                    let expected = [UInt8]((0..<(w * h)).flatMap { _ in [colour.0, colour.1, colour.2, colour.3] })
                    #expect(out == expected, "\(kernel) \(light) \(w)x\(h) \(colour)")
                }
            }
            // And from a fractional region.
            let region = Rect(x: 3.3, y: 1.7, width: 20.1, height: 13.9)
            let out = Image(Resampler(kernel: kernel).resample(image, to: 9, height: 31, region: region)).rgba8
            #expect(Set(stride(from: 0, to: out.count, by: 4).map { out[$0] }) == [colour.0])
        }
    }

    /// Alternating 1-pixel black and white columns halved: linear light averages the light, giving
    /// 50% intensity = sRGB 188; filtering sRGB values gives the too-dark 128.
    @Test func gratingAveragesLightNotCodes() {
        let grating = TestPatterns.image(64, 16) { x, _ in x % 2 == 0 ? (0, 0, 0, 255) : (255, 255, 255, 255) }
        for kernel in [ResamplingKernel.lanczos3, .box, .bilinear, .mitchell] {
            let linear = Image(Resampler(kernel: kernel).resample(grating, to: 32, height: 8)).rgba8
            let naive = Image(Resampler(kernel: kernel, light: .sRGB).resample(grating, to: 32, height: 8)).rgba8
            // Interior pixels (edges renormalise over an uneven tap set).
            for y in 0..<8 {
                for x in 4..<28 {
                    let i = (y * 32 + x) * 4
                    #expect(abs(Int(linear[i]) - 188) <= 1, "\(kernel) linear at \(x),\(y): \(linear[i])")
                    #expect(abs(Int(naive[i]) - 128) <= 1, "\(kernel) sRGB at \(x),\(y): \(naive[i])")
                }
            }
        }
    }

    /// Premultiplied filtering: the hidden colour of fully transparent pixels never bleeds into the
    /// visible ones (a straight-alpha filter turns the red edge brownish-green).
    @Test(arguments: ResamplingKernel.allCases)
    func transparentColourDoesNotBleed(_ kernel: ResamplingKernel) {
        let image = TestPatterns.image(40, 40) { x, y in
            (10..<30).contains(x) && (10..<30).contains(y) ? (255, 0, 0, 255) : (0, 255, 0, 0)
        }
        for (w, h) in [(13, 13), (7, 9), (90, 90), (20, 20)] {
            for light in [Bitmap.LightEncoding.linear, .sRGB] {
                let out = Image(Resampler(kernel: kernel, light: light).resample(image, to: w, height: h)).rgba8
                for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] > 0 {
                    #expect(out[i + 1] == 0 && out[i + 2] == 0, "\(kernel) \(light) \(w)x\(h) pixel \(i / 4)")
                    #expect(out[i] == 255, "\(kernel) \(light) \(w)x\(h) pixel \(i / 4)")
                }
            }
        }
    }

    @Test(arguments: ResamplingKernel.allCases)
    func degenerateShapes(_ kernel: ResamplingKernel) {
        let tall = TestPatterns.noise(1, 100, seed: 5)
        let wide = TestPatterns.noise(100, 1, seed: 6)
        let resampler = Resampler(kernel: kernel)
        for (image, w, h) in [(tall, 1, 10), (tall, 3, 7), (tall, 1, 300), (wide, 10, 1), (wide, 7, 3), (wide, 250, 1),
                              (TestPatterns.noise(1, 1, seed: 7), 5, 5), (tall, 1, 1), (wide, 1, 1)] {
            let bitmap = resampler.resample(image, to: w, height: h)
            #expect(bitmap.width == w && bitmap.height == h)
            #expect(bitmap.pixels.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
        }
    }

    /// Same size, whole image: a pixel-exact conversion, for 8 and 16 bits, in memory or streamed.
    @Test(arguments: ResamplingKernel.allCases, [Bitmap.LightEncoding.linear, .sRGB])
    func sameSizeIsExactCopy(_ kernel: ResamplingKernel, _ light: Bitmap.LightEncoding) throws {
        for image in [TestPatterns.noise(37, 23, seed: 8), TestPatterns.ramp16(37, 23)] {
            let resampler = Resampler(kernel: kernel, light: light)
            let direct = Bitmap(image, light: light)
            #expect(resampler.resample(image, to: 37, height: 23) == direct)
            var rows = ImageRows(image)
            #expect(try resampler.resample(&rows, to: 37, height: 23) == direct)
            // Unscaled integer crops are exact copies of the cropped pixels too.
            let crop = resampler.resample(image, to: 10, height: 5,
                                          region: Rect(x: 4, y: 6, width: 10, height: 5))
            for y in 0..<5 { for x in 0..<10 { #expect(crop[x, y] == direct[x + 4, y + 6]) } }
        }
        let image8 = TestPatterns.noise(37, 23, seed: 8)
        #expect(Image(Resampler(kernel: kernel, light: light).resample(image8, to: 37, height: 23)).rgba8
                == Image(Bitmap(image8, light: light)).rgba8)
    }

    /// A 16-bit source keeps its precision through the float pipeline: the result matches the
    /// float64 reference far more closely than one 8-bit step, and differs from filtering the
    /// 8-bit-rounded image.
    @Test func sixteenBitPrecision() {
        let image = TestPatterns.ramp16(120, 90)
        let ours = Resampler().resample(image, to: 41, height: 29)
        let reference = ReferenceResampler.premultiplied(image, width: 41, height: 29)
        var worst = 0.0
        for i in reference.indices { worst = max(worst, abs(Double(ours.pixels[i]) - reference[i])) }
        #expect(worst < 2e-6, "max error \(worst)")
        let from8 = Resampler().resample(image.converted8(), to: 41, height: 29)
        var differs = 0.0
        for i in reference.indices { differs = max(differs, abs(Double(from8.pixels[i]) - reference[i])) }
        #expect(differs > 20 * worst)
    }

    /// An opaque image's rows may come without alpha (as `PNGDecoder` hands them out): the result
    /// is the same, scaled or not, 8 or 16 bits, in either light.
    @Test(arguments: [Bitmap.LightEncoding.linear, .sRGB])
    func rgbRowsStreamLikeRGBARows(_ light: Bitmap.LightEncoding) throws {
        let opaque8 = TestPatterns.image(61, 43) { x, y in (UInt8(x * 4), UInt8((x * y) % 256), UInt8(y * 5), 255) }
        guard case .sixteen(var ramp) = TestPatterns.ramp16(61, 43).samples else { Issue.record("16-bit"); return }
        for i in stride(from: 3, to: ramp.count, by: 4) { ramp[i] = 65535 }
        let opaque16 = Image(width: 61, height: 43, rgba16: ramp)
        for image in [opaque8, opaque16] {
            for (w, h) in [(61, 43), (20, 15), (7, 30)] {
                let resampler = Resampler(light: light)
                var rgba = ImageRows(image), rgb = ImageRows(image, rgb: true)
                let expected = try resampler.resample(&rgba, to: w, height: h)
                #expect(try resampler.resample(&rgb, to: w, height: h) == expected)
                #expect(expected == resampler.resample(image, to: w, height: h))
            }
        }
    }

    /// The AVX2 passes (RGBA, and planar for opaque rows) give exactly the portable loop's
    /// bits: every kernel, reductions with taps that fill blocks of eight partly and wholly,
    /// enlargements, crops, alpha and opaque rows, both lights.
    @Test(arguments: [Bitmap.LightEncoding.linear, .sRGB])
    func vectorPassesMatchThePortableLoop(_ light: Bitmap.LightEncoding) throws {
        guard ResampleEngine.hasVectorConvolve else { return }
        let translucent = TestPatterns.noise(203, 37, seed: 7)
        let opaque = TestPatterns.image(203, 37) { x, y in
            (UInt8((x * 37 + y * 11) % 256), UInt8((x * y) % 256), UInt8((x ^ y) % 256), 255)
        }
        // Opaque rows take the planar pass, rows with any transparency the RGBA pass.
        let mixed = TestPatterns.image(203, 37) { x, y in
            (UInt8((x * 7 + y) % 256), UInt8((x * 3) % 256), UInt8(y * 6), y % 4 == 1 && x == (y * 5) % 203 ? 90 : 255)
        }
        let sizes = [(1, 1), (3, 5), (17, 9), (64, 37), (203, 20), (250, 60)]
        let ramp16 = TestPatterns.ramp16(61, 43)
        guard case .sixteen(var samples16) = ramp16.samples else { Issue.record("16-bit"); return }
        for i in stride(from: 3, to: samples16.count, by: 4) { samples16[i] = 65535 }
        let opaque16 = Image(width: 61, height: 43, rgba16: samples16)
        for kernel in ResamplingKernel.allCases {
            var vector = Resampler(kernel: kernel, light: light)
            var portable = vector
            portable.vectorConvolve = false
            vector.vectorConvolve = true
            for (w, h) in sizes {
                #expect(vector.resample(translucent, to: w, height: h) == portable.resample(translucent, to: w, height: h),
                        "\(kernel) \(w)x\(h)")
                #expect(vector.resample(mixed, to: w, height: h) == portable.resample(mixed, to: w, height: h),
                        "\(kernel) \(w)x\(h) mixed")
                #expect(vector.resample(opaque, to: w, height: h) == portable.resample(opaque, to: w, height: h),
                        "\(kernel) \(w)x\(h) opaque RGBA")
                var rgb = ImageRows(opaque, rgb: true), rgbPortable = ImageRows(opaque, rgb: true)
                let planar = try vector.resample(&rgb, to: w, height: h)
                #expect(planar == (try portable.resample(&rgbPortable, to: w, height: h)), "\(kernel) \(w)x\(h) RGB")
                #expect(planar == vector.resample(opaque, to: w, height: h), "\(kernel) \(w)x\(h) RGB vs RGBA")
            }
            let region = Rect(x: 10.5, y: 3.25, width: 150, height: 30)
            #expect(vector.resample(opaque, to: 40, height: 8, region: region)
                    == portable.resample(opaque, to: 40, height: 8, region: region))
            // 16-bit: opaque rows (RGBA and RGB) take the planar pass, translucent ones RGBA.
            for (w, h) in [(17, 9), (61, 20), (130, 90)] {
                #expect(vector.resample(ramp16, to: w, height: h) == portable.resample(ramp16, to: w, height: h))
                #expect(vector.resample(opaque16, to: w, height: h) == portable.resample(opaque16, to: w, height: h))
                var rgb = ImageRows(opaque16, rgb: true), rgbPortable = ImageRows(opaque16, rgb: true)
                #expect(try vector.resample(&rgb, to: w, height: h) == (try portable.resample(&rgbPortable, to: w, height: h)),
                        "\(kernel) \(w)x\(h) 16-bit RGB")
            }
        }
    }

    /// The streamed path reads only as far as the last row the output needs.
    @Test func streamingStopsAfterLastNeededRow() throws {
        let image = TestPatterns.noise(50, 400, seed: 10)
        var rows = ImageRows(image)
        let top = try Resampler().resample(&rows, to: 10, height: 10,
                                           region: Rect(x: 0, y: 0, width: 50, height: 50))
        // Lanczos-3 reducing 5×: the last output row reads up to ~ 47.5 + 15 rows.
        #expect(rows.rowsRead <= 64)
        #expect(top == Resampler().resample(image, to: 10, height: 10, region: Rect(x: 0, y: 0, width: 50, height: 50)))
    }

    /// The PngSuite's interlaced/plain pairs, checked in with the tests.
    static let pngSuite = Fixtures.pngSuite + "/"

    /// A plain PNG streamed and its interlaced twin decoded whole give one result.
    @Test(arguments: ["6a08", "6a16", "2c16"])
    func decoderConvenienceHandlesInterlacing(_ suffix: String) throws {
        let folder = Self.pngSuite
        var rows = try PNGDecoder(path: folder + "basn\(suffix).png")
        let plain = try Resampler().resample(&rows, to: 11, height: 13)
        let interlaced = Resampler().resample(try PNGDecoder.decode(path: folder + "basi\(suffix).png"), to: 11, height: 13)
        #expect(plain == interlaced)
        #expect(plain == Resampler().resample(try PNGDecoder.decode(path: folder + "basn\(suffix).png"), to: 11, height: 13))
    }

    /// Every cover plan's region is accepted by the resampler and yields the box size, for awkward
    /// ratios and every gravity (a far edge computed in floating point must not fall off the image).
    @Test func coverPlansAlwaysResample() {
        let resampler = Resampler(kernel: .bilinear)
        for gravity in Gravity.allCases {
            for (w, h) in [(7, 3), (3, 7), (13, 11), (100, 33), (33, 100), (41, 41)] {
                let image = TestPatterns.noise(w, h, seed: UInt64(w * h))
                for (bw, bh) in [(3, 1), (1, 3), (7, 5), (5, 7), (9, 9), (11, 2)] {
                    for enlarge in [false, true] {
                        let plan = FitPlan(sourceWidth: w, sourceHeight: h, boxWidth: bw, boxHeight: bh, mode: .cover,
                                           gravity: gravity, enlarge: enlarge)
                        #expect(plan.region.fits(width: w, height: h), "\(w)x\(h) → \(bw)x\(bh) \(gravity)")
                        let bitmap = resampler.resample(image, to: plan.width, height: plan.height, region: plan.region)
                        #expect(bitmap.width == plan.width && bitmap.height == plan.height)
                    }
                }
            }
        }
    }

    /// The sliding window stays a few kernel widths tall whatever the source height.
    @Test func windowIsBoundedByKernel() {
        let rows = AxisWeights(inputSize: 3000, outputSize: 192, origin: 0, span: 3000, kernel: .lanczos3)
        // Support 3 × 15.625 on each side: at most 94 taps, plus one for advancing by a fractional step.
        #expect(rows.windowSize <= 96)
    }
}

/// An in-memory image as a `RowSource`, counting the rows read; with `rgb`, rows leave out alpha
/// (as a decoder hands out an opaque image's rows).
struct ImageRows: RowSource {
    let image: Image
    let rowChannels: Int
    private(set) var rowsRead = 0

    init(_ image: Image, rgb: Bool = false) {
        self.image = image
        self.rowChannels = rgb ? 3 : 4
    }

    var width: Int { image.width }
    var height: Int { image.height }
    var bitDepth: Int { image.bitDepth }

    mutating func readRow(into row: inout [UInt8]) {
        guard case .eight(let s) = image.samples else { fatalError("8-bit row from a 16-bit image") }
        row = channels(Array(s[rowsRead * width * 4 ..< (rowsRead + 1) * width * 4]))
        rowsRead += 1
    }

    mutating func readRow(into row: inout [UInt16]) {
        guard case .sixteen(let s) = image.samples else { fatalError("16-bit row from an 8-bit image") }
        row = channels(Array(s[rowsRead * width * 4 ..< (rowsRead + 1) * width * 4]))
        rowsRead += 1
    }

    private func channels<Sample>(_ rgba: [Sample]) -> [Sample] {
        rowChannels == 4 ? rgba : rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
    }
}

/// Several sizes in one pass over the rows (what a set of outputs does) give each size exactly the
/// bitmap a pass of its own gives: for 8- and 16-bit rows, opaque and translucent, crops and
/// enlargements, the vector and the portable passes.
@Suite struct ManyTargetsTests {
    @Test(arguments: [false, true])
    func eachTargetIsItsOwnPass(vector: Bool) throws {
        let images = [TestPatterns.noise(97, 61, seed: 5), TestPatterns.gradient(120, 80), TestPatterns.ramp16(64, 40)]
        for image in images {
            let targets = [
                Resampler.Target(width: 30, height: 20, region: Rect(width: image.width, height: image.height)),
                Resampler.Target(width: 11, height: 17, region: Rect(x: 3.5, y: 2, width: 40, height: 30)),
                Resampler.Target(width: image.width, height: image.height, region: Rect(width: image.width, height: image.height)),
                Resampler.Target(width: 150, height: 90, region: Rect(width: image.width, height: image.height)),
                Resampler.Target(width: 5, height: 3, region: Rect(x: 0, y: 20, width: 60, height: 20)),
            ]
            for light in [Bitmap.LightEncoding.linear, .sRGB] {
                var resampler = Resampler(kernel: .lanczos3, light: light)
                guard !vector || ResampleEngine.hasVectorConvolve else { continue }
                resampler.vectorConvolve = vector
                let together = resampler.resample(image, to: targets)
                for (target, bitmap) in zip(targets, together) {
                    let alone = resampler.resample(image, to: target.width, height: target.height, region: target.region)
                    #expect(bitmap.pixels == alone.pixels, "\(image.width)x\(image.height) to \(target)")
                }
            }
        }
    }
}
