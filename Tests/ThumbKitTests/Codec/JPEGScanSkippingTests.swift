import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// At 1/8 scale a progressive JPEG's AC scans of the components decoded with a 1×1 IDCT are left
/// unread (clibjpeg's scan filter): their pixels come from the DC coefficients alone. The pixels
/// must be libjpeg's full decode's, to the byte; djpeg (libjpeg-turbo's own tool, on the same
/// library, reading every scan) is the reference.
@Suite struct JPEGScanSkippingTests {
    /// The cat photo cut to 317 × 473, which leaves partial MCUs on both axes, as RGB.
    static let (width, height) = (317, 473)
    static let cat: [UInt8] = {
        let image = try! ImageSource.file(Fixtures.path("photos/cat-rgba8.png")).decodeAsStored()
        var rgb: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { rgb += image.rgba8[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 3] }
        }
        return rgb
    }()
    static let gray: [UInt8] = stride(from: 0, to: cat.count, by: 3).map { cat[$0 + 1] }

    /// A progressive file, and the scans the filter drops at 1/8: libjpeg's standard script has
    /// four AC scans for each component (two first passes and two refinements for luma, one and
    /// one for each chroma component, which 4:2:0 decodes with a 2×2 IDCT and so keeps).
    static let files: [(name: String, bytes: [UInt8], dropped: Int)] = {
        let progressive = { (s: JPEGFixtures.Subsampling) in
            JPEGFixtures.encode(cat, width: width, height: height, quality: 90, progressive: true, subsampling: s)
        }
        let yuv420 = progressive(.s420)
        return [("4:2:0", yuv420, 4), ("4:2:2", progressive(.s422), 8), ("4:4:4", progressive(.s444), 8),
                ("gray", JPEGFixtures.encode(gray, width: width, height: height, components: 1, quality: 90, progressive: true), 4),
                ("4:2:0, a restart marker every MCU", try! jpegtran(["-progressive", "-restart", "1B"], yuv420), 4)]
    }()

    /// What libjpeg-turbo's `tool` writes for `jpeg`, given as a file after `arguments`.
    static func output(of tool: String, _ arguments: [String], for jpeg: [UInt8]) throws -> [UInt8] {
        let input = Fixtures.temporaryDirectory(tool) + ".jpg"
        FileManager.default.createFile(atPath: input, contents: Data(jpeg))
        defer { try? FileManager.default.removeItem(atPath: input) }
        return try RAWDecoderTests.bytes(ofTool: "/usr/bin/" + tool, arguments + [input])
    }

    static func jpegtran(_ arguments: [String], _ jpeg: [UInt8]) throws -> [UInt8] {
        try output(of: "jpegtran", arguments + ["-copy", "none"], for: jpeg)
    }

    /// djpeg's decode at 1/`reduction` scale, as RGBA.
    static func djpeg(_ jpeg: [UInt8], reduction: Int) throws -> Image {
        let pnm = try output(of: "djpeg", ["-scale", "1/\(reduction)", "-pnm"], for: jpeg)
        // "P6" or "P5", width, height, maxval, one whitespace byte, then samples.
        var fields: [String] = [], field = "", index = 0
        while fields.count < 4 {
            let c = Character(UnicodeScalar(pnm[index]))
            index += 1
            if c.isWhitespace { if !field.isEmpty { fields.append(field); field = "" } } else { field.append(c) }
        }
        let (w, h) = (Int(fields[1])!, Int(fields[2])!), channels = fields[0] == "P6" ? 3 : 1
        var rgba: [UInt8] = []
        for p in 0..<(w * h) {
            let sample = pnm[(index + p * channels)..<(index + p * channels + channels)]
            rgba += channels == 3 ? Array(sample) + [255] : [sample.first!, sample.first!, sample.first!, 255]
        }
        return Image(width: w, height: h, rgba8: rgba)
    }

    static func decode(_ jpeg: [UInt8], reduction: Int, allowPartial: Bool = false) throws(DecodeError) -> (image: Image, dropped: Int) {
        let decoder = try JPEGDecoder(bytes: jpeg)
        try decoder.start(DecodeRequest(reduction: reduction, allowPartial: allowPartial))
        guard case .rgba(let image) = try decoder.decodeImage() else { preconditionFailure("an RGB JPEG") }
        return (image, decoder.droppedScans)
    }

    @Test(arguments: files.indices)
    func atOneEighthTheACScansAreSkippedAndThePixelsAreDjpegs(index: Int) throws {
        let file = Self.files[index]
        let (image, dropped) = try Self.decode(file.bytes, reduction: 8)
        #expect(dropped == file.dropped, "\(file.name)")
        #expect(image == (try Self.djpeg(file.bytes, reduction: 8)), "\(file.name)")
    }

    /// A 2×2 or larger IDCT reads AC coefficients: nothing is skipped, and the pixels are djpeg's.
    @Test(arguments: [1, 2, 4])
    func atOtherScalesEveryScanIsRead(reduction: Int) throws {
        for file in Self.files {
            let (image, dropped) = try Self.decode(file.bytes, reduction: reduction)
            let reference = try Self.djpeg(file.bytes, reduction: reduction)
            #expect(dropped == 0 && image == reference, "\(file.name) 1/\(reduction)")
        }
    }

    /// A baseline file has one interleaved scan: nothing to skip, and the same coefficients give
    /// the same pixels as the progressive file they were transcoded from (jpegtran is lossless).
    @Test func aBaselineTranscodeGivesTheSamePixels() throws {
        let progressive = Self.files[0].bytes
        let baseline = try Self.jpegtran(["-optimize"], progressive)
        #expect(try JPEGDecoder(bytes: baseline).header.scanOrder == .sequential)
        let (image, dropped) = try Self.decode(baseline, reduction: 8)
        let reference = try Self.decode(progressive, reduction: 8).image
        #expect(dropped == 0 && image == reference)
        // And through the whole pipeline (a 20-pixel box reduces by 8).
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 20, height: 20)))
        #expect(try thumbnailer.thumbnails(of: .bytes(baseline)) == thumbnailer.thumbnails(of: .bytes(progressive)))
    }

    /// A script that leaves the chroma's AC coefficients one bit short: the full decode smooths
    /// those blocks (libjpeg estimates the missing precision from the neighbours), and 4:2:0
    /// chroma at 1/8 is a 2×2 IDCT, which reads them. The smoothing takes every component's state
    /// into account, so the file is decoded again with every scan read.
    @Test func aFileTheFullDecodeWouldSmoothIsReadWhole() throws {
        let script = Fixtures.temporaryDirectory("scans") + ".txt"
        try """
        0,1,2: 0-0, 0, 1; 0: 1-5, 0, 2; 2: 1-63, 0, 1; 1: 1-63, 0, 1; 0: 6-63, 0, 2; 0: 1-63, 2, 1;
        0,1,2: 0-0, 1, 0; 0: 1-63, 1, 0;
        """.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let unrefined = try Self.jpegtran(["-scans", script], Self.files[0].bytes)
        #expect(try JPEGDecoder(bytes: unrefined).header.scanOrder == .progressive)
        let (image, dropped) = try Self.decode(unrefined, reduction: 8)
        #expect(dropped == 0)
        #expect(image == (try Self.djpeg(unrefined, reduction: 8)))
    }

    /// Where each scan's entropy-coded data starts, with its first component id and spectral start.
    static func scans(_ jpeg: [UInt8]) -> [(data: Int, component: UInt8, spectralStart: UInt8)] {
        var found: [(Int, UInt8, UInt8)] = []
        var i = 2
        while i + 4 < jpeg.count {
            guard jpeg[i] == 0xFF, jpeg[i + 1] != 0x00, jpeg[i + 1] != 0xFF, !(0xD0...0xD7).contains(jpeg[i + 1]) else { i += 1; continue }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == 0xDA {
                let components = Int(jpeg[i + 4])
                found.append((i + 2 + length, jpeg[i + 5], jpeg[i + 5 + 2 * components]))
            }
            i += 2 + length
        }
        return found
    }

    /// Damage inside a skipped scan (a luma AC scan's data overwritten) is not read: the pixels,
    /// which do not depend on it, are djpeg's, which decodes it with warnings.
    @Test func damageInsideASkippedScanIsNotRead() throws {
        var jpeg = Self.files[0].bytes
        let luma = try #require(Self.scans(jpeg).first { $0.component == 1 && $0.spectralStart > 0 })
        for k in 40..<80 { jpeg[luma.data + k] = 0x5A }
        let (image, dropped) = try Self.decode(jpeg, reduction: 8)
        #expect(dropped == 4)
        #expect(image == (try Self.djpeg(jpeg, reduction: 8)))
    }

    /// A marker no encoder writes, inside a skipped scan of a file with restart markers: the full
    /// decode's restart resync skips it and goes on, while the filtered pass meets it between
    /// segments and fails. Whatever the filtered pass cannot stand for (a failure, or a marker
    /// like this one even where the pass succeeds), the file is decoded again with every scan
    /// read, and comes out as djpeg has it.
    @Test func aJunkMarkerSendsTheDecodeBackToEveryScan() throws {
        var jpeg = Self.files[4].bytes
        let luma = try #require(Self.scans(jpeg).first { $0.component == 1 && $0.spectralStart > 0 })
        jpeg[luma.data + 30] = 0xFF
        jpeg[luma.data + 31] = 0x3F
        let (image, dropped) = try Self.decode(jpeg, reduction: 8)
        #expect(dropped == 0)
        #expect(image == (try Self.djpeg(jpeg, reduction: 8)))
    }

    /// Cut inside a skipped scan: still "truncated"; a partial decode reads every scan, as the
    /// full decode would smooth what is missing.
    @Test func aFileCutInsideASkippedScanIsTruncated() throws {
        let whole = Self.files[2].bytes
        let cut = Array(whole[..<(whole.count * 3 / 4)])
        #expect(throws: DecodeError.truncated) { try Self.decode(cut, reduction: 8) }
        let (image, dropped) = try Self.decode(cut, reduction: 8, allowPartial: true)
        let reference = try Self.djpeg(cut, reduction: 8)
        #expect(dropped == 0 && image == reference)
    }
}
