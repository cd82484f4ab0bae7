import Foundation
import Testing
@testable import ThumbKit

/// Shrink-on-load: the factor chosen for a thumbnail, and how close the result stays to decoding
/// at full size and resampling.
@Suite struct JPEGShrinkOnLoadTests {
    /// A 1600 × 1200 photo-like picture: smooth gradients, a soft texture, a few hard edges.
    static let photo = makePhoto(width: 1600, height: 1200)
    /// The same at a size no reduction divides (the last block of each row and column is partial).
    /// Mapping the reduced image by exact division gives 44.2 dB here at 1/8; stretching it onto
    /// the output (its rounded-up size taken as the whole picture) gave 31.3 dB.
    static let oddPhoto = makePhoto(width: 1601, height: 1203)

    static func makePhoto(width w: Int, height h: Int) -> [UInt8] {
        let pixels = JPEGFixtures.rgb(width: w, height: h) { x, y in
            let fx = Double(x) / Double(w), fy = Double(y) / Double(h)
            let texture = 25 * sin(Double(x) * 0.05) * cos(Double(y) * 0.043)
            var r = 60 + 150 * fx + texture, g = 40 + 170 * fy - texture / 2, b = 200 - 120 * fx * fy + texture / 3
            if (x / 200 + y / 200) % 5 == 0 { r = 240; g = 230; b = 40 }   // hard-edged tiles
            func clip(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
            return (clip(r), clip(g), clip(b))
        }
        return JPEGFixtures.encode(pixels, width: w, height: h, quality: 90, subsampling: .s420)
    }

    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (value, clock.now - start)
    }

