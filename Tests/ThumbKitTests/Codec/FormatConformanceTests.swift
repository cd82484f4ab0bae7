import Foundation
import Testing
import TestSupport
@testable import ThumbKit

/// Every format's fixtures through the front door, one suite over one table: the pixels against an
/// independent decoder's (Pillow's GIF, TIFF and WebP decoders, pillow-heif and libavif for HEIF:
/// references recorded by `Scripts/make-format-fixtures.py` and `make-heif-fixtures.py`), the same
/// image from a file as from its bytes, and damaged copies that fail with one typed error. What
/// only one format has (its header details, frame placement, transforms, limits) stays in that
/// format's suite.
@Suite struct FormatConformanceTests {
    /// One fixture and how it is held to its reference.
    struct Case: Sendable, CustomTestStringConvertible {
        /// Below `Tests/Fixtures`.
        let file: String
        /// Its independent decode, a PNG below `Tests/Fixtures` (none for PNG and JPEG, which have
        /// conformance suites of their own).
        var reference: String?
        /// Largest difference of any sample from the reference, and largest mean difference.
        var worst = 0
        var mean: Double?
        /// Compared premultiplied, as a viewer composites (the colour of a transparent pixel is not
        /// part of the picture, and a faint pixel's only as exact as its alpha); else sample by sample.
        var premultiplied = true
        /// The reference is upright (Pillow turns a TIFF by its Orientation tag), so the decode is too.
        var upright = false
        /// Copies cut short fail: from how many bytes on, and up to how far the decode reads (later
        /// frames, pages and thumbnail images are never read); nil where nothing is cut.
        var cuts: Range<Int>?
        /// A cut is always "file is truncated" (else it may also be corrupt data, as the library
        /// finds it).
        var cutsAreTruncated = false

        var format: ImageFormat { ImageFormat.detect(Fixtures.bytes(file))! }
        var testDescription: String { file }
    }

    static func gif(_ name: String) -> Case {
        let count = Fixtures.bytes("gif/\(name).gif").count
        // Only the first image is read: the trailer and an animation's later frames never are.
        return Case(file: "gif/\(name).gif", reference: "gif/\(name).ref.png",
                    cuts: 6..<(name == "animated" ? count / 3 : count - 2), cutsAreTruncated: true)
    }

    static func tiff(_ name: String, worst: Int = 0, cut: Bool = false) -> Case {
        Case(file: "tiff/\(name).tif", reference: "tiff/\(name).ref.png", worst: worst, upright: true,
             cuts: cut ? 1..<Fixtures.bytes("tiff/\(name).tif").count : nil)
    }

    /// Lossless data decodes exactly; lossy VP8 leaves libwebp versions free in the YUV to RGB step
    /// (Pillow's 1.6 against the system's).
    static func webp(_ name: String, worst: Int = 0) -> Case {
        Case(file: "webp/\(name).webp", reference: "webp/\(name).ref.png", worst: worst, premultiplied: false,
             cuts: 1..<Fixtures.bytes("webp/\(name).webp").count)
    }

    /// HEVC and AV1 decoders are bit-exact by specification, so what can differ is the YCbCr to RGB
    /// conversion after them. HEIC files, against pillow-heif's newer libheif, are within one level
    /// (its 4:2:0 upsampling and 10-to-8-bit rounding differ by one in a few samples). AVIF files,
    /// against libavif: 4:4:4 ones within one level (its fixed-point matrix rounds differently);
    /// subsampled ones (4:2:0, and the 10-bit file, 4:2:2) within 16 levels at the worst sample and
    /// one on average, because libheif 1.15 repeats each chroma sample where libavif interpolates
    /// between them, which shows at sharp colour edges.
    static func heif(_ file: String, subsampledAVIF: Bool = false, cut: Bool = false) -> Case {
        let reference = file.replacingOccurrences(of: ".heic", with: "-heic.ref.png").replacingOccurrences(of: ".avif", with: "-avif.ref.png")
        return Case(file: "heif/" + file, reference: "heif/" + reference, worst: subsampledAVIF ? 16 : 1, mean: subsampledAVIF ? 1 : 0.2,
                    cuts: cut ? 1..<Fixtures.bytes("heif/" + file).count : nil)
    }

