import Testing
@testable import ThumbKit
import TestSupport

/// Files from other projects' public test suites (Pillow, sharp, image-rs, libwebp-test-data,
/// libheif) and small equivalents made by Scripts/make-conformance-fixtures.py, each checked
/// against a decoder that is not thumbgen's (issue 30). The reference values come from
/// Scripts/conformance-reference.py: Pillow, lcms2 through Pillow's ImageCms, or the CIE formulas;
/// Tests/Fixtures/conformance/README.md says which file came from where.
@Suite struct ConformanceTests {
    static func bytes(_ name: String) -> [UInt8] { Fixtures.bytes("conformance/" + name) }

    /// The image as the thumbnail pipeline decodes it whole: colour converted to sRGB, upright.
    static func decoded(_ name: String) throws -> DecodedSource { try DecodedSource.load(bytes(name)) }

    /// A NAME.ref.png written by the reference script.
    static func reference(_ name: String) throws -> Image { try ImageSource.bytes(bytes(name + ".ref.png")).decodeAsStored() }

    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Int] { JPEGFixtures.pixel(image, x, y) }

    static func close(_ a: [Int], _ b: [Int], _ tolerance: Int) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// The largest difference of any sample between two images of the same size.
    static func largestDifference(_ a: Image, _ b: Image) -> Int {
        guard a.width == b.width, a.height == b.height else { return Int.max }
        return zip(a.rgba8, b.rgba8).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    // MARK: 1. CIELab through lcms2, D50 white to sRGB's D65

    /// Pillow's Lab test files: white (L* 100), red and green, against lcms2's D50 Lab → sRGB
    /// (Pillow's ImageCms, relative colorimetric with black-point compensation): within 2 levels.
    /// libtiff's own Lab path, used before, gave (255, 252, 222) for the white.
    @Test(arguments: [("lab.tif", [254, 255, 254]), ("lab-red.tif", [253, 0, 125]), ("lab-green.tif", [0, 152, 117])])
    func cielabTIFFsAreConvertedFromD50(name: String, expected: [Int]) throws {
        let image = try Self.decoded(name).image
        for (x, y) in [(0, 0), (5, 5), (9, 9)] {
            let got = Self.pixel(image, x, y)
            #expect(Self.close(got, expected + [255], 2), "\(name) (\(x), \(y)): \(got), lcms2 \(expected)")
        }
        let header = try ImageSource.bytes(Self.bytes(name)).header()
        #expect(header.details == .tiff(photometric: "cielab", samples: 3, tiled: false))
        #expect(header.colorSource == .sRGB && !header.hasAlpha)
    }

    /// A photograph in 8-bit Lab (Pillow's hopper, a 32×32 corner) against lcms2, and a 16-bit LZW
    /// one with a predictor (sharp's cielab-dagams, a 64×48 cut) against the CIE formulas with
    /// Bradford D50 → D65 (which agree with lcms2 within 3 levels on the 8-bit files).
    @Test func cielabPhotographsInEightAndSixteenBits() throws {
        let hopper = try Self.decoded("hopper.Lab-32.tif").image
        let hopperReference: [((Int, Int), [Int])] = [((0, 0), [18, 20, 67]), ((10, 20), [23, 23, 47]),
                                                       ((31, 31), [25, 12, 51]), ((16, 8), [15, 20, 85])]
        for ((x, y), expected) in hopperReference {
            // Within 3: Pillow hands lcms2 8-bit Lab (TYPE_Lab_8), thumbgen hands it floats.
            let got = Array(Self.pixel(hopper, x, y).prefix(3))
            #expect(Self.close(got, expected, 3), "hopper (\(x), \(y)): \(got), lcms2 \(expected)")
        }
        let dagams = try Self.decoded("cielab-dagams-64x48.tif").image
        #expect(dagams.width == 64 && dagams.height == 48)
        let dagamsReference: [((Int, Int), [Int])] = [((0, 0), [73, 104, 72]), ((32, 24), [93, 108, 107]),
                                                       ((63, 47), [131, 128, 154]), ((10, 40), [97, 122, 47])]
        for ((x, y), expected) in dagamsReference {
            let got = Array(Self.pixel(dagams, x, y).prefix(3))
            #expect(Self.close(got, expected, 3), "dagams (\(x), \(y)): \(got), formula \(expected)")
        }
    }

    // MARK: 2–4. CMYK: its profile, its alpha, 16 bits

    /// A CMYK TIFF with a CMYK profile (made here: sharp's FOGRA file carries a 650 KB profile)
    /// goes through the profile, as a CMYK JPEG does: six patches against lcms2 through Pillow's
    /// ImageCms within 2 levels, and at least one visibly different from the naive rule.
    @Test func cmykTIFFProfileIsApplied() throws {
        let loaded = try Self.decoded("cmyk-profile.tif")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let expected: [[Int]] = [[255, 0, 0], [0, 245, 238], [255, 255, 255], [0, 0, 0], [95, 145, 213], [173, 39, 87]]
        let naive = try ImageSource.bytes(Self.bytes("cmyk-profile.tif")).decodeAsStored()
        var differsFromNaive = false
        for (i, reference) in expected.enumerated() {
            let got = Array(Self.pixel(loaded.image, 8 * i + 4, 4).prefix(3))
            #expect(Self.close(got, reference, 2), "patch \(i): \(got), lcms2 \(reference)")
            if !Self.close(got, Array(Self.pixel(naive, 8 * i + 4, 4).prefix(3)), 6) { differsFromNaive = true }
        }
        #expect(differsFromNaive, "the profile was used, not the naive rule")
        // Kept with --keep-profile? A CMYK profile cannot describe the RGB output: not kept.
        let kept = try DecodedSource.load(Self.bytes("cmyk-profile.tif"), options: DecodedSource.options(keepProfile: true))
        #expect(kept.keptProfile == nil)
    }

    /// CMYK with an unassociated alpha sample, LZW with a horizontal predictor (image-rs's
    /// hpredict_cmyk): the naive rule and the alpha as stored, exactly as the reference computes
    /// them from libtiff's tiffcp's uncompressed copy; the corners are transparent.
    @Test func cmykWithAlphaKeepsItsAlpha() throws {
        let header = try ImageSource.bytes(Self.bytes("hpredict_cmyk.tiff")).header()
        #expect(header.hasAlpha)
        let image = try Self.decoded("hpredict_cmyk.tiff").image
        #expect(Self.largestDifference(image, try Self.reference("hpredict_cmyk")) <= 1)
        #expect(Self.pixel(image, 0, 0)[3] == 0 && Self.pixel(image, 31, 31)[3] == 0)
        #expect(Set(stride(from: 3, to: image.rgba8.count, by: 4).map { image.rgba8[$0] }).count >= 8, "graded alpha (16 levels in the file)")
    }

    /// 16-bit CMYK (Pillow's tiff_strip_cmyk_16l, a 40×40 cut): read, not "corrupt"; inks
    /// rounded to 8 bits and the naive rule, within 1 level of the reference.
    @Test func sixteenBitCMYKIsRead() throws {
        let image = try Self.decoded("tiff_strip_cmyk_16l-40.tif").image
        #expect(Self.largestDifference(image, try Self.reference("tiff_strip_cmyk_16l-40")) <= 1)
    }

    // MARK: 5. 12- and 32-bit samples

    /// 12-bit gray (Pillow's 12bit.cropped: values 0–30 of 4095) scaled over its range, and
    /// 32-bit float RGB (image-rs's rgb32f_color, values −0.25–0.93) clamped to 0–1, taken as
    /// sRGB-encoded as Pillow and ImageMagick read floats: exact against numpy's reading.
    @Test(arguments: ["12bit.cropped", "rgb32f_color"])
    func twelveBitAndFloatSamplesAreRead(name: String) throws {
        let file = name == "12bit.cropped" ? name + ".tif" : name + ".tiff"
        let image = try Self.decoded(file).image
        #expect(Self.largestDifference(image, try Self.reference(name)) <= 1)
    }

    /// 32-bit signed integers (Pillow's 16_bit_binary_pgm.tiff) have no one display range: declined
    /// as unsupported, naming the kind.
    @Test func signedIntegerSamplesAreUnsupported() {
        #expect(throws: DecodeError.unsupported(.tiff, reason: "signed 32-bit integer samples")) {
            _ = try ImageSource.bytes(Self.bytes("16_bit_binary_pgm.tiff")).header()
        }
        #expect(DecodeError.unsupported(.tiff, reason: "signed 32-bit integer samples").message
                == "unsupported TIFF: signed 32-bit integer samples")
    }

    // MARK: 6–7. GIF edge cases

    /// No colour table at all (Pillow's no_palette.gif): a gray ramp, as Pillow reads it (index 0
    /// is black), not "no colour map".
    @Test func gifWithoutAnyColourTableUsesAGrayRamp() throws {
        let image = try Self.decoded("no_palette.gif").image
        #expect(image.width == 1 && image.height == 1)
        #expect(Self.pixel(image, 0, 0) == [0, 0, 0, 255])
    }

    /// A first frame of 16×16 on a 10×10 logical screen (image-rs's issue_1455_oversized) grows the
    /// screen to 16×16, as Firefox, Chromium and Pillow show it: exactly Pillow's decode.
    @Test func oversizedFirstFrameGrowsTheScreen() throws {
        let header = try ImageSource.bytes(Self.bytes("issue_1455_oversized.gif")).header()
        #expect(header.width == 16 && header.height == 16)
        let image = try Self.decoded("issue_1455_oversized.gif").image
        #expect(Self.largestDifference(image, try Self.reference("issue_1455_oversized")) == 0)
    }

    // MARK: 9. Unsupported is not corrupt

    /// Valid files a library declines: LZW minimum code size 11 (Pillow decodes the file as blue,
    /// red), lossless JPEG (SOF3; libjpeg-turbo reads it from 3.0), an uncompressed HEIF
    /// (libheif's tests; libheif reads those from 1.17), each as `unsupported …: reason`.
    @Test func validFilesALibraryDeclinesAreUnsupported() throws {
        #expect(throws: DecodeError.unsupported(.gif, reason: "LZW minimum code size above 8 bits")) {
            _ = try ImageSource.bytes(Self.bytes("lzw-code-size-11.gif")).decodeAsStored()
        }
        #expect(throws: DecodeError.unsupported(.jpeg, reason: "lossless JPEG (SOF3), which this libjpeg does not decode")) {
            _ = try ImageSource.bytes(Self.bytes("lossless-sof3.jpg")).decodeAsStored()
        }
        // libheif 1.15 skips the 'unci' item, then finds the primary item missing.
        #expect(throws: DecodeError.unsupported(.heif, reason: "a primary image of item type 'unci' (uncompressed), which libheif 1.15.1 does not decode")) {
            _ = try ImageSource.bytes(Self.bytes("uncompressed_comp_M.heif")).decodeAsStored()
        }
    }

    // MARK: 8. AVIF sequences

    /// A sequence file whose ftyp names no still-image brand (major avis; avis, msf1, miaf, as
    /// Netflix's AVIF sequences have it, which libheif 1.15 refused as "no supported brands") but
    /// which holds a primary still image: that image, exactly as the same file with still-image
    /// brands decodes (Tests/Fixtures/heif/opaque.avif, itself held to Pillow's libavif decode).
    @Test func sequenceBrandedFileGivesItsStillImage() throws {
        let header = try ImageSource.bytes(Self.bytes("sequence-brands.avif")).header()
        #expect(header.details == .heif(brand: "avis", images: 1, thumbnails: 0))
        let image = try ImageSource.bytes(Self.bytes("sequence-brands.avif")).decodeAsStored()
        #expect(image == (try ImageSource.bytes(Fixtures.bytes("heif/opaque.avif")).decodeAsStored()))
    }

    /// A sequence with no still image at all (only a track) is unsupported, not corrupt.
    @Test func sequenceWithoutAStillImageIsUnsupported() {
        #expect(throws: DecodeError.unsupported(.heif, reason: "an image sequence without a still image (only still images are read)")) {
            _ = try ImageSource.bytes(Self.bytes("sequence-only.avif")).header()
        }
    }

    // MARK: 11. Layered AVIF

    /// Xiph's quebec_3layer_op2.avif (three spatial layers, a1op selecting operating point 2,
    /// whose ispe is layer 0's 360×182): dav1d is given that operating point and gives that
    /// layer, against the layer-0 PNG published with the file within 4 levels (it was decoded
    /// and converted to RGB by other software). Before, dav1d gave the 1436×730 top layer and the
    /// file was refused.
    @Test func layeredAVIFGivesItsOperatingPoint() throws {
        let image = try ImageSource.bytes(Self.bytes("quebec_3layer_op2.avif")).decodeAsStored()
        #expect(image.width == 360 && image.height == 182)
        let reference: [((Int, Int), [Int])] = [((0, 0), [41, 30, 42]), ((90, 45), [105, 103, 101]), ((180, 91), [65, 65, 67]),
                                                ((270, 136), [20, 11, 6]), ((359, 181), [82, 72, 60]), ((100, 150), [132, 107, 99])]
        for ((x, y), expected) in reference {
            let got = Array(Self.pixel(image, x, y).prefix(3))
            #expect(Self.close(got, expected, 4), "(\(x), \(y)): \(got), layer-0 PNG \(expected)")
        }
    }

    // MARK: 10. `info` and the thumbnail agree

    /// Every fixture that decodes: the header `info` prints says what the decoded image is (size,
    /// and opaque means no sample below 255; alpha means some). libwebp's bad_palette_index.webp
    /// is opaque by its header; colour indexes past its palette are opaque black, as dwebp, Pillow
    /// and libvips decode it (exactly Pillow's RGB).
    @Test(arguments: ["lab.tif", "hopper.Lab-32.tif", "cielab-dagams-64x48.tif", "cmyk-profile.tif", "hpredict_cmyk.tiff",
                      "tiff_strip_cmyk_16l-40.tif", "12bit.cropped.tif", "rgb32f_color.tiff", "no_palette.gif",
                      "issue_1455_oversized.gif", "bad_palette_index.webp"])
    func infoAndThumbnailAgree(name: String) throws {
        let header = try ImageSource.bytes(Self.bytes(name)).header(limits: .default, decoding: true)
        let image = try Self.decoded(name).image
        #expect(header.width == image.width && header.height == image.height)
        let alphas = stride(from: 3, to: image.rgba8.count, by: 4).map { image.rgba8[$0] }
        #expect(header.hasAlpha == alphas.contains { $0 < 255 }, "\(name): header says alpha \(header.hasAlpha)")
        if name == "bad_palette_index.webp" {
            #expect(Self.largestDifference(image, try Self.reference("bad_palette_index")) == 0)
        }
    }
}