    @Test(arguments: [
        (ThumbnailSize(width: 200, height: 200), [1], 4),            // 200×150: 1/4 leaves 400×300
        (ThumbnailSize(width: 201, height: 201), [1], 2),            // 201×151: 1/4 would leave 400 < 402
        (ThumbnailSize(width: 100, height: 100), [1], 8),            // 100×75: 1/8 leaves 200×150
        (ThumbnailSize(width: 100, height: 100), [1, 2], 4),         // the @2x needs 200×150
        (ThumbnailSize(width: 120, height: 120, mode: .cover), [1], 4), // whole would be 160×120
        (ThumbnailSize(width: 700, height: 700), [1], 1),               // 700×525: 1/2 would leave 800 < 1400
    ])
    func shrinkOnLoadStaysCloseToTheFullDecode(size: ThumbnailSize, scales: [Int], expected: Int) throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: size))
        let plan = try DecodeTestPlan.plan(Self.photo, options: thumbnailer.options, scales: scales)
        #expect(plan.reduction == expected)
        #expect(plan.width == 1600 && plan.height == 1200)
        let (thumbnails, fast) = try Self.timed { try thumbnailer.thumbnails(of: .bytes(Self.photo), scales: scales) }
        let (image, slow) = try Self.timed { try JPEGDecoder(bytes: Self.photo).decodedImage() }
        for (index, scale) in scales.enumerated() {
            let shrunk = thumbnails[index].image
            let full = try thumbnailer.pixels(of: image, scale: scale)
            #expect(shrunk.width == full.width && shrunk.height == full.height)
            let (psnr, peak) = JPEGFixtures.psnr(shrunk, full)
            print("shrink 1/\(expected) \(size) @\(scale)x: PSNR \(String(format: "%.2f", psnr)) dB, max difference \(peak); thumbnails \(fast) vs full decode \(slow)")
            #expect(psnr >= 45, "PSNR \(psnr) dB")
            #expect(peak <= 32)
        }
    }

    @Test(arguments: [(ThumbnailSize(width: 100, height: 100), 8, 201, 151),
                      (ThumbnailSize(width: 90, height: 90, mode: .cover), 4, 401, 301)])  // whole would be 120×90
    func oddSizesMapTheReducedImageExactly(size: ThumbnailSize, reduction: Int, width: Int, height: Int) throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: size))
        let target = DecodePlan.shrinkTarget(thumbnailer.plan(sourceWidth: 1601, sourceHeight: 1203, scale: 1), width: 1601, height: 1203)
        let reduced = try DecodedSource.load(Self.oddPhoto, shrinkTarget: target)
        #expect(reduced.reduction == reduction && reduced.image.width == width && reduced.image.height == height)
        #expect(try DecodeTestPlan.plan(Self.oddPhoto, options: thumbnailer.options).reduction == reduction)
        let image = try JPEGDecoder(bytes: Self.oddPhoto).decodedImage()
        let (psnr, peak) = JPEGFixtures.psnr(try thumbnailer.thumbnails(of: .bytes(Self.oddPhoto))[0].image,
                                             try thumbnailer.pixels(of: image, scale: 1))
        print("shrink 1/\(reduction) \(size) of 1601x1203: PSNR \(String(format: "%.2f", psnr)) dB, max difference \(peak)")
        #expect(psnr >= 40 && peak <= 40)
    }

    /// `shrinkOnLoad` is a rendering setting: in the canonical description, read back from it.
    @Test func exactModeIsPartOfTheSettings() throws {
        let exact = ThumbnailOptions(shrinkOnLoad: false)
        #expect(exact.canonicalDescription.contains(";shrink-on-load=off;"))
        #expect(ThumbnailOptions().canonicalDescription.contains(";shrink-on-load=on;"))
        #expect(exact.digest != ThumbnailOptions().digest)
        #expect(try ThumbnailOptions(canonicalDescription: exact.canonicalDescription) == exact)
        #expect(try ThumbnailOptions(canonicalDescription: ThumbnailOptions().canonicalDescription) == ThumbnailOptions())
        // A manifest written before the option existed: JPEGs were always reduced then.
        let older = ThumbnailOptions().canonicalDescription.replacingOccurrences(of: ";shrink-on-load=on", with: "")
        #expect(try ThumbnailOptions(canonicalDescription: older).shrinkOnLoad)
        let bad = exact.canonicalDescription.replacingOccurrences(of: "shrink-on-load=off", with: "shrink-on-load=no")
        #expect(throws: ThumbnailSettingsError(text: bad, field: "shrink-on-load")) {
            _ = try ThumbnailOptions(canonicalDescription: bad)
        }
    }

    /// With `shrinkOnLoad` off a JPEG is decoded at full size: the thumbnail is, within ±1 on every
    /// channel, the full decode's thumbnail and the float64 reference resampling of the full decode
    /// (the project's quality bar). The default, reduced decode misses that bar on the same input,
    /// so the comparison can fail.
    @Test(arguments: [
        (ThumbnailSize(width: 200, height: 200), [1], false),                 // 1/4 by default
        (ThumbnailSize(width: 100, height: 100), [1, 2], false),              // 1/4 for the @2x
        (ThumbnailSize(width: 90, height: 90, mode: .cover), [1], true),      // 1/4, a partial last block
    ])
    func exactModeMatchesTheFullDecode(size: ThumbnailSize, scales: [Int], odd: Bool) throws {
        let jpeg = odd ? Self.oddPhoto : Self.photo
        let exact = Thumbnailer(options: ThumbnailOptions(size: size, shrinkOnLoad: false))
        let thumbnails = try exact.thumbnails(of: .bytes(jpeg), scales: scales)
        let shrunk = try Thumbnailer(options: ThumbnailOptions(size: size)).thumbnails(of: .bytes(jpeg), scales: scales)
        let full = try JPEGDecoder(bytes: jpeg).decodedImage()
        for (index, scale) in scales.enumerated() {
            let plan = exact.plan(sourceWidth: full.width, sourceHeight: full.height, scale: scale)
            let reference = Image(width: plan.width, height: plan.height,
                                  rgba8: ReferenceResampler.bytes(full, width: plan.width, height: plan.height, region: plan.region))
            let image = thumbnails[index].image
            #expect(JPEGFixtures.psnr(image, try exact.pixels(of: full, scale: scale)).maxDifference <= 1)
            #expect(JPEGFixtures.psnr(image, reference).maxDifference <= 1)
            let reduced = JPEGFixtures.psnr(shrunk[index].image, reference)
            #expect(reduced.maxDifference > 1, "shrink-on-load is \(reduced.maxDifference) off here")
        }
    }
}
