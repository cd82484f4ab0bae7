import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Every carrier in `Tests/Fixtures/ratings` (written by `Scripts/make-rating-fixtures.py`, read
/// the same by exiftool) gives the rating, origin and warning its `expected.json` records.
@Suite struct RatingCarrierTests {
    struct Expectation: Decodable, Sendable, CustomTestStringConvertible {
        var name = ""
        let rating: Double?
        let origin: String?
        let warning: String?
        var testDescription: String { name }

        enum CodingKeys: String, CodingKey { case rating, origin, warning }
    }

    static let expectations: [Expectation] = {
        let data = FileManager.default.contents(atPath: Fixtures.path("ratings/expected.json"))!
        let table = try! JSONDecoder().decode([String: Expectation].self, from: data)
        return table.sorted { $0.key < $1.key }.map { var e = $0.value; e.name = $0.key; return e }
    }()

    @Test(arguments: expectations)
    func fileGivesItsRating(expected: Expectation) throws {
        let path = Fixtures.path("ratings/" + expected.name)
        let header = try ImageSource.file(path).header()
        let lookup = RatingReader().lookup(forSourceAt: path, header: header)
        #expect(lookup.rating?.storedValue == expected.rating)
        #expect(lookup.origin?.rawValue == expected.origin)
        // The public answer is the lookup's rating and origin.
        let found = RatingReader().rating(forSourceAt: path, header: header)
        #expect(found?.rating == lookup.rating && found?.origin == lookup.origin)
        if let warning = expected.warning {
            #expect(lookup.warnings.count == 1 && lookup.warnings[0].contains(warning), "\(lookup.warnings)")
        } else {
            #expect(lookup.warnings.isEmpty, "\(lookup.warnings)")
        }
    }

    /// The metadata comes with the header whether the image is a file or bytes in memory.
    @Test(arguments: expectations.filter { !$0.name.hasPrefix("sidecar") })
    func bytesCarryTheSameMetadata(expected: Expectation) throws {
        let path = Fixtures.path("ratings/" + expected.name)
        let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        let fromFile = try ImageSource.file(path).header().metadata
        let fromBytes = try ImageSource.bytes(bytes).header().metadata
        #expect(fromFile == fromBytes)
        #expect(RatingReader.embeddedRating(in: fromBytes).rating?.storedValue == expected.rating)
    }

    @Test func blocksAreHandedUpAsStored() throws {
        let jpeg = try ImageSource.file(Fixtures.path("ratings/xmp-over-exif.jpg")).header().metadata
        #expect(jpeg.xmp.map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("<?xpacket begin=") == true)
        #expect(jpeg.exif?.starts(with: Array("II*\0".utf8)) == true)
        // WebP's "Exif\0\0" and HEIF's offset are stripped: the block starts at the TIFF header.
        let webp = try ImageSource.file(Fixtures.path("ratings/exif.webp")).header().metadata
        #expect(webp.exif?.starts(with: Array("II*\0".utf8)) == true)
        let heic = try ImageSource.file(Fixtures.path("ratings/exif.heic")).header().metadata
        #expect(heic.exif?.starts(with: Array("II*\0".utf8)) == true)
        // A TIFF's rating is its own tag, not a block.
        let tiff = try ImageSource.file(Fixtures.path("ratings/exif.tif")).header().metadata
        #expect(tiff.exif == nil && tiff.tiffRating == .stars(2))
        // A packet that inflates past the limit is dropped, and the image still decodes.
        let bomb = ImageSource.file(Fixtures.path("ratings/xmp-inflates-too-large.png"))
        #expect(try bomb.header().metadata.xmp == nil)
        #expect(try bomb.decodeAsStored().width == 8)
        // Files without metadata have none.
        #expect(try ImageSource.file(Fixtures.path("ratings/missing.jpg")).header().metadata == EmbeddedMetadata())
    }

    @Test func sidecarsCanBeIgnored() throws {
        let path = Fixtures.path("ratings/sidecar-both.jpg")
        let header = try ImageSource.file(path).header()
        let found = RatingReader(readsSidecars: false).rating(forSourceAt: path, header: header)
        #expect(found?.rating == .stars(2) && found?.origin == .xmp)
    }

    @Test func sidecarNamesInTheOrderTried() {
        #expect(Sidecar.candidates(forSourceAt: "a/photo.jpg") == ["a/photo.jpg.xmp", "a/photo.xmp"])
        #expect(Sidecar.candidates(forSourceAt: "a.b/photo") == ["a.b/photo.xmp"])
        #expect(Sidecar.candidates(forSourceAt: ".hidden") == [".hidden.xmp"])
    }

    @Test func summaryAsInfoPrintsIt() {
        #expect(RatingLookup(rating: .stars(4), origin: .xmp).summary == "rating 4 (xmp)")
        #expect(RatingLookup(rating: .stars(4.5), origin: .exif).summary == "rating 4.5 (exif)")
        #expect(RatingLookup(rating: .rejected, origin: .sidecar).summary == "rejected (sidecar)")
        #expect(RatingLookup(rating: .stars(0), origin: .ratingsFile).summary == "rating 0 (ratings-file)")
        #expect(RatingLookup().summary == nil)
    }
}
