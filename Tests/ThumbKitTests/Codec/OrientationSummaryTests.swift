import Testing
@testable import ThumbKit
import TestSupport

/// What `thumbgen info` appends about orientation, for every format that carries one: the value,
/// its name, and that it is applied (a HEIF file's EXIF orientation is named as not applied).
@Suite struct OrientationSummaryTests {
    static let names = [1: "upright", 2: "mirror horizontally", 3: "rotate 180°", 4: "mirror vertically", 5: "transpose",
                        6: "rotate 90° clockwise", 7: "transverse", 8: "rotate 90° counter-clockwise"]

    static func expected(_ value: Int) -> String? {
        value == 1 ? nil : "orientation \(value) (\(names[value]!)), applied"
    }

    @Test(arguments: 1...8)
    func jpegAndPNGName(value: Int) throws {
        let exif = JPEGFixtures.exif(orientation: UInt16(value), bigEndian: value % 2 == 0)
        let jpeg = JPEGFixtures.encode(JPEGFixtures.rgb(width: 8, height: 6) { _, _ in (10, 20, 30) }, width: 8, height: 6, exif: exif)
        #expect(try ImageSource.bytes(jpeg).header().orientationSummary == Self.expected(value))
        let png = try PNGEncoder().encode(Image(width: 2, height: 2, rgba8: [UInt8](repeating: 255, count: 16)))
        #expect(try ImageSource.bytes(JPEGFixtures.insertChunk("eXIf", exif, into: png)).header().orientationSummary == Self.expected(value))
    }

    @Test func tiffWebPAndRAWName() throws {
        for path in ["tiff/orientation-6.tif", "webp/lossy-exif-6.webp", "raw/synthetic.dng"] {
            #expect(try ImageSource.file(Fixtures.path(path)).header().orientationSummary == "orientation 6 (rotate 90° clockwise), applied", "\(path)")
        }
        #expect(try ImageSource.file(Fixtures.path("raw/synthetic.cr3")).header().orientationSummary
                == "orientation 8 (rotate 90° counter-clockwise), applied")
        #expect(try ImageSource.file(Fixtures.path("raw/synthetic.raf")).header().orientationSummary == "orientation 3 (rotate 180°), applied")
    }

    /// libheif applies HEIF's own transforms (the header is already upright); an EXIF orientation
    /// inside is reported as not applied.
    @Test func heifTransformsAreNotAnOrientation() throws {
        #expect(try ImageSource.file(Fixtures.path("heif/irot-90.heic")).header().orientationSummary == nil)
        let header = ImageHeader(format: .heif, storedWidth: 4, storedHeight: 2, orientation: .topLeft, bitDepth: 8, hasAlpha: false,
                                 colorSource: .sRGB, scanOrder: .sequential, details: .heif(brand: "heic", images: 1, thumbnails: 0),
                                 metadata: EmbeddedMetadata(exif: JPEGFixtures.exif(orientation: 6, bigEndian: true)))
        #expect(header.orientationSummary == "orientation 6 (rotate 90° clockwise) in EXIF, not applied (HEIF transforms are)")
    }
}
