import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// The checked-in hostile inputs (`Tests/Fixtures/hostile`, written by `Scripts/make-hostile.py`)
/// through the library, each against the outcome `expected.json` records for it; plus the hostile
/// inputs that only make sense large, generated here at run time.
@Suite struct HostileFixtureTests {
    static let directory = Fixtures.path("hostile")

    /// File name → `"decodes"` or a substring of the expected one-line error message.
    static let expected: [String: String] = {
        guard let data = FileManager.default.contents(atPath: directory + "/expected.json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else { return [:] }
        return object
    }()

    static var names: [String] { expected.keys.sorted() }

    /// Above this many pixels a `"decodes"` file is only thumbnailed (streamed), never decoded whole.
    static let wholeDecodeLimit = 4_000_000

    @Test func everyFixtureIsListedAndEveryListedFileExists() throws {
        #expect(Self.expected.count >= 20)
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0 != "expected.json" }
        #expect(Set(present) == Set(Self.expected.keys))
    }

    @Test(arguments: names) func fixtureHasItsExpectedOutcome(_ name: String) throws {
        let path = Self.directory + "/" + name
        let outcome = try #require(Self.expected[name])
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 16, height: 16)))
        if outcome == "decodes" {
            let info = try ImageSource.file(path).header()
            #expect(info.width > 0 && info.height > 0)
            if info.width * info.height <= Self.wholeDecodeLimit {
                let image = try ImageSource.file(path).decodeAsStored()
                #expect(image.width == info.width && image.height == info.height)
            }
            #if DEBUG
            // Streaming a 225 MP bomb takes minutes in a debug build; release runs it (`make test`).
            if info.width * info.height > Self.wholeDecodeLimit { return }
            #endif
            let thumbs = try thumbnailer.thumbnails(of: .file(path))
            #expect(thumbs.count == 1 && thumbs[0].image.width <= 16 && thumbs[0].image.height <= 16)
        } else {
            // The file path and the in-memory path (what the batch uses) must agree, on one line.
            let fromFile = #expect(throws: ThumbnailError.self) { _ = try thumbnailer.thumbnails(of: .file(path)) }
            let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
            let fromBytes = #expect(throws: ThumbnailError.self) { _ = try thumbnailer.thumbnails(of: .bytes(bytes)) }
            #expect(fromFile?.message.contains(outcome) == true, "\(name): \(fromFile?.message ?? "decoded")")
            #expect(fromFile?.message == fromBytes?.message)
            #expect(fromFile.map { !$0.message.contains("\n") && !$0.message.isEmpty } == true)
        }
    }

    @Test func realBombIsRefusedFromTheHeaderUnderALoweredLimit() {
        var options = ThumbnailOptions()
        options.limits.maxPixels = 100_000_000
        let error = #expect(throws: ThumbnailError.self) {
            _ = try Thumbnailer(options: options).thumbnails(of: .file(Self.directory + "/bomb-real-15000.png"))
        }
        #expect(error?.message == "image is 15000x15000 (225000000 pixels), above the limit of 100000000 pixels")
        #expect(error?.exceededLimit?.limit == .pixels)
    }

    // MARK: Generated at run time

    /// A chunk with its correct CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = CRC32.checksum(body[...])
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    /// `good-rgb.png` with `extra` inserted right after IHDR.
    static func goodWith(_ extra: [UInt8]) -> [UInt8] {
        let good = [UInt8](FileManager.default.contents(atPath: directory + "/good-rgb.png")!)
        return Array(good[0..<33]) + extra + Array(good[33...])
    }

    @Test(arguments: ["iCCP", "zTXt"]) func sixteenMiBAncillaryChunkIsDropped(_ type: String) throws {
        // 16 MiB of payload, twice the 8 MiB limit (DecodeLimits.maxChunkBytes). libpng never holds
        // it: zTXt is skipped unread (text is never used), and the iCCP's data is not a zlib stream,
        // so inflating stops at once and the chunk is dropped with a warning. The image decodes,
        // as browsers do, with exactly the pixels of the file without the chunk.
        var payload = Array("profile".utf8) + [0, 0]
        payload += [UInt8](repeating: 0x41, count: (16 << 20) - payload.count)
        let png = Self.goodWith(Self.chunk(type, payload))
        let plain = try PNGDecoder.decode(path: Self.directory + "/good-rgb.png")
        #expect(try PNGDecoder.decode(bytes: png).rgba8 == plain.rgba8)
    }

    @Test func twoHundredThousandTinyChunksAreSkippedInLinearTime() throws {
        // Unknown ancillary chunks are not kept, so the 1,000-chunk cache limit does not apply;
        // each is skipped after its CRC check.
        let tiny = Self.chunk("ruBy", [])
        var extra = [UInt8]()
        extra.reserveCapacity(tiny.count * 200_000)
        for _ in 0..<200_000 { extra += tiny }
        let directory = Fixtures.temporaryDirectory("chunks")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/many-chunks.png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.goodWith(extra))))
        let start = ContinuousClock.now
        let thumbs = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 8, height: 8))).thumbnails(of: .file(path))
        #expect(thumbs[0].image.width == 8)
        #expect(start.duration(to: .now) < .seconds(30))
    }

    @Test func manyKeptChunksHitTheCacheLimit() {
        // sPLT chunks are kept by libpng, so 2,000 of them exceed the 1,000-chunk cache.
        let splt = Self.chunk("sPLT", Array("p".utf8) + [0, 8] + [1, 2, 3, 4, 0, 1])
        var extra = [UInt8]()
        for _ in 0..<2_000 { extra += splt }
        let png = Self.goodWith(extra)
        do {
            _ = try PNGDecoder.decode(bytes: png)
        } catch {
            #expect(!error.message.isEmpty && !error.message.contains("\n"))
        }
    }
}
