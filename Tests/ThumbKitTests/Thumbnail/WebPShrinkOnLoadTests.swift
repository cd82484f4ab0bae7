import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// WebP shrink-on-load: libwebp's scaler reduces a still image to twice the thumbnail's size
/// while decoding. The size chosen, how the decoded image maps onto the full one, and how close the
/// result stays to decoding at full size (`shrinkOnLoad` off), as `JPEGShrinkOnLoadTests` holds
/// JPEG's reduction.
@Suite struct WebPShrinkOnLoadTests {
    /// 320 × 480 photos (`Tests/Fixtures/webp-shrink`).
    static func bytes(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: Fixtures.path("webp-shrink/\(name).webp"))!)
    }

    @Test(arguments: [
        (ThumbnailSize(width: 40, height: 40), [1], DecodeRequest.Size(width: 54, height: 80)),    // 27×40, doubled
        (ThumbnailSize(width: 100, height: 100), [1], DecodeRequest.Size(width: 134, height: 200)),
        (ThumbnailSize(width: 40, height: 40), [1, 2], DecodeRequest.Size(width: 108, height: 160)),  // the @2x's 54×80
        (ThumbnailSize(width: 60, height: 60, mode: .cover), [1], DecodeRequest.Size(width: 120, height: 180)),
        (ThumbnailSize(width: 200, height: 200), [1], nil),   // 268×400 would not halve 320×480
    ] as [(ThumbnailSize, [Int], DecodeRequest.Size?)])
    func theScaledSizeIsTwiceTheTarget(size: ThumbnailSize, scales: [Int], expected: DecodeRequest.Size?) throws {
        let options = ThumbnailOptions(size: size)
        let plan = try DecodeTestPlan.plan(Self.bytes("lossy"), options: options, scales: scales)
        #expect(plan.scaledSize == expected && plan.reduction == 1 && !plan.streams)
        #expect(plan.width == 320 && plan.height == 480)
        var exact = options
        exact.shrinkOnLoad = false
        #expect(try DecodeTestPlan.plan(Self.bytes("lossy"), options: exact, scales: scales).scaledSize == nil)
        // An animation has no scaler.
        let animated = [UInt8](FileManager.default.contents(atPath: Fixtures.path("webp/animated.webp"))!)
        #expect(try DecodeTestPlan.plan(animated, options: ThumbnailOptions(size: ThumbnailSize(width: 10, height: 10))).scaledSize == nil)
    }

    /// EXIF orientation 6: the stored image is scaled on its own axes (the upright target's
    /// swapped), and the thumbnail is upright.
    @Test func aRotatedImageIsScaledOnItsStoredAxes() throws {
        let options = ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40))
        let plan = try DecodeTestPlan.plan(Self.bytes("lossy-exif-6"), options: options)
        #expect(plan.width == 480 && plan.height == 320)
        #expect(plan.scaledSize == DecodeRequest.Size(width: 54, height: 80))   // upright 40×27, doubled, swapped
        let thumbnail = try Thumbnailer(options: options).thumbnails(of: .bytes(Self.bytes("lossy-exif-6")))[0].image
        #expect(thumbnail.width == 40 && thumbnail.height == 27)
    }

    /// The reduced decode's thumbnails against the full decode's: sizes equal, PSNR at least 36 dB
    /// and no premultiplied sample more than 40 levels off. libwebp averages areas of the encoded
    /// (not linear) values, as libjpeg's DCT scaling does, so fine contrast comes out darker; this
    /// fur photo at 12× is the worst case here (37.5 dB), and the 20 bench photos at `--size 256`
    /// give 43.4 dB pooled, 36.2 the worst, as JPEG's 46.6 and 38.0. Colours are compared
    /// premultiplied: the colour of an almost transparent pixel is invisible, and free to differ.
    /// Lossy, lossy with alpha, lossless with alpha, rotated; fit, cover and two scales.
    @Test(arguments: ["lossy", "lossy-alpha", "lossless", "lossy-exif-6"])
    func shrinkOnLoadStaysCloseToTheFullDecode(name: String) throws {
        let webp = Self.bytes(name)
        for (size, scales) in [(ThumbnailSize(width: 40, height: 40), [1]), (ThumbnailSize(width: 100, height: 100), [1]),
                               (ThumbnailSize(width: 60, height: 60, mode: .cover), [1]),
                               (ThumbnailSize(width: 30, height: 30), [1, 2])] {
            let options = ThumbnailOptions(size: size)
            #expect(try DecodeTestPlan.plan(webp, options: options, scales: scales).scaledSize != nil)
            let shrunk = try Thumbnailer(options: options).thumbnails(of: .bytes(webp), scales: scales)
            let exact = try Thumbnailer(options: ThumbnailOptions(size: size, shrinkOnLoad: false)).thumbnails(of: .bytes(webp), scales: scales)
            for (a, b) in zip(shrunk, exact) {
                #expect(a.image.width == b.image.width && a.image.height == b.image.height)
                let (psnr, peak) = JPEGFixtures.psnr(Self.premultiplied(a.image), Self.premultiplied(b.image))
                print("webp shrink \(name) \(size) @\(a.scale)x: PSNR \(String(format: "%.2f", psnr)) dB, max difference \(peak)")
                #expect(psnr >= 36, "\(name) \(size) @\(a.scale)x: PSNR \(psnr) dB")
                #expect(peak <= 40, "\(name) \(size) @\(a.scale)x: max difference \(peak)")
            }
        }
    }

    /// The image with each colour sample multiplied by its alpha (rounded), alpha kept.
    static func premultiplied(_ image: Image) -> Image {
        var samples = image.rgba8
        for i in stride(from: 0, to: samples.count, by: 4) {
            let a = Int(samples[i + 3])
            for c in 0..<3 { samples[i + c] = UInt8((Int(samples[i + c]) * a + 127) / 255) }
        }
        return Image(width: image.width, height: image.height, rgba8: samples)
    }

    /// With `shrinkOnLoad` off the image is decoded at full size: the thumbnail is exactly the one
    /// made from the full decode, and within ±1 of the float64 reference resampling (the project's
    /// bar), which the reduced decode misses here, so the comparison can fail.
    @Test func exactModeMatchesTheFullDecode() throws {
        let size = ThumbnailSize(width: 40, height: 40)
        let webp = Self.bytes("lossy")
        let exact = Thumbnailer(options: ThumbnailOptions(size: size, shrinkOnLoad: false))
        let full = try ImageSource.bytes(webp).decodeAsStored()
        let image = try exact.thumbnails(of: .bytes(webp))[0].image
        #expect(image == (try exact.pixels(of: full)))
        let plan = exact.plan(sourceWidth: full.width, sourceHeight: full.height, scale: 1)
        let reference = Image(width: plan.width, height: plan.height,
                              rgba8: ReferenceResampler.bytes(full, width: plan.width, height: plan.height, region: plan.region))
        #expect(JPEGFixtures.psnr(image, reference).maxDifference <= 1)
        let shrunk = try Thumbnailer(options: ThumbnailOptions(size: size)).thumbnails(of: .bytes(webp))[0].image
        #expect(JPEGFixtures.psnr(shrunk, reference).maxDifference > 1)
    }

    /// The plan counts the scaled image, not the full one.
    @Test func theMemoryPlanCountsTheScaledImage() throws {
        let webp = Self.bytes("lossy")
        func planned(_ options: ThumbnailOptions) throws -> UInt64 {
            let decoder = try ImageSource.bytes(webp).openDecoder(limits: options.limits)
            let thumbnailer = Thumbnailer(options: options)
            let plan = DecodePlan(header: decoder.header, decoder: type(of: decoder), options: options, scales: [1]) {
                thumbnailer.plan(sourceWidth: $0, sourceHeight: $1, scale: $2)
            }
            let fit = thumbnailer.plan(sourceWidth: plan.width, sourceHeight: plan.height, scale: 1)
            return MemoryPlan(header: decoder.header, decoding: plan, fits: [fit], kernel: options.kernel,
                              decoderBytes: decoder.workingBytes).bytes
        }
        let size = ThumbnailSize(width: 40, height: 40)
        let exact = try planned(ThumbnailOptions(size: size, shrinkOnLoad: false)), shrunk = try planned(ThumbnailOptions(size: size))
        // At least the image (320×480 against 54×80); also a shorter source row and filter window.
        #expect(exact > shrunk && exact - shrunk >= 4 * (320 * 480 - 54 * 80))
    }
}
