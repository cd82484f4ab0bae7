import Foundation
import Testing
@testable import ThumbKit
import TestSupport

@Suite struct ThumbnailerTests {
    static let photo = Fixtures.path("../../Assets/samples/photos/fresh-flower.png")

    @Test func optionsSurviveTheirCanonicalDescription() throws {
        let samples: [ThumbnailOptions] = [
            ThumbnailOptions(),
            ThumbnailOptions(size: ThumbnailSize(width: 300, height: 200, mode: .cover, scale: .any), gravity: .northEast,
                             kernel: .mitchell, light: .sRGB, cornerRadius: 12.5,
                             background: Color(red: 1, green: 2, blue: 3, alpha: 4), colorType: .rgba),
            ThumbnailOptions(size: ThumbnailSize(width: 64, height: 64, mode: .contain, scale: .enlargeOnly)),
            { var o = ThumbnailOptions(); o.autoRotate = false; o.keepProfile = true; return o }(),
            ThumbnailOptions(shrinkOnLoad: false),
        ]
        for options in samples {
            let parsed = try ThumbnailOptions(canonicalDescription: options.canonicalDescription)
            #expect(parsed == options)
            #expect(parsed.digest == options.digest)
        }
        #expect(throws: ThumbnailSettingsError.self) { _ = try ThumbnailOptions(canonicalDescription: "size=0x1;fit=inside") }
        #expect(ThumbnailOptions().digest != ThumbnailOptions(kernel: .box).digest)
    }

    @Test func streamedAndWholeDecodingGiveTheSamePixels() throws {
        // One scale of a plain PNG streams rows; two scales decode whole. Same @1x either way.
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 100, height: 100)))
        let streamed = try thumbnailer.thumbnails(of: .file(Self.photo), scales: [1])
        let whole = try thumbnailer.thumbnails(of: .file(Self.photo), scales: [1, 2])
        #expect(streamed[0] == whole[0])
        // @2x is exactly twice @1x (the 200-pixel box alone would give 200×151).
        #expect((whole[1].image.width, whole[1].image.height) == (200, 150))
        #expect((streamed[0].image.width, streamed[0].image.height) == (100, 75))
    }

    @Test func coverWithRoundedCornersIsExactlyTheBoxWithTransparentCorners() throws {
        let options = ThumbnailOptions(size: ThumbnailSize(width: 64, height: 64, mode: .cover), cornerRadius: 16)
        let image = try Thumbnailer(options: options).thumbnails(of: .file(Self.photo))[0].image
        #expect((image.width, image.height) == (64, 64))
        let rgba = image.rgba8
        #expect(rgba[3] == 0, "corner pixel transparent")
        #expect(rgba[(32 * 64 + 32) * 4 + 3] == 255, "centre opaque")
        #expect(rgba[(32 * 64) * 4 + 3] == 255, "edge midpoint opaque")
    }

    @Test func containLetterboxesOntoTheBackground() throws {
        let options = ThumbnailOptions(size: ThumbnailSize(width: 100, height: 100, mode: .contain),
                                       background: Color(red: 0, green: 0, blue: 255))
        let image = try Thumbnailer(options: options).thumbnails(of: .file(Self.photo))[0].image
        #expect((image.width, image.height) == (100, 100))
        let rgba = image.rgba8
        #expect(Array(rgba[0..<4]) == [0, 0, 255, 255], "top margin is the background")
        #expect(Array(rgba[(99 * 100) * 4..<(99 * 100) * 4 + 4]) == [0, 0, 255, 255], "bottom margin too")
        #expect(rgba[(50 * 100 + 50) * 4 + 2] != 255 || rgba[(50 * 100 + 50) * 4] != 0, "the photo in the middle")
        #expect(stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 255 }, "opaque")
    }

    @Test func sameSizeIsThePixelExactSource() throws {
        for name in ["basn6a16.png", "tbbn3p08.png", "basi0g04.png"] {
            let path = Fixtures.path("pngsuite/" + name)
            // Their colours kept (PngSuite labels them gAMA 1.0): the samples as stored.
            let thumbnail = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 32, height: 32), keepProfile: true))
                .thumbnails(of: .file(path))[0]
            #expect(thumbnail.image == (try PNGDecoder.decode(path: path)).converted8())
            #expect(try PNGDecoder.decode(bytes: thumbnail.bytes) == thumbnail.image)
        }
    }

    @Test func neverEnlargesUnlessAsked() throws {
        let path = Fixtures.path("pngsuite/basn2c08.png")
        let small = try Thumbnailer().thumbnails(of: .file(path))[0].image
        #expect((small.width, small.height) == (32, 32))
        let enlarged = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 128, height: 128, scale: .any)))
            .thumbnails(of: .file(path))[0].image
        #expect((enlarged.width, enlarged.height) == (128, 128))
    }
}

@Suite struct ThumbnailerLimitTests {
    @Test func enlargedOutputsAreHeldToThePixelLimit() throws {
        let path = Fixtures.path("pngsuite/basn2c08.png")
        var options = ThumbnailOptions(size: ThumbnailSize(width: 100_000, height: 100_000, scale: .any))
        options.limits.maxPixels = 1_000_000
        let error = #expect(throws: ThumbnailError.self) { _ = try Thumbnailer(options: options).thumbnails(of: .file(path)) }
        #expect(error?.message == "thumbnail would be 100000x100000 (10000000000 pixels), above the limit of 1000000 pixels")
        #expect(error?.exceededLimit?.limit == .outputPixels)
        // Without enlarging, a huge box is just "never scale".
        let copy = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 100_000, height: 100_000)))
            .thumbnails(of: .file(path))[0].image
        #expect((copy.width, copy.height) == (32, 32))
    }
}
