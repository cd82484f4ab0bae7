import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Camera RAW through its largest embedded JPEG preview: which preview is picked (against exiftool
/// and dcraw, independent extractors), recognition by content (RAWs apart from TIFFs), the RAW's
/// own orientation and rating, the too-small rule, and damaged containers.
@Suite struct RAWDecoderTests {
    struct Preview: Sendable, CustomTestStringConvertible {
        let file: String
        let kind: String
        let origin: String
        let width: Int
        let height: Int
        /// exiftool's name for the same image (`exiftool -b -TAG FILE`).
        let exiftoolTag: String
        var testDescription: String { file }
    }

    static let previews = [
        Preview(file: "synthetic.dng", kind: "DNG", origin: "SubIFD 1", width: 1616, height: 1080, exiftoolTag: "PreviewImage"),
        Preview(file: "synthetic.cr2", kind: "CR2", origin: "IFD0", width: 1536, height: 1024, exiftoolTag: "PreviewImage"),
        Preview(file: "synthetic.cr3", kind: "CR3", origin: "PRVW box", width: 1620, height: 1080, exiftoolTag: "PreviewImage"),
        Preview(file: "synthetic.nef", kind: "NEF", origin: "SubIFD 0", width: 1200, height: 800, exiftoolTag: "JpgFromRaw"),
        Preview(file: "synthetic.raf", kind: "RAF", origin: "RAF header", width: 1920, height: 1280, exiftoolTag: "PreviewImage"),
        Preview(file: "synthetic.orf", kind: "ORF", origin: "Olympus MakerNote", width: 1280, height: 960, exiftoolTag: "PreviewImage"),
        Preview(file: "synthetic.arw", kind: "ARW", origin: "IFD0", width: 1616, height: 1080, exiftoolTag: "PreviewImage"),
        Preview(file: "synthetic.pef", kind: "PEF", origin: "IFD2", width: 1440, height: 960, exiftoolTag: "JpgFromRaw"),
        Preview(file: "synthetic.srw", kind: "SRW", origin: "SubIFD 0", width: 1024, height: 680, exiftoolTag: "JpgFromRaw"),
        Preview(file: "exiftool-FujiFilm.raf", kind: "RAF", origin: "RAF header", width: 8, height: 8, exiftoolTag: "PreviewImage"),
        Preview(file: "exiftool-Panasonic.rw2", kind: "RW2", origin: "IFD0", width: 8, height: 8, exiftoolTag: "JpgFromRaw"),
    ]

    static func path(_ name: String) -> String { Fixtures.path("raw/" + name) }

    static func decoder(_ name: String, limits: DecodeLimits = .default) throws -> RAWDecoder {
        let decoder = try ImageSource.file(path(name)).openDecoder(limits: limits)
        return try #require(decoder as? RAWDecoder)
    }

    /// The preview thumbgen reads is byte for byte the one exiftool extracts.
    @Test(arguments: previews)
    func picksThePreviewExiftoolExtracts(_ expected: Preview) throws {
        let decoder = try Self.decoder(expected.file)
        #expect(decoder.header.format == .raw)
        #expect(decoder.header.details == .raw(kind: expected.kind, preview: expected.origin))
        #expect(decoder.header.storedWidth == expected.width && decoder.header.storedHeight == expected.height)
        let file = Fixtures.bytes("raw/" + expected.file)
        let picked = Array(file[Int(decoder.preview.offset)..<Int(decoder.preview.offset + decoder.preview.length)])
        let exiftool = try Self.bytes(ofTool: "/usr/bin/exiftool", ["-b", "-" + expected.exiftoolTag, Self.path(expected.file)])
        #expect(!exiftool.isEmpty && picked == exiftool)
    }

    /// dcraw -e (which writes the preview with a header of its own) gives the same pixels.
    @Test(arguments: ["synthetic.dng", "synthetic.cr2", "synthetic.nef", "synthetic.raf", "synthetic.orf", "synthetic.arw",
                      "synthetic.pef", "synthetic.srw", "exiftool-Panasonic.rw2"])
    func dcrawExtractsTheSamePixels(_ name: String) throws {
        let dcraw = try Self.bytes(ofTool: "/usr/bin/dcraw", ["-e", "-c", Self.path(name)])
        #expect(dcraw.starts(with: [0xFF, 0xD8]), "dcraw -e gave no JPEG")
        let theirs = try ImageSource.bytes(dcraw).decodeAsStored()
        let ours = try ImageSource.file(Self.path(name)).decodeAsStored()
        #expect(ours == theirs)
    }

    struct ToolMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: make deps installs it" }
    }

    /// A tool's standard output as bytes (a JPEG is not text); a missing tool fails the test.
    static func bytes(ofTool tool: String, _ arguments: [String]) throws -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw ToolMissing(path: tool) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// RAWs are recognised by content, whatever their name; TIFFs, one with a JPEG thumbnail
    /// among them, stay TIFFs.
    @Test func recognisedByContentAndTIFFsStayTIFFs() throws {
        for preview in Self.previews {
            #expect(try ImageSource.bytes(Fixtures.bytes("raw/" + preview.file)).format() == .raw, "\(preview.file)")
        }
        let thumbnailed = ImageSource.file(Self.path("tiff-with-jpeg-thumbnail.tif"))
        #expect(try thumbnailed.format() == .tiff)
        #expect(try thumbnailed.header().description == "64x48, tiff rgb, 8-bit, strips, opaque")
        let tiffs = Fixtures.files(under: Fixtures.path("tiff")).filter { $0.hasSuffix(".tif") }.map { Fixtures.path("tiff/" + $0) }
        #expect(tiffs.count > 5)
        for tiff in tiffs { #expect(try ImageSource.file(tiff).format() == .tiff, "\(tiff)") }
    }

    /// Orientation and rating are the RAW's own (IFD0, its XMP, a CR3's CMT1), not the preview's
    /// (which has none); a RAF keeps its EXIF in the preview.
    @Test func orientationAndRatingAreTheRAWsOwn() throws {
        let dng = try Self.decoder("synthetic.dng").header
        #expect(dng.orientation == .rightTop && dng.width == 1080 && dng.height == 1616)
        #expect(RatingReader.embeddedRating(in: dng.metadata).rating == Rating(storedValue: 4))
        let cr3 = try Self.decoder("synthetic.cr3").header
        #expect(cr3.orientation == .leftBottom)
        #expect(RatingReader.embeddedRating(in: cr3.metadata).rating == Rating(storedValue: 3))
        #expect(try Self.decoder("synthetic.raf").header.orientation == .bottomRight)
        #expect(try Self.decoder("synthetic.nef").header.orientation == .topLeft)

        // Upright: orientation 6 turns the stored picture a quarter clockwise, so its blue bottom-left
        // corner comes to the top left.
        let upright = try ImageSource.file(Self.path("synthetic.dng")).decode()
        #expect(upright.width == 1080 && upright.height == 1616)
        let corner = Array(upright.rgba8[0..<4])
        #expect(corner[2] > 200 && corner[0] < 60 && corner[1] < 60, "\(corner)")
    }

    /// A preview smaller than the box fails, naming both sizes, unless enlarging is allowed; a big
    /// enough one is used with shrink-on-load.
    @Test func aPreviewSmallerThanTheBoxFailsUnlessEnlarging() throws {
        let small = ImageSource.file(Self.path("synthetic-small-preview.dng"))
        let box = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256)))
        #expect(throws: ThumbnailError.previewTooSmall(previewWidth: 160, previewHeight: 120, box: "256x256")) {
            _ = try box.thumbnails(of: small)
        }
        let enlarging = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256, scale: .any)))
        let made = try enlarging.thumbnails(of: small)
        #expect(made[0].image.width == 256 && made[0].image.height == 192)
        // Inside the preview: as any JPEG.
        let fits = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 120, height: 120))).thumbnails(of: small)
        #expect(fits[0].image.width == 120 && fits[0].image.height == 90)
        let big = try box.thumbnails(of: .file(Self.path("synthetic.dng")))
        #expect(big[0].image.width == 171 && big[0].image.height == 256)
    }

    /// A RAW whose previews are all placeholders (exiftool's samples, their images stripped) is
    /// unsupported, not corrupt.
    @Test(arguments: ["exiftool-DNG.dng", "exiftool-CanonRaw.cr2", "exiftool-CanonRaw.cr3", "exiftool-Nikon.nef"])
    func noJPEGPreviewIsUnsupported(_ name: String) throws {
        let kind = ["dng": "DNG", "cr2": "CR2", "cr3": "CR3", "nef": "NEF"][String(name.split(separator: ".").last!)]!
        #expect(try ImageSource.file(Self.path(name)).format() == .raw)
        #expect(throws: DecodeError.unsupported(.raw, reason: "no JPEG preview in this \(kind) (thumbgen does not demosaic sensor data)")) {
            _ = try ImageSource.file(Self.path(name)).header()
        }
    }

    /// Damaged containers: a preview out of range falls back to the next largest, loops end,
    /// lengths past the end are never allocated, and nothing crashes.
    @Test func hostileContainers() throws {
        func header(_ name: String) throws -> ImageHeader { try ImageSource.file(Self.path("hostile/" + name)).header() }
        // The big preview runs past the end: the IFD0 thumbnail is what is left.
        for name in ["truncated-in-preview.dng", "preview-offset-past-end.dng", "preview-huge-length.dng"] {
            #expect(try header(name).details == .raw(kind: "DNG", preview: "IFD0"), "\(name)")
        }
        #expect(try header("ifd-loop.dng").details == .raw(kind: "DNG", preview: "SubIFD 1"))
        #expect(try header("cr3-box-too-long.cr3").details == .raw(kind: "CR3", preview: "THMB box"))
        #expect(throws: DecodeError.truncated) { _ = try header("raf-offset-past-end.raf") }
        #expect(throws: DecodeError.truncated) { _ = try header("raf-truncated-header.raf") }
        // Directories that cannot be walked: left to libtiff, which names the damage.
        for name in ["truncated-in-ifd0.dng", "ifd0-past-end.dng"] {
            #expect(try ImageSource.file(Self.path("hostile/" + name)).format() == .tiff)
            #expect(throws: DecodeError.self) { _ = try ImageSource.file(Self.path("hostile/" + name)).decodeAsStored() }
        }
        // Flipped bytes in the preview's data: libjpeg's one-line failure, as the RAW's (here a flip
        // made an SOF5 marker, a process libjpeg-turbo does not decode).
        do {
            _ = try ImageSource.file(Self.path("hostile/flipped-bytes.dng")).decodeAsStored()
        } catch {
            switch error {
            case .corrupt(.raw, let reason), .unsupported(.raw, let reason): #expect(reason.hasPrefix("JPEG preview: "))
            default: Issue.record("flipped bytes: \(error)")
            }
        }
    }

    /// The preview's length counts against the byte limit before it is read.
    @Test func thePreviewIsCheckedAgainstTheByteLimit() throws {
        let input = try ImageInput.open(.bytes(Fixtures.bytes("raw/synthetic.dng")), limits: .default)
        let limits = DecodeLimits(maxFileBytes: 40_000)
        #expect(throws: DecodeError.limitExceeded(LimitExceeded(limit: .fileBytes, actual: 53_435, allowed: 40_000))) {
            _ = try RAWDecoder(input, limits: limits)
        }
    }
}
