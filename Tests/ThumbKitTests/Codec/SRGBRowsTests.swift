import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Images whose colours are converted to sRGB stream: each row goes through the lcms2 transform
/// the whole image would, so the rows, the thumbnails' pixels and the warnings are those of
/// converting the whole decoded image.
@Suite struct SRGBRowsTests {
    /// A 64 × 20 picture with every channel moving (too many colours for a palette), and alpha
    /// too when `alpha`.
    static func gradient(alpha: Bool) -> Image {
        var rgba: [UInt8] = []
        for y in 0..<20 {
            for x in 0..<64 {
                let r = UInt8(x * 4 + 1), g = UInt8(250 - y * 12), b = UInt8((x * y * 7) % 256)
                rgba += [r, g, b, alpha ? UInt8(255 - x * 3) : 255]
            }
        }
        return Image(width: 64, height: 20, rgba8: rgba)
    }

    static func png(_ image: Image, colorType: PNGEncoder.ColorTypeChoice, icc: [UInt8]) throws -> [UInt8] {
        var encoder = PNGEncoder(colorType: colorType)
        encoder.iccProfile = icc
        return try encoder.encode(image)
    }

    /// Sources with colours to convert, each with the reduction to decode it at: PNGs with a
    /// Display P3 profile (RGBA and RGB rows), PngSuite's gAMA files (gray+alpha, and 16-bit RGB
    /// and gray), and a P3 JPEG at full size and at ½.
    static func sources() throws -> [(name: String, bytes: [UInt8], reduction: Int)] {
        let p3 = try JPEGFixtures.displayP3Profile()
        let jpegPixels = JPEGFixtures.rgb(width: 40, height: 24) { x, y in (UInt8(x * 6), UInt8(255 - y * 10), UInt8((x * y) % 256)) }
        let jpeg = JPEGFixtures.encode(jpegPixels, width: 40, height: 24, quality: 95, icc: p3)
        return [
            ("rgba8 p3", try png(gradient(alpha: true), colorType: .rgba, icc: p3), 1),
            ("rgb8 p3", try png(gradient(alpha: false), colorType: .automatic, icc: p3), 1),
            ("basn4a08", Fixtures.bytes("pngsuite/basn4a08.png"), 1),
            ("basn2c16", Fixtures.bytes("pngsuite/basn2c16.png"), 1),
            ("basn0g16", Fixtures.bytes("pngsuite/basn0g16.png"), 1),
            ("g04n0g16", Fixtures.bytes("pngsuite/g04n0g16.png"), 1),
            ("jpeg p3", jpeg, 1),
            ("jpeg p3 ½", jpeg, 2),
        ]
    }

    /// The decoder's image at `reduction`, decoded whole.
    static func whole(_ bytes: [UInt8], reduction: Int) throws -> Image {
        let decoder = try ImageSource.bytes(bytes).openDecoder(limits: .default)
        var request = DecodeRequest()
        request.reduction = reduction
        try decoder.start(request)
        guard case .rgba(let image) = try decoder.decodeImage() else { preconditionFailure("RGBA pixels") }
        return image
    }

    /// Every row `SRGBRows` hands out at `reduction`, widened to RGBA, its warning, and the
    /// layout of the rows (samples × bits).
    static func streamed(_ bytes: [UInt8], reduction: Int) throws -> (image: Image, warning: String?, layout: String) {
        let decoder = try ImageSource.bytes(bytes).openDecoder(limits: .default)
        var request = DecodeRequest(streams: true)
        request.reduction = reduction
        try decoder.start(request)
        var rows = SRGBRows(decoder, from: decoder.header.colorSource)
        let image = try RowSourceImage.read(&rows)
        try decoder.finish()
        return (image, rows.warning, "\(rows.rowChannels)×\(rows.bitDepth)")
    }

    @Test func rowsAreTheConvertedWholeImagesRows() throws {
        var rowLayouts: Set<String> = []
        for source in try Self.sources() {
            let header = try ImageSource.bytes(source.bytes).openDecoder(limits: .default).header
            #expect(!header.colorSource.isSRGB, "\(source.name)")
            let whole = try Self.whole(source.bytes, reduction: source.reduction)
            let converted = ColorManagement.convertToSRGB(whole, from: header.colorSource)
            #expect(converted.warning == nil && converted.image != whole, "\(source.name): the conversion changes the pixels")
            let streamed = try Self.streamed(source.bytes, reduction: source.reduction)
            #expect(streamed.warning == nil, "\(source.name)")
            #expect(streamed.image == converted.image, "\(source.name)")
            rowLayouts.insert(streamed.layout)
        }
        // Both row widths and both depths went through the converter.
        #expect(rowLayouts.isSuperset(of: ["4×8", "3×8", "3×16"]), "\(rowLayouts)")
    }

    /// A single size streams now that the colours are converted row by row, and its pixels are
    /// those of the thumbnail of the converted whole image.
    @Test func thumbnailsStreamWithTheWholeImagesPixels() throws {
        let options = ThumbnailOptions(size: ThumbnailSize(width: 10, height: 10))
        for source in try Self.sources() where source.reduction == 1 && !source.name.hasPrefix("jpeg") {
            let plan = try DecodeTestPlan.plan(source.bytes, options: options)
            #expect(plan.streams && plan.colour != .none, "\(source.name)")
            let streamed = try Thumbnailer(options: options).thumbnails(of: .bytes(source.bytes))[0]
            let whole = try DecodedSource.load(source.bytes, options: options)
            #expect(whole.warnings.isEmpty && streamed.warnings.isEmpty, "\(source.name)")
            #expect(streamed.image == (try Thumbnailer(options: options).pixels(of: whole.image)), "\(source.name)")
        }
    }

    /// A profile lcms2 cannot read, or a CMYK profile on RGB pixels: streamed as decoded whole,
    /// the pixels are left as they are and the warning is the same.
    @Test func unusableProfilesGiveTheSameWarningStreamed() throws {
        let pixels = JPEGFixtures.rgb(width: 16, height: 16) { x, _ in (200, UInt8(x * 10), 50) }
        for profile in [[UInt8](repeating: 0x41, count: 300), try ColorManagementTests.cmykProfile()] {
            let jpeg = JPEGFixtures.encode(pixels, width: 16, height: 16, quality: 100, icc: profile)
            let header = try ImageSource.bytes(jpeg).openDecoder(limits: .default).header
            let whole = try Self.whole(jpeg, reduction: 1)
            let converted = ColorManagement.convertToSRGB(whole, from: header.colorSource)
            let streamed = try Self.streamed(jpeg, reduction: 1)
            #expect(converted.warning != nil && streamed.warning == converted.warning, "\(String(describing: streamed.warning))")
            #expect(streamed.image == whole)
            let options = ThumbnailOptions(size: ThumbnailSize(width: 8, height: 8))
            #expect(try DecodeTestPlan.plan(jpeg, options: options).streams)
            let thumbnail = try Thumbnailer(options: options).thumbnails(of: .bytes(jpeg))[0]
            #expect(thumbnail.warnings == [converted.warning!], "\(thumbnail.warnings)")
        }
    }
}
