import CLCMSSystem
import Foundation
import Synchronization
import Testing
@testable import ThumbKit
import TestSupport

/// Colour management: embedded profiles and PNG gAMA converted to sRGB, checked against lcms2
/// itself driven directly in double precision.
@Suite struct ColorManagementTests {
    /// lcms2.h's TYPE_* format words, spelled out (Swift does not import function-like macros):
    /// COLORSPACE_SH(s) = s << 16, CHANNELS_SH(c) = c << 3, BYTES_SH(b) = b, FLOAT_SH(1) = 1 << 22.
    static let typeRGB8: UInt32 = (4 << 16) | (3 << 3) | 1
    static let typeCMYK8: UInt32 = (6 << 16) | (4 << 3) | 1
    static let typeRGBDouble: UInt32 = (1 << 22) | (4 << 16) | (3 << 3)
    static let typeLabDouble: UInt32 = (1 << 22) | (10 << 16) | (3 << 3)

    static func solid(_ rgb: (UInt8, UInt8, UInt8), width: Int = 16, height: Int = 16) -> Image {
        Image(width: width, height: height, rgba8: (0..<(width * height)).flatMap { _ in [rgb.0, rgb.1, rgb.2, 255] })
    }

    static func reference8(_ profile: [UInt8], _ rgb: [Int]) -> [Int] {
        JPEGFixtures.lcmsReference(profile: profile, rgb: rgb.map { Double($0) / 255 })
            .map { JPEGFixtures.quantised($0, levels: 255) }
    }

    static func close(_ a: [Int], _ b: [Int], _ tolerance: Int) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func displayP3RedIsWhatLcms2ComputesForSRGB() throws {
        let p3 = try JPEGFixtures.displayP3Profile()
        // P3's red lies outside sRGB: red above 1 (green and blue at or below 0) before clipping.
        let unclipped = JPEGFixtures.lcmsReference(profile: p3, rgb: [1, 0, 0])
        #expect(unclipped[0] > 1.05 && unclipped[1] <= 0.001 && unclipped[2] <= 0.001, "\(unclipped)")
        let reference = Self.reference8(p3, [255, 0, 0])
        #expect(reference == [255, 0, 0])
        let converted = ColorManagement.convertToSRGB(Self.solid((255, 0, 0)), from: .iccProfile(p3))
        #expect(converted.warning == nil)
        #expect(Self.close(JPEGFixtures.pixel(converted.image, 3, 3), reference + [255], 1))

        // An in-gamut colour moves: not the raw values.
        let raw = [200, 100, 50]
        let inGamut = Self.reference8(p3, raw)
        #expect(!Self.close(inGamut, raw, 5), "\(inGamut)")
        let mid = ColorManagement.convertToSRGB(Self.solid((200, 100, 50)), from: .iccProfile(p3)).image
        #expect(Self.close(JPEGFixtures.pixel(mid, 0, 0), inGamut + [255], 1), "\(JPEGFixtures.pixel(mid, 0, 0)) vs \(inGamut)")
    }

    @Test func jpegWithADisplayP3ProfileComesOutInSRGB() throws {
        let p3 = try JPEGFixtures.displayP3Profile()
        let pixels = JPEGFixtures.rgb(width: 32, height: 32) { x, _ in x < 16 ? (255, 0, 0) : (200, 100, 50) }
        let jpeg = JPEGFixtures.encode(pixels, width: 32, height: 32, quality: 100, icc: p3)
        let loaded = try DecodedSource.load(jpeg)
        #expect(loaded.warnings.isEmpty)
        #expect(Self.close(Array(JPEGFixtures.pixel(loaded.image, 4, 4).prefix(3)), Self.reference8(p3, [255, 0, 0]), 2))
        #expect(Self.close(Array(JPEGFixtures.pixel(loaded.image, 28, 4).prefix(3)), Self.reference8(p3, [200, 100, 50]), 2))

        // The thumbnail is marked sRGB; with keepProfile the pixels stay and the profile travels.
        let options = ThumbnailOptions(size: ThumbnailSize(width: 8, height: 8))
        let thumbnail = try Thumbnailer(options: options).thumbnails(of: .bytes(jpeg))[0]
        #expect(PNGEncoderTests.chunkTypes(thumbnail.bytes).contains("sRGB"))
        var keeping = options
        keeping.keepProfile = true
        let kept = try Thumbnailer(options: keeping).thumbnails(of: .bytes(jpeg))[0]
        #expect(PNGEncoderTests.chunkTypes(kept.bytes).contains("iCCP") && !PNGEncoderTests.chunkTypes(kept.bytes).contains("sRGB"))
        #expect(Self.close(Array(JPEGFixtures.pixel(kept.image, 1, 1).prefix(3)), [255, 0, 0], 3))
        #expect(keeping.canonicalDescription.contains("profile=keep") && options.canonicalDescription.contains("profile=srgb"))
        // A PNG carrying the kept profile converts back the same way.
        let again = try DecodedSource.load(kept.bytes)
        #expect(Self.close(Array(JPEGFixtures.pixel(again.image, 1, 1).prefix(3)), Self.reference8(p3, [255, 0, 0]), 2))
    }

