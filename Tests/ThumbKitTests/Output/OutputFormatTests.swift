import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// JPEG and WebP output: what the files hold, how close lossy files come to the pixels encoded,
/// determinism, flattening for JPEG, and the settings' round trip through a manifest description.
@Suite struct OutputFormatTests {
    static let cat = ImageSource.file(Fixtures.path("photos/cat-rgba8.png"))

    static func thumbnail(_ format: OutputFormat, size: Int = 128, mode: FitMode = .inside, radius: Double = 0,
                          background: Color? = nil, keepProfile: Bool = false,
                          source: ImageSource = cat) throws -> Thumbnail {
        var options = ThumbnailOptions(size: ThumbnailSize(width: size, height: size, mode: mode), cornerRadius: radius,
                                       background: background, keepProfile: keepProfile)
        options.format = format
        return try Thumbnailer(options: options).thumbnails(of: source, scales: [1])[0]
    }

    static func decoded(_ thumbnail: Thumbnail) throws -> Image {
        try ImageSource.bytes(thumbnail.bytes).decodeAsStored()
    }

    /// The JPEG marker segments before the scan: (marker, payload).
    static func segments(_ jpeg: [UInt8]) -> [(UInt8, [UInt8])] {
        var out: [(UInt8, [UInt8])] = []
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1], length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            out.append((marker, Array(jpeg[(i + 4)..<min(jpeg.count, i + 2 + length)])))
            if marker == 0xDA { break }
            i += 2 + length
        }
        return out
    }

    @Test func jpegAtQuality85IsCloseToThePixelsEncodedAndAFractionOfThePNG() throws {
        let png = try Self.thumbnail(.png, background: .white)
        let jpeg = try Self.thumbnail(.jpeg(JPEGEncoder()))
        #expect(jpeg.image == png.image, "flattened onto white by default, the same pixels as PNG over white")
        let back = try Self.decoded(jpeg)
        let quality = JPEGFixtures.psnr(back, jpeg.image)
        #expect(quality.psnr > 30, "\(quality)")
        let low = JPEGFixtures.psnr(try Self.decoded(try Self.thumbnail(.jpeg(JPEGEncoder(quality: 20)))), jpeg.image)
        #expect(low.psnr < quality.psnr - 3, "quality is passed on: \(low) vs \(quality)")
        #expect(jpeg.bytes.count * 3 < png.bytes.count, "\(jpeg.bytes.count) vs \(png.bytes.count)")
        let header = try ImageSource.bytes(jpeg.bytes).header()
        #expect(header.format == .jpeg && header.storedWidth == jpeg.image.width && header.scanOrder == .sequential)
    }

    @Test func jpegSettingsReachTheFile() throws {
        func sof(_ encoder: JPEGEncoder) throws -> (marker: UInt8, sampling: [UInt8]) {
            let bytes = try Self.thumbnail(.jpeg(encoder)).bytes
            let frame = try #require(Self.segments(bytes).first { [0xC0, 0xC1, 0xC2].contains($0.0) })
            // Per component: id, sampling factors (h << 4 | v), table.
            return (frame.0, stride(from: 7, to: frame.1.count, by: 3).map { frame.1[$0] })
        }
        let baseline = try sof(JPEGEncoder())
        #expect(baseline.marker == 0xC0 && baseline.sampling == [0x22, 0x11, 0x11])
        #expect(try sof(JPEGEncoder(chroma: .full)).sampling == [0x11, 0x11, 0x11])
        #expect(try sof(JPEGEncoder(progressive: true)).marker == 0xC2)
        #expect(try ImageSource.bytes(try Self.thumbnail(.jpeg(JPEGEncoder(progressive: true))).bytes).header().scanOrder == .progressive)
        // Nothing but JFIF (APP0), tables, frame and scan: no EXIF, comment or timestamp.
        let markers = Self.segments(try Self.thumbnail(.jpeg(JPEGEncoder())).bytes).map(\.0)
        #expect(Set(markers).isSubset(of: [0xE0, 0xDB, 0xC4, 0xC0, 0xC1, 0xDA]), "\(markers)")
    }

    @Test func aGrayImageIsOneComponentAndTransparencyIsRefused() throws {
        var ramp: [UInt8] = []
        for i in 0..<128 { ramp += [UInt8(i * 2), UInt8(i * 2), UInt8(i * 2), 255] }
        let gray = Image(width: 16, height: 8, rgba8: ramp)
        let bytes = try JPEGEncoder().encode(gray)
        #expect(try ImageSource.bytes(bytes).header().details == .jpeg(colorSpace: .gray, components: 1, adobeMarker: false))
        let back = try ImageSource.bytes(bytes).decodeAsStored()
        #expect(JPEGFixtures.psnr(back, gray).psnr > 40)
        var clear = gray.rgba8
        clear[3] = 254
        #expect(throws: EncodeError.failed(.jpeg, reason: "the image has transparency, which JPEG cannot hold")) {
            try JPEGEncoder().encode(Image(width: 16, height: 8, rgba8: clear))
        }
        #expect(throws: EncodeError.failed(.jpeg, reason: "quality 0 is not 1…100")) { try JPEGEncoder(quality: 0).encode(gray) }
        #expect(throws: EncodeError.failed(.webp, reason: "quality 101 is not 1…100")) { try WebPEncoder(quality: 101).encode(gray) }
    }

    @Test func jpegFlattensCornersAndMarginsOntoTheBackground() throws {
        let white = try Self.thumbnail(.jpeg(JPEGEncoder()), size: 64, mode: .contain, radius: 12)
        #expect(JPEGFixtures.pixel(white.image, 0, 0) == [255, 255, 255, 255])
        let red = try Self.thumbnail(.jpeg(JPEGEncoder()), size: 64, mode: .contain, radius: 12, background: Color(red: 255, green: 0, blue: 0))
        #expect(JPEGFixtures.pixel(red.image, 0, 0) == [255, 0, 0, 255])
        let decodedCorner = JPEGFixtures.pixel(try Self.decoded(red), 0, 0)
        #expect(decodedCorner[0] > 230 && decodedCorner[1] < 30 && decodedCorner[2] < 30, "\(decodedCorner)")
    }

    @Test func losslessWebPGivesBackEverySampleIncludingAlpha() throws {
        let thumbnail = try Self.thumbnail(.webp(WebPEncoder(lossless: true)), size: 64, mode: .contain, radius: 10)
        #expect(JPEGFixtures.pixel(thumbnail.image, 0, 0)[3] == 0, "transparent corners kept")
        #expect(try Self.decoded(thumbnail) == thumbnail.image)
        #expect(try ImageSource.bytes(thumbnail.bytes).header().details == .webp(lossless: true, frames: 1))
        #expect(try ImageSource.bytes(thumbnail.bytes).header().hasAlpha)
    }

    @Test func lossyWebPIsCloseAndAnOpaqueOneHasNoAlphaPlane() throws {
        let thumbnail = try Self.thumbnail(.webp(WebPEncoder()), background: .white)
        let header = try ImageSource.bytes(thumbnail.bytes).header()
        #expect(header.details == .webp(lossless: false, frames: 1) && !header.hasAlpha)
        let quality = JPEGFixtures.psnr(try Self.decoded(thumbnail), thumbnail.image)
        #expect(quality.psnr > 30, "\(quality)")
        let alpha = try Self.thumbnail(.webp(WebPEncoder()), size: 64, radius: 10)
        #expect(try ImageSource.bytes(alpha.bytes).header().hasAlpha)
        #expect(JPEGFixtures.pixel(try Self.decoded(alpha), 0, 0)[3] == 0)
    }

    @Test(arguments: [OutputFormat.png, .jpeg(JPEGEncoder(quality: 70, progressive: true, chroma: .full)),
                      .webp(WebPEncoder()), .webp(WebPEncoder(quality: 50, lossless: true))])
    func outputIsDeterministicAndItsSettingsRoundTrip(format: OutputFormat) throws {
        let a = try Self.thumbnail(format), b = try Self.thumbnail(format)
        #expect(a.bytes == b.bytes)
        var options = ThumbnailOptions()
        options.format = format
        let description = options.canonicalDescription
        #expect(try ThumbnailOptions(canonicalDescription: description) == options)
        #expect(description.contains("format=") == (format != .png), "PNG descriptions stay as they were: \(description)")
    }

    @Test func aBadFormatFieldIsNamed() {
        var options = ThumbnailOptions()
        options.format = .jpeg(JPEGEncoder())
        let text = options.canonicalDescription.replacingOccurrences(of: "chroma=420", with: "chroma=411")
        #expect(throws: ThumbnailSettingsError(text: text, field: "chroma")) { try ThumbnailOptions(canonicalDescription: text) }
        let unknown = ThumbnailOptions().canonicalDescription + ";format=jxl"
        #expect(throws: ThumbnailSettingsError(text: unknown, field: "format")) { try ThumbnailOptions(canonicalDescription: unknown) }
    }

    @Test func aKeptProfileIsEmbeddedInJPEGAndWebP() throws {
        let profile = try JPEGFixtures.displayP3Profile()
        let pixels = JPEGFixtures.rgb(width: 64, height: 48) { x, y in (UInt8(x * 4), UInt8(y * 5), 128) }
        let source = ImageSource.bytes(JPEGFixtures.encode(pixels, width: 64, height: 48, icc: profile))
        for format in [OutputFormat.jpeg(JPEGEncoder()), .webp(WebPEncoder())] {
            let kept = try Self.thumbnail(format, size: 32, keepProfile: true, source: source)
            #expect(try ImageSource.bytes(kept.bytes).header().colorSource == .iccProfile(profile), "\(format)")
            let converted = try Self.thumbnail(format, size: 32, source: source)
            #expect(try ImageSource.bytes(converted.bytes).header().colorSource == .sRGB, "\(format)")
        }
    }
}
