import Foundation
import Testing
@testable import ThumbKit

/// TIFF through the front door: libtiff's decode against Pillow's (references recorded by
/// `Scripts/make-format-fixtures.py`), the first-page and orientation rules, and hostile files.
@Suite struct TIFFDecoderTests {
    static let names = ["rgb", "rgba-lzw", "gray-deflate", "gray16", "palette", "cmyk", "jpeg-ycbcr", "tiles",
                        "orientation-6", "icc", "two-pages"]

    static func bytes(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: Fixtures.path("tiff/" + name))!)
    }

    /// Each sample premultiplied, as a viewer composites it: libtiff's RGBA reader premultiplies
    /// alpha and thumbgen divides it out again, so the colour of a faint pixel is only as exact as
    /// its alpha allows.
    static func premultiplied(_ image: Image) -> [Int] {
        stride(from: 0, to: image.rgba8.count, by: 4).flatMap { i -> [Int] in
            let a = Int(image.rgba8[i + 3])
            return (0..<3).map { (Int(image.rgba8[i + $0]) * a + 127) / 255 } + [a]
        }
    }

    /// Exact but for the conversions that round differently: CMYK (libtiff's and Pillow's naive
    /// formulas) and 16-bit samples reduced to 8, within one level. Pillow turns a TIFF upright by
    /// its Orientation tag, so the comparison is of the upright image.
    @Test(arguments: names)
    func pixelsMatchAnIndependentDecoder(name: String) throws {
        let source = ImageSource.file(Fixtures.path("tiff/\(name).tif"))
        let decoded = try source.header().orientation.apply(to: source.decodeAsStored())
        let reference = try ImageSource.bytes(Self.bytes("\(name).ref.png")).decodeAsStored()
        #expect(decoded.width == reference.width && decoded.height == reference.height)
        let difference = zip(Self.premultiplied(decoded), Self.premultiplied(reference)).map { abs($0 - $1) }.max() ?? 0
        let tolerance = ["cmyk", "gray16"].contains(name) ? 1 : 0
        #expect(difference <= tolerance, "\(name): \(difference)")
        #expect(try ImageSource.bytes(Self.bytes("\(name).tif")).decodeAsStored() == source.decodeAsStored())
    }

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

    @Test(arguments: ["rgb", "rgba-lzw", "tiles", "jpeg-ycbcr"])
    func damagedFilesFailCleanly(name: String) {
        let tiff = Self.bytes(name + ".tif")
        for cut in stride(from: 4, to: tiff.count, by: max(1, tiff.count / 47)) {
            let error = DecodeErrorProbe.error(of: Array(tiff.prefix(cut)))
            #expect(error != nil, "\(name) cut at \(cut) decoded")
        }
        var generator = SeededGenerator(seed: UInt64(name.utf8.count) + 11)
        for _ in 0..<40 {
            var damaged = tiff
            for _ in 0..<4 { damaged[Int.random(in: 8..<tiff.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            _ = try? ImageSource.bytes(damaged).decodeAsStored()
        }
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
