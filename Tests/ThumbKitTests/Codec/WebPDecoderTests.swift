import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// WebP through the front door: the header, thumbnails, what follows the RIFF chunk, and lying
/// sizes (its pixels against Pillow's libwebp build, and damaged copies, in
/// `FormatConformanceTests`).
@Suite struct WebPDecoderTests {
    static let names = ["lossy", "lossy-alpha", "lossless", "lossless-opaque", "lossless-icc", "lossy-exif-6", "animated"]

    static func bytes(_ name: String) -> [UInt8] { Fixtures.bytes("webp/" + name) }

    @Test func headersSayWhatTheFilesAre() throws {
        func header(_ name: String) throws -> ImageHeader { try ImageSource.bytes(Self.bytes(name + ".webp")).header() }
        #expect(try header("lossy").details == .webp(lossless: false, frames: 1))
        #expect(try header("lossy").hasAlpha == false)
        #expect(try header("lossy-alpha").hasAlpha)
        #expect(try header("lossless").details == .webp(lossless: true, frames: 1))
        #expect(try header("lossless").hasAlpha)
        #expect(try header("lossless-opaque").hasAlpha == false)
        #expect(try header("animated").details == .webp(lossless: true, frames: 3))
        let rotated = try header("lossy-exif-6")
        #expect(rotated.orientation == .rightTop && rotated.storedWidth == 80 && rotated.width == 60)
        #expect(try header("lossless-icc").colorSource == .iccProfile(Self.bytes("lossless-icc.icc")))
        #expect(try header("lossy").description == "80x120, webp lossy, 8-bit, still, opaque")
        #expect(try header("animated").description == "80x120, webp lossless, 8-bit, animated, 3 frames, transparency")
        #expect(try ImageSource.bytes(Self.bytes("lossy.webp")).format() == .webp)
    }

    /// The thumbnail of a WebP is made as any other: upright, in a box, and the same from the file
    /// as from its bytes.
    @Test func thumbnailsAreUprightAndTheSameFromFileOrBytes() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 30, height: 30)))
        let fromFile = try thumbnailer.thumbnails(of: .file(Fixtures.path("webp/lossy-exif-6.webp")), scales: [1, 2])
        let fromBytes = try thumbnailer.thumbnails(of: .bytes(Self.bytes("lossy-exif-6.webp")), scales: [1, 2])
        #expect(fromFile.map(\.bytes) == fromBytes.map(\.bytes))
        #expect(fromFile.map { [$0.image.width, $0.image.height] } == [[23, 30], [46, 60]])
    }

    /// Bytes after the RIFF chunk are not part of the image, and are never read from a file.
    @Test func whatFollowsTheRIFFChunkIsIgnored() throws {
        let webp = Self.bytes("lossless.webp")
        let path = Fixtures.temporaryDirectory("webp") + "/trailing.webp"
        try Data(webp + [UInt8](repeating: 0xAB, count: 100_000)).write(to: URL(fileURLWithPath: path))
        #expect(try ImageSource.file(path).decodeAsStored() == ImageSource.bytes(webp).decodeAsStored())
    }

    /// A header that lies about the size: a RIFF size past the end is a truncated file; a canvas
    /// of 16384x16384 is refused from the header by the pixel limit, before anything is allocated.
    @Test func lyingSizes() throws {
        var webp = Self.bytes("animated.webp")
        #expect(Array(webp[12..<16]) == Array("VP8X".utf8))
        var longer = webp
        longer.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(webp.count + 1000).littleEndian, Array.init))
        #expect(throws: DecodeError.truncated) { _ = try ImageSource.bytes(longer).header() }
        // VP8X canvas: 24-bit width-1 and height-1 at offsets 24 and 27.
        for offset in [24, 27] { webp.replaceSubrange(offset..<offset + 3, with: [0xFF, 0x3F, 0x00]) }
        let limits = DecodeLimits(maxPixels: 250_000_000)
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .pixels, width: 16384, height: 16384,
                                                                  actual: 16384 * 16384, allowed: 250_000_000))) {
            _ = try ImageSource.bytes(webp).header(limits: limits)
        }
        var budget = limits
        let big = Fixtures.temporaryDirectory("webp") + "/big.webp"
        try Data(Self.bytes("animated.webp")).write(to: URL(fileURLWithPath: big))
        budget.maxMemory = 1000
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .memory, actual: UInt64(Self.bytes("animated.webp").count),
                                                                  allowed: 1000))) {
            _ = try ImageSource.file(big).header(limits: budget)
        }
    }
}
