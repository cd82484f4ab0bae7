import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// The PngSuite against an independent decoder (pypng, recorded by Scripts/pngsuite-reference.py).
@Suite struct PNGConformanceTests {
    struct Reference: Decodable {
        let width: Int
        let height: Int
        let depth: Int
        let sha256: String
        let sha256_rgba8: String
    }

    static let references: [String: Reference] = {
        let data = FileManager.default.contents(atPath: Fixtures.path("pngsuite-reference.json"))!
        return try! JSONDecoder().decode([String: Reference].self, from: data)
    }()

    @Test func everyValidImageHasAReference() {
        #expect(Fixtures.validPngSuiteNames.count == 160)
        #expect(Set(Fixtures.validPngSuiteNames) == Set(Self.references.keys))
        #expect(Fixtures.invalidPngSuiteNames.count == 14)
    }

    @Test(arguments: Fixtures.validPngSuiteNames)
    func decodesLikeTheReference(name: String) throws {
        let reference = try #require(Self.references[name])
        let image = try PNGDecoder.decode(path: Fixtures.path("pngsuite/" + name))
        #expect(image.width == reference.width)
        #expect(image.height == reference.height)
        #expect(image.bitDepth == reference.depth)
        switch image.samples {
        case .eight(let samples):
            #expect(SHA256.hex(samples) == reference.sha256)
        case .sixteen(let samples):
            let bigEndian = samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
            #expect(SHA256.hex(bigEndian) == reference.sha256)
        }
        #expect(SHA256.hex(image.rgba8) == reference.sha256_rgba8)
    }

    @Test(arguments: Fixtures.invalidPngSuiteNames)
    func rejectsCorruptImages(name: String) {
        #expect(throws: DecodeError.self) {
            _ = try PNGDecoder.decode(path: Fixtures.path("pngsuite/" + name))
        }
    }

    @Test(arguments: Fixtures.validPngSuiteNames)
    func rowByRowDecodingMatchesWholeDecoding(name: String) throws {
        let path = Fixtures.path("pngsuite/" + name)
        let whole = try PNGDecoder.decode(path: path)
        let decoder = try PNGDecoder(path: path)
        guard decoder.header.scanOrder != .interlaced else { return }
        // Opaque images stream as RGB; the whole image has alpha at the maximum.
        let channels = decoder.rowChannels
        #expect(channels == (decoder.header.hasAlpha ? 4 : 3))
        var rows8 = [UInt8](), rows16 = [UInt16]()
        var row8 = [UInt8](), row16 = [UInt16]()
        while decoder.rowsRemaining > 0 {
            if decoder.bitDepth == 16 {
                try decoder.readRow(into: &row16)
                #expect(row16.count == whole.width * channels)
                for x in 0..<whole.width {
                    rows16 += row16[(x * channels)..<(x * channels + 3)] + [channels == 4 ? row16[x * 4 + 3] : 65535]
                }
            } else {
                try decoder.readRow(into: &row8)
                #expect(row8.count == whole.width * channels)
                for x in 0..<whole.width {
                    rows8 += row8[(x * channels)..<(x * channels + 3)] + [channels == 4 ? row8[x * 4 + 3] : 255]
                }
            }
        }
        let streamed = decoder.bitDepth == 16
            ? Image(width: whole.width, height: whole.height, rgba16: rows16)
            : Image(width: whole.width, height: whole.height, rgba8: rows8)
        #expect(streamed == whole)
    }

    @Test func headerInfo() throws {
        let info = try PNGDecoder(path: Fixtures.path("pngsuite/basi3p04.png")).header
        #expect(info == ImageHeader(format: .png, storedWidth: 32, storedHeight: 32, orientation: .topLeft, bitDepth: 4,
                                    hasAlpha: false, colorSource: .gamma(1.0, chromaticities: nil), scanOrder: .interlaced,
                                    details: .png(colorType: .palette)))
        #expect(info.description == "32x32, palette, 4-bit, interlaced, opaque")
        let transparent = try PNGDecoder(path: Fixtures.path("pngsuite/tbrn2c08.png")).header
        #expect(transparent.details == .png(colorType: .rgb) && transparent.hasAlpha)
    }

    @Test func decodingFromMemoryMatchesFile() throws {
        for name in ["basn6a16.png", "basi0g01.png", "tbbn3p08.png"] {
            let path = Fixtures.path("pngsuite/" + name)
            let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
            #expect(try PNGDecoder.decode(bytes: bytes) == PNGDecoder.decode(path: path))
        }
    }
}