    @Test func profilesThatAreSRGBInEffectAreRecognised() throws {
        let sRGB = ColorSource.sRGBChromaticities
        let named = try ColorManagement.makeRGBProfile(white: (sRGB[0], sRGB[1]), primaries: Array(sRGB[2...]))
        #expect(ColorManagement.isEffectivelySRGB(named))
        #expect(ColorSource.iccProfile(named).isSRGB)
        // A 2.2 power law is not the sRGB curve: dark tones differ by more than a level.
        let power = try ColorManagement.makeRGBProfile(white: (sRGB[0], sRGB[1]), primaries: Array(sRGB[2...]), gamma: 2.2)
        #expect(!ColorManagement.isEffectivelySRGB(power))
        #expect(!ColorManagement.isEffectivelySRGB(try JPEGFixtures.displayP3Profile()))
        #expect(!ColorManagement.isEffectivelySRGB([UInt8](repeating: 9, count: 200)))
        #expect(!ColorManagement.isEffectivelySRGB(try Self.cmykProfile()))

        // Taken as sRGB, such a PNG streams and gives what an unlabelled one gives, within a
        // level of converting it through lcms2.
        let image = TestPatterns.noise(64, 48, seed: 3)
        var encoder = PNGEncoder(colorType: .rgba)
        let plain = try encoder.encode(image)
        encoder.iccProfile = named
        let labelled = try encoder.encode(image)
        #expect(try DecodeTestPlan.needsNoTransform(labelled))
        let options = ThumbnailOptions(size: ThumbnailSize(width: 20, height: 20))
        #expect(try Thumbnailer(options: options).thumbnails(of: .bytes(labelled))[0].image
                == Thumbnailer(options: options).thumbnails(of: .bytes(plain))[0].image)
        guard case .eight(let samples) = image.samples else { Issue.record("8-bit"); return }
        let rgb = samples.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let converted = Self.lcmsRGB8(named, rgb)
        #expect(zip(rgb, converted).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    /// lcms2's 8-bit RGB → sRGB for packed RGB samples, as the conversion path sets it up.
    static func lcmsRGB8(_ profile: [UInt8], _ rgb: [UInt8]) -> [UInt8] {
        lcmsToSRGB8(profile, format: typeRGB8, rgb, pixels: rgb.count / 3)
    }