    static let cases: [Case] = ["opaque", "interlaced", "transparent", "animated"].map { gif($0) }
        + ["rgb", "rgba-lzw", "tiles", "jpeg-ycbcr"].map { tiff($0, cut: true) }
        + ["gray-deflate", "palette", "orientation-6", "icc", "two-pages"].map { tiff($0) }
        + [tiff("cmyk", worst: 1), tiff("gray16", worst: 1)]   // naive CMYK, and 16 bits reduced to 8, round differently
        + [webp("lossy", worst: 2), webp("lossy-alpha", worst: 2), webp("lossy-exif-6", worst: 2)]
        + ["lossless", "lossless-opaque", "lossless-icc", "animated"].map { webp($0) }
        + ["opaque.heic", "alpha.heic", "opaque.avif", "alpha.avif", "10bit.heic"].map { heif($0, cut: true) }
        + ["opaque-420.heic", "premultiplied.heic", "irot-90.heic", "icc.heic", "nclx-p3.heic", "thumbnail.heic"].map { heif($0) }
        + [heif("opaque-420.avif", subsampledAVIF: true), heif("10bit.avif", subsampledAVIF: true)]
        + ["hostile/good-rgb.png", "pngsuite/basn6a16.png", "pngsuite/basi3p08.png"].map { Case(file: $0, cuts: 1..<Fixtures.bytes($0).count) }
        + ["baseline", "progressive", "gray", "cmyk"].map { Case(file: "fuzz-seeds/\($0).jpg", cuts: 1..<Fixtures.bytes("fuzz-seeds/\($0).jpg").count) }

    /// Straight samples premultiplied by their alpha.
    static func premultiplied(_ samples: [UInt8]) -> [Int] {
        stride(from: 0, to: samples.count, by: 4).flatMap { i -> [Int] in
            let a = Int(samples[i + 3])
            return (0..<3).map { (Int(samples[i + $0]) * a + 127) / 255 } + [a]
        }
    }

    @Test(arguments: cases.filter { $0.reference != nil })
    func pixelsMatchAnIndependentDecoder(_ test: Case) throws {
        let source = ImageSource.file(Fixtures.path(test.file))
        var decoded = try source.decodeAsStored()
        if test.upright { decoded = try source.header().orientation.apply(to: decoded) }
        let reference = try ImageSource.bytes(Fixtures.bytes(test.reference!)).decodeAsStored()
        #expect(decoded.width == reference.width && decoded.height == reference.height)
        let (a, b) = test.premultiplied ? (Self.premultiplied(decoded.rgba8), Self.premultiplied(reference.rgba8))
                                        : (decoded.rgba8.map(Int.init), reference.rgba8.map(Int.init))
        let differences = zip(a, b).map { abs($0 - $1) }
        let worst = differences.max() ?? 0
        #expect(worst <= test.worst, "worst \(worst)")
        if let mean = test.mean {
            let measured = Double(differences.reduce(0, +)) / Double(max(differences.count, 1))
            #expect(measured <= mean, "mean \(measured)")
        }
    }

    /// A file is read through its descriptor, bytes in memory in place: the same header and pixels.
    @Test(arguments: cases)
    func aFileGivesWhatItsBytesGive(_ test: Case) throws {
        let file = ImageSource.file(Fixtures.path(test.file)), bytes = ImageSource.bytes(Fixtures.bytes(test.file))
        #expect(try file.format() == test.format && bytes.format() == test.format)
        #expect(try file.header() == bytes.header())
        #expect(try file.decodeAsStored() == bytes.decodeAsStored())
    }

    /// A copy cut anywhere in what the decode reads fails, as truncated (or as the format's
    /// corrupt data, where the library meets the cut in a structure it checks first).
    @Test(arguments: cases.filter { $0.cuts != nil })
    func cutCopiesFail(_ test: Case) {
        let data = Fixtures.bytes(test.file), cuts = test.cuts!
        for cut in stride(from: cuts.lowerBound, to: cuts.upperBound, by: max(1, cuts.count / 61)) {
            let error = DecodeErrorProbe.error(of: Array(data.prefix(cut)))
            let allowed: Bool
            switch error {
            case .truncated?: allowed = true
            case .corrupt(let format, _)?: allowed = !test.cutsAreTruncated && format == test.format
            default: allowed = false
            }
            #expect(allowed, "cut at \(cut): \(String(describing: error))")
        }
    }

    /// Bytes flipped anywhere after the signature give a decoded image or a typed error, never a
    /// crash, and the error is one line.
    @Test(arguments: cases)
    func flippedCopiesFailCleanly(_ test: Case) {
        let data = Fixtures.bytes(test.file)
        var generator = SeededGenerator(seed: UInt64(test.file.utf8.count) + 7)
        for _ in 0..<60 {
            var damaged = data
            for _ in 0..<4 { damaged[12 + generator.below(data.count - 12)] ^= UInt8(1 + generator.below(255)) }
            if let error = DecodeErrorProbe.error(of: damaged) {
                #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(error)")
            }
        }
    }
}

/// The error decoding bytes gives, if any.
enum DecodeErrorProbe {
    static func error(of bytes: [UInt8]) -> DecodeError? {
        do { _ = try ImageSource.bytes(bytes).decodeAsStored(); return nil } catch { return error }
    }
}
