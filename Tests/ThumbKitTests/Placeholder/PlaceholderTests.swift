import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// BlurHash against every row of woltapp/blurhash's reference vectors, ThumbHash against the
/// flower vector of evanw/thumbhash, and the other placeholders' definitions.
@Suite struct PlaceholderTests {
    struct Row: Sendable, CustomStringConvertible {
        let image: String, x: Int, y: Int, hash: String
        var description: String { "\(image) \(x)x\(y)" }
    }

    /// `Hashes.csv`: "pic1.png",1,1,"00JHjm".
    static let rows: [Row] = String(decoding: Fixtures.bytes("blurhash/Hashes.csv"), as: UTF8.self)
        .split(separator: "\n").compactMap { line in
            // The hash is the rest of the line after the third comma: base 83 has commas of its own.
            let fields = line.split(separator: ",", maxSplits: 3).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r ")) }
            guard fields.count == 4, let x = Int(fields[1]), let y = Int(fields[2]) else { return nil }
            return Row(image: fields[0], x: x, y: y, hash: fields[3])
        }

    /// The reference encoder hashes the stored samples (stb_image applies no colour profile, and
    /// three of the six images carry one that changes their colours): decoded here with the profile kept.
    static let images: [String: Image] = {
        var out: [String: Image] = [:]
        for name in Set(rows.map(\.image)) { out[name] = try! storedSamples(Fixtures.path("blurhash/Images/" + name)) }
        return out
    }()

    static func storedSamples(_ path: String) throws -> Image {
        let decoder = try ImageSource.file(path).openDecoder(limits: .default)
        var options = ThumbnailOptions()
        options.keepProfile = true
        let plan = DecodePlan(header: decoder.header, decoder: type(of: decoder), options: options) { _, _ in [] }
        return try plan.decode(decoder).image
    }

    @Test func everyReferenceRowIsThere() {
        // 6 images × 8 × 8 component counts.
        #expect(Self.rows.count == 384, "\(Self.rows.count) rows")
        #expect(Self.rows.contains { $0.hash.contains(",") })
    }

    @Test(arguments: rows) func blurHashMatchesTheReference(row: Row) throws {
        let image = try #require(Self.images[row.image])
        #expect(BlurHash(xComponents: row.x, yComponents: row.y).hash(of: image) == row.hash)
    }

    @Test func thumbHashOfTheFlower() throws {
        let image = try ImageSource.file(Fixtures.path("thumbhash/flower.jpg")).decode()
        #expect(image.width == 75 && image.height == 100)
        let values = try Placeholders.compute([.thumbhash], of: image)
        #expect(values["thumbhash"] == "k0oGLQaSVsN0BVhn2oq2Z5SQUQcZ")
    }

    @Test func thumbHashOfALargerImageIsOfItsOwnResample() throws {
        let image = try #require(Self.images["pic2.png"])
        let small = Placeholders.fitted(image, longSide: 100)
        #expect(max(small.width, small.height) == 100)
        let values = try Placeholders.compute([.thumbhash], of: image)
        #expect(values["thumbhash"] == Base64.encode(ThumbHash.hash(width: small.width, height: small.height, rgba: small.rgba8)))
    }

    @Test func thumbHashKeepsAlpha() {
        // Half transparent: the header's alpha bit (bit 23) is set and the hash is a byte longer.
        var rgba = [UInt8](repeating: 0, count: 8 * 8 * 4)
        for i in 0..<64 { rgba[i * 4] = 255; rgba[i * 4 + 3] = i < 32 ? 255 : 0 }
        let hash = ThumbHash.hash(width: 8, height: 8, rgba: rgba)
        #expect(hash[2] & 0x80 != 0)
        rgba = rgba.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
        #expect(ThumbHash.hash(width: 8, height: 8, rgba: rgba)[2] & 0x80 == 0)
    }

    @Test func colourIsTheMeanInLinearLight() throws {
        // Half black, half white: the linear mean is 0.5, sRGB #bcbcbc (not #808080).
        var rgba = [UInt8](repeating: 255, count: 4 * 2 * 4)
        for i in 0..<4 { rgba[i * 4] = 0; rgba[i * 4 + 1] = 0; rgba[i * 4 + 2] = 0 }
        let values = try Placeholders.compute([.color], of: Image(width: 4, height: 2, rgba8: rgba))
        #expect(values["color"] == "#bcbcbc")
    }

    @Test func lqipIsATinyWebPDataURI() throws {
        let image = try #require(Self.images["pic1.png"])
        let values = try Placeholders.compute([.lqip(longSide: 16)], of: image)
        let uri = try #require(values["lqip"])
        #expect(uri.hasPrefix("data:image/webp;base64,"))
        let bytes = try #require(Data(base64Encoded: String(uri.dropFirst("data:image/webp;base64,".count))))
        let decoded = try ImageSource.bytes([UInt8](bytes)).decode()
        #expect(max(decoded.width, decoded.height) == 16)
        #expect(bytes.count < 400)
    }

    @Test func base64MatchesFoundation() {
        for count in 0..<8 {
            let bytes = (0..<count).map { UInt8(($0 * 77 + 13) & 255) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
        }
    }

    @Test func placeholderListsParse() {
        #expect(Placeholder.list(parsing: "thumbhash,blurhash=5x4,lqip=24,color") ==
                [.thumbhash, .blurhash(BlurHash(xComponents: 5, yComponents: 4)), .lqip(longSide: 24), .color])
        #expect(Placeholder.list(parsing: "blurhash")?.first?.description == "blurhash=4x3")
        #expect(Placeholder.list(parsing: "blurhash=10x3") == nil)
        #expect(Placeholder.list(parsing: "lqip=0") == nil)
        #expect(Placeholder.list(parsing: "color,color") == nil)
        #expect(Placeholder.list(parsing: "sparkle") == nil)
    }

    @Test func aSetWithPlaceholdersReadsBackFromItsDescription() throws {
        var set = ThumbnailSet(options: ThumbnailOptions(), widths: [.pixels(320)], formats: [.avif(AVIFEncoder()), .jpeg(JPEGEncoder())])
        set.placeholders = [.blurhash(BlurHash()), .lqip(longSide: 16)]
        #expect(set.canonicalDescription.contains("placeholders=blurhash=4x3,lqip=16"))
        #expect(try ThumbnailSet(canonicalDescription: set.canonicalDescription) == set)
    }
}