    /// lcms2's 8-bit transform from `profile` (samples in `format`) to sRGB RGB, relative
    /// colorimetric with black-point compensation.
    static func lcmsToSRGB8(_ profile: [UInt8], format: UInt32, _ samples: [UInt8], pixels: Int) -> [UInt8] {
        let input = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let output = cmsCreate_sRGBProfile()
        let transform = cmsCreateTransform(input, format, output, typeRGB8, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                           UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION))
        defer {
            cmsDeleteTransform(transform)
            cmsCloseProfile(input)
            cmsCloseProfile(output)
        }
        var source = samples
        var result = [UInt8](repeating: 0, count: pixels * 3)
        cmsDoTransform(transform, &source, &result, UInt32(pixels))
        return result
    }

    @Test func pngICCPIsApplied() throws {
        let p3 = try JPEGFixtures.displayP3Profile()
        var encoder = PNGEncoder(colorType: .rgba)
        encoder.iccProfile = p3
        let png = try encoder.encode(Self.solid((200, 100, 50)))
        let decoder = try PNGDecoder(bytes: png)
        #expect(decoder.header.colorSource == .iccProfile(p3))
        let loaded = try DecodedSource.load(png)
        #expect(Self.close(Array(JPEGFixtures.pixel(loaded.image, 2, 2).prefix(3)), Self.reference8(p3, [200, 100, 50]), 1))
        // The thumbnailer streams it, converting row by row.
        let small = ThumbnailOptions(size: ThumbnailSize(width: 4, height: 4))
        #expect(try DecodeTestPlan.plan(png, options: small).streams)
        let thumbnail = try Thumbnailer(options: small).thumbnails(of: .bytes(png))[0]
        #expect(Self.close(Array(JPEGFixtures.pixel(thumbnail.image, 1, 1).prefix(3)), Self.reference8(p3, [200, 100, 50]), 1))
        // keepProfile streams it unconverted and passes the profile on.
        var keeping = ThumbnailOptions(size: ThumbnailSize(width: 4, height: 4))
        keeping.keepProfile = true
        #expect(try DecodeTestPlan.needsNoTransform(png, options: keeping))
        let kept = try Thumbnailer(options: keeping).thumbnails(of: .bytes(png))[0]
        #expect(PNGEncoderTests.chunkTypes(kept.bytes).contains("iCCP"))
        #expect(JPEGFixtures.pixel(kept.image, 1, 1) == [200, 100, 50, 255])
        #expect(try PNGDecoder(bytes: kept.bytes).header.colorSource == .iccProfile(p3))
    }

    /// basn2c16.png: 16-bit RGB with gAMA 1.0 and no cHRM. The conversion runs at 16 bits and
    /// agrees with lcms2's double-precision answer for a gamma-1.0 profile with sRGB primaries.
    @Test func sixteenBitGammaPNGConvertsAtFullPrecision() throws {
        let bytes = [UInt8](FileManager.default.contents(atPath: Fixtures.path("pngsuite/basn2c16.png"))!)
        let decoder = try PNGDecoder(bytes: bytes)
        #expect(decoder.header.colorSource == .gamma(1.0, chromaticities: nil))
        let raw = try decoder.decodeRGBA()
        let loaded = try DecodedSource.load(bytes)
        guard case .sixteen(let before) = raw.samples, case .sixteen(let after) = loaded.image.samples else {
            Issue.record("not 16-bit")
            return
        }
        let profile = try ColorManagement.makeRGBProfile(white: (0.3127, 0.3290),
                                                         primaries: [0.64, 0.33, 0.30, 0.60, 0.15, 0.06], gamma: 1.0)
        var worst = 0
        var offGrid = 0
        for i in stride(from: 0, to: before.count, by: 4 * 7) {
            let reference = JPEGFixtures.lcmsReference(profile: profile, rgb: before[i..<i + 3].map { Double($0) / 65535 })
            for c in 0..<3 {
                worst = max(worst, abs(Int(after[i + c]) - JPEGFixtures.quantised(reference[c], levels: 65535)))
                if after[i + c] % 257 != 0 { offGrid += 1 }
            }
            #expect(after[i + 3] == before[i + 3])
        }
        // Within 0.05 % of full scale; and values between the 8-bit levels exist, so nothing went
        // through 8 bits on the way.
        #expect(worst <= 32, "largest difference \(worst) / 65535")
        #expect(offGrid > 0)
    }

    @Test func srgbAndSRGBLikeGammaAreLeftAlone() throws {
        #expect(ColorSource.sRGB.isSRGB)
        #expect(ColorSource.gamma(0.45455, chromaticities: nil).isSRGB)
        #expect(ColorSource.gamma(0.45455, chromaticities: ColorSource.sRGBChromaticities).isSRGB)
        #expect(!ColorSource.gamma(1.0, chromaticities: nil).isSRGB)
        #expect(!ColorSource.gamma(0.45455, chromaticities: [0.3127, 0.3290, 0.68, 0.32, 0.265, 0.69, 0.15, 0.06]).isSRGB)
        let image = Self.solid((10, 120, 240))
        #expect(ColorManagement.convertToSRGB(image, from: .gamma(0.45455, chromaticities: nil)).image == image)
        // gAMA 1.0: linear samples, so mid values get lighter in sRGB.
        let linear = ColorManagement.convertToSRGB(image, from: .gamma(1.0, chromaticities: nil))
        #expect(linear.warning == nil)
        let p = JPEGFixtures.pixel(linear.image, 0, 0)
        #expect(p[1] > 170 && p[1] < 195, "\(p)") // 120/255 linear is about 181 in sRGB
        // A PNG with an sRGB chunk streams untouched.
        let png = try PNGEncoder(marksSRGB: true).encode(image)
        #expect(try PNGDecoder(bytes: png).header.colorSource == .sRGB)
        #expect(try DecodeTestPlan.needsNoTransform(png))
    }

    @Test func aBrokenProfileIsAWarningAndThePixelsAreTakenAsSRGB() throws {
        let pixels = JPEGFixtures.rgb(width: 16, height: 16) { _, _ in (200, 100, 50) }
        let garbage = [UInt8](repeating: 0x41, count: 300)
        let jpeg = JPEGFixtures.encode(pixels, width: 16, height: 16, quality: 100, icc: garbage)
        let loaded = try DecodedSource.load(jpeg)
        #expect(loaded.warnings.count == 1 && loaded.warnings[0].hasPrefix("ignored ICC profile (taken as sRGB): "),
                "\(loaded.warnings)")
        let plain = try JPEGDecoder(bytes: jpeg).decodedImage()
        #expect(loaded.image == plain)
        // The CMYK profile on an RGB image: refused with a reason, same pixels.
        let cmyk = try Self.cmykProfile()
        let mismatched = try DecodedSource.load(JPEGFixtures.encode(pixels, width: 16, height: 16, quality: 100, icc: cmyk))
        #expect(mismatched.warnings == ["ignored ICC profile (taken as sRGB): profile is not an RGB or gray profile"])
        #expect(mismatched.image == plain)
    }

    /// lcms2 contexts are per call: conversions (and failing ones, which log errors) on many
    /// threads at once give the same pixels and the same warnings as one at a time.
    @Test func concurrentConversionsAreIndependent() throws {
        let p3 = try JPEGFixtures.displayP3Profile()
        let image = Self.solid((200, 100, 50), width: 64, height: 64)
        let good = ColorManagement.convertToSRGB(image, from: .iccProfile(p3))
        let bad = ColorManagement.convertToSRGB(image, from: .iccProfile([UInt8](repeating: 9, count: 200)))
        #expect(good.warning == nil && bad.warning != nil)
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let result = ColorManagement.convertToSRGB(image, from: .iccProfile(i % 2 == 0 ? p3 : [UInt8](repeating: 9, count: 200)))
            let expected = i % 2 == 0 ? good : bad
            if result.image != expected.image || result.warning != expected.warning {
                mismatches.wrappingAdd(1, ordering: .relaxed)
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    /// A converter an image is done with goes back to the pool, and the next image with the same
    /// profile and depth takes it: every conversion, the first (a new transform) and the later
    /// ones (the pooled transform, its one-pixel cache holding the last image's last pixel), gives
    /// the pixels lcms2 computes with a transform of its own.
    @Test func pooledConvertersConvertAsNewOnes() throws {
        // A gamma no other test uses, so that this test alone takes and returns its converter.
        let source = ColorSource.gamma(0.41, chromaticities: nil)
        let profile = try #require(ColorManagement.profile(for: source).profile)
        let kind = SRGBConverter.Kind(profile: profile, sixteenBit: false)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3 {
            var rgb: [UInt8] = []
            var rgba: [UInt8] = []
            for i in 0..<(24 * 9) {
                // Runs of one colour too, which the one-pixel cache answers.
                let pixel: [UInt8] = i % 5 < 2 ? [200, 30, 90] : (0..<3).map { _ in UInt8.random(in: 0...255, using: &generator) }
                rgb += pixel
                rgba += pixel + [77]
            }
            let image = Image(width: 24, height: 9, rgba8: rgba)
            let converted = ColorManagement.convertToSRGB(image, from: source)
            #expect(converted.warning == nil)
            let expected = Self.lcmsRGB8(profile, rgb)
            let out = converted.image.rgba8
            var got: [UInt8] = []
            for p in 0..<(24 * 9) { got += out[4 * p..<4 * p + 3] }
            #expect(got == expected, "round \(round)")
            #expect((0..<(24 * 9)).allSatisfy { out[4 * $0 + 3] == 77 })
            #expect(SRGBConverter.pooled(kind) == 1, "round \(round): the converter is back in the pool, once")
        }
    }

    /// An Adobe (inverted) CMYK JPEG with a CMYK profile goes through a CMYK → sRGB transform,
    /// agreeing with lcms2 applied directly to the ink amounts.
    @Test(arguments: [false, true])
    func cmykJPEGWithACMYKProfileUsesIt(ycck: Bool) throws {
        let profile = try Self.cmykProfile()
        let inks: [[UInt8]] = [[128, 0, 0, 0], [0, 200, 100, 0], [30, 30, 30, 60], [10, 80, 160, 20]]
        var stored = [UInt8]()
        for y in 0..<32 {
            for x in 0..<32 { stored += inks[(y < 16 ? 0 : 2) + (x < 16 ? 0 : 1)].map { 255 - $0 } }
        }
        let jpeg = JPEGFixtures.encode(stored, width: 32, height: 32, components: 4, quality: 100, ycck: ycck, icc: profile)
        let loaded = try DecodedSource.load(jpeg)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let naive = try JPEGDecoder(bytes: jpeg).decodedImage()
        var differsFromNaive = false
        for (i, at) in [(4, 4), (28, 4), (4, 28), (28, 28)].enumerated() {
            let reference = Self.lcmsCMYK(profile, inks[i])
            let got = Array(JPEGFixtures.pixel(loaded.image, at.0, at.1).prefix(3))
            #expect(Self.close(got, reference, 3), "\(inks[i]): \(got) vs \(reference)")
            if !Self.close(got, Array(JPEGFixtures.pixel(naive, at.0, at.1).prefix(3)), 3) { differsFromNaive = true }
        }
        #expect(differsFromNaive, "the profile was used, not the naive formula")
    }

    /// lcms2's 8-bit CMYK (ink amounts) → sRGB for one colour.
    static func lcmsCMYK(_ profile: [UInt8], _ ink: [UInt8]) -> [Int] {
        lcmsToSRGB8(profile, format: typeCMYK8, ink, pixels: 1).map(Int.init)
    }

    /// A small CMYK output profile: an A2B0 table (2 grid points per ink) to Lab, filled from the
    /// naive conversion at the corners, the cyan corner bent (less saturated) so that the result is
    /// measurably not the naive formula.
    static func cmykProfile() throws -> [UInt8] {
        let srgb = cmsCreate_sRGBProfile()
        let lab = cmsCreateLab4Profile(nil)
        let toLab = cmsCreateTransform(srgb, typeRGBDouble, lab, typeLabDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), 0)
        var table = [UInt16]()
        for c in 0...1 { for m in 0...1 { for y in 0...1 { for k in 0...1 {
            var rgb = [Double((1 - c) * (1 - k)), Double((1 - m) * (1 - k)), Double((1 - y) * (1 - k))]
            if c == 1 && k == 0 { rgb[0] = min(rgb[0] + 0.25, 1) }
            var labValues = [Double](repeating: 0, count: 3)
            cmsDoTransform(toLab, &rgb, &labValues, 1)
            var lab = cmsCIELab(L: labValues[0], a: labValues[1], b: labValues[2])
            var encoded = [UInt16](repeating: 0, count: 3)
            cmsFloat2LabEncoded(&encoded, &lab)
            table += encoded
        } } } }
        cmsDeleteTransform(toLab)
        cmsCloseProfile(srgb)
        cmsCloseProfile(lab)

        let profile = cmsCreateProfilePlaceholder(nil)!
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        let pipeline = cmsPipelineAlloc(nil, 4, 3)
        defer { cmsPipelineFree(pipeline) }
        // lutAtoBType wants A curves, CLUT, B curves: identity curves around the table.
        let clut = table.withUnsafeBufferPointer { cmsStageAllocCLut16bit(nil, 2, 4, 3, $0.baseAddress) }
        _ = cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 4, nil))
        _ = cmsPipelineInsertStage(pipeline, cmsAT_END, clut)
        _ = cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        _ = cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
        var white = cmsD50_XYZ().pointee
        _ = cmsWriteTag(profile, cmsSigMediaWhitePointTag, &white)
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0 else { throw ColorProfileError(reason: "cannot save") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        _ = cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }
}
