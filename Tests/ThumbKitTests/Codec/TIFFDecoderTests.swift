import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// TIFF through the front door: the header, the first-page and orientation rules, and lying sizes
/// (its pixels against Pillow's, and damaged copies, in `FormatConformanceTests`).
@Suite struct TIFFDecoderTests {
    static let names = ["rgb", "rgba-lzw", "gray-deflate", "gray16", "palette", "cmyk", "jpeg-ycbcr", "tiles",
                        "orientation-6", "icc", "two-pages"]

    static func bytes(_ name: String) -> [UInt8] { Fixtures.bytes("tiff/" + name) }

    @Test func headersSayWhatTheFilesAre() throws {
        func header(_ name: String) throws -> ImageHeader { try ImageSource.bytes(Self.bytes(name + ".tif")).header() }
        #expect(try header("rgb").description == "80x120, tiff rgb, 8-bit, strips, opaque")
        #expect(try header("tiles").description == "80x120, tiff rgb, 8-bit, tiles, opaque")
        #expect(try header("rgba-lzw").hasAlpha)
        #expect(try header("gray16").bitDepth == 16)
        #expect(try header("cmyk").details == .tiff(photometric: "cmyk", samples: 4, tiled: false))
        #expect(try header("icc").colorSource == .iccProfile(Self.bytes("icc.icc")))
        let rotated = try header("orientation-6")
        #expect(rotated.orientation == .rightTop && rotated.width == 60 && rotated.height == 80)
        #expect(try ImageSource.bytes(Self.bytes("rgb.tif")).format() == .tiff)
    }

    /// The Orientation tag turns the thumbnail upright, as EXIF's does for a JPEG; a two-page file
    /// gives its first page.
    @Test func orientationAndPages() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 30, height: 30)))
        let upright = try thumbnailer.thumbnails(of: .file(Fixtures.path("tiff/orientation-6.tif")))
        #expect(upright[0].image.width == 23 && upright[0].image.height == 30)
        let first = try ImageSource.bytes(Self.bytes("two-pages.tif")).decodeAsStored()
        #expect(first == (try ImageSource.bytes(Self.bytes("rgb.tif")).decodeAsStored()))
    }

    /// A first directory that claims 100000x100000 pixels is refused from the directory, before
    /// the raster exists.
    @Test func lyingSizesAreRefusedFromTheDirectory() throws {
        var tiff = Self.bytes("rgb.tif")
        #expect(Array(tiff.prefix(4)) == [0x49, 0x49, 0x2A, 0x00])   // "II*\0": little-endian TIFF
        let directory = Int(tiff[4]) | Int(tiff[5]) << 8 | Int(tiff[6]) << 16 | Int(tiff[7]) << 24
        let entries = Int(tiff[directory]) | Int(tiff[directory + 1]) << 8
        for i in 0..<entries {
            let entry = directory + 2 + i * 12
            let tag = Int(tiff[entry]) | Int(tiff[entry + 1]) << 8
            guard tag == 256 || tag == 257 else { continue }   // ImageWidth, ImageLength
            // As a LONG of 100000 (type 4, count 1).
            tiff.replaceSubrange(entry + 2..<entry + 12, with: [4, 0, 1, 0, 0, 0, 0xA0, 0x86, 0x01, 0x00])
        }
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .pixels, width: 100_000, height: 100_000,
                                                                  actual: 10_000_000_000, allowed: 250_000_000))) {
            _ = try ImageSource.bytes(tiff).header()
        }
        #expect(throws: DecodeError.truncated) { _ = try ImageSource.bytes(Array("II*".utf8)).header() }
    }
}
