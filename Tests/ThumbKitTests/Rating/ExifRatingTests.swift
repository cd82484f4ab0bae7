import Testing
@testable import ThumbKit

/// EXIF's Rating tag (0x4746) in IFD0, in both byte orders and the types writers use.
@Suite struct ExifRatingTests {
    /// A TIFF structure whose IFD0 holds the given entries (tag, type, count, 4-byte value field).
    static func tiff(_ entries: [(UInt16, UInt16, UInt32, [UInt8])], bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        var bytes: [UInt8] = bigEndian ? Array("MM".utf8) + [0, 0x2A] : Array("II".utf8) + [0x2A, 0]
        bytes += u32(8) + u16(UInt16(entries.count))
        for (tag, type, count, value) in entries { bytes += u16(tag) + u16(type) + u32(count) + value }
        return bytes + [0, 0, 0, 0]
    }

    static func short(_ v: UInt16, bigEndian: Bool = false) -> [UInt8] {
        (bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]) + [0, 0]
    }

    @Test(arguments: [false, true])
    func shortRatings(bigEndian: Bool) {
        func rating(_ v: UInt16) -> Rating? { ExifReader(tiff: Self.tiff([(0x4746, 3, 1, Self.short(v, bigEndian: bigEndian))], bigEndian: bigEndian))?.rating }
        #expect(rating(0) == .stars(0))
        #expect(rating(3) == .stars(3))
        #expect(rating(5) == .stars(5))
        #expect(rating(6) == nil)
        #expect(rating(0xFFFF) == .rejected)
    }

    @Test func otherTypes() {
        let long = Self.tiff([(0x4746, 4, 1, [4, 0, 0, 0])])
        #expect(ExifReader(tiff: long)?.rating == .stars(4))
        let allOnes = Self.tiff([(0x4746, 4, 1, [0xFF, 0xFF, 0xFF, 0xFF])])
        #expect(ExifReader(tiff: allOnes)?.rating == .rejected)
        let signed = Self.tiff([(0x4746, 8, 1, [0xFF, 0xFF, 0, 0])])
        #expect(ExifReader(tiff: signed)?.rating == .rejected)
        let signedLong = Self.tiff([(0x4746, 9, 1, [0xFE, 0xFF, 0xFF, 0xFF])])
        #expect(ExifReader(tiff: signedLong)?.rating == nil)   // -2
        let ascii = Self.tiff([(0x4746, 2, 2, [0x33, 0, 0, 0])])
        #expect(ExifReader(tiff: ascii)?.rating == nil)
        let noValues = Self.tiff([(0x4746, 3, 0, [3, 0, 0, 0])])
        #expect(ExifReader(tiff: noValues)?.rating == nil)
    }

    @Test func ratingBesideOrientation() {
        let both = Self.tiff([(0x0112, 3, 1, Self.short(6)), (0x4746, 3, 1, Self.short(2))])
        let reader = ExifReader(tiff: both)
        #expect(reader?.orientation == .rightTop && reader?.rating == .stars(2))
        // An orientation of the wrong type is still no orientation.
        #expect(ExifReader(tiff: Self.tiff([(0x0112, 4, 1, [6, 0, 0, 0])]))?.orientation == nil)
    }

    @Test func truncatedStructuresReadAsAbsent() {
        let whole = Self.tiff([(0x4746, 3, 1, Self.short(2))])
        for length in 0..<whole.count - 4 {
            #expect(ExifReader(tiff: Array(whole.prefix(length)))?.rating == nil)
        }
    }

    @Test func embeddedPrecedenceIsXMPThenEXIF() {
        let xmp = Array(#"<rdf:Description xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="1"/>"#.utf8)
        let exif = Self.tiff([(0x4746, 3, 1, Self.short(4))])
        #expect(RatingReader.embeddedRating(in: EmbeddedMetadata(xmp: xmp, exif: exif)) == RatingLookup(rating: .stars(1), origin: .xmp))
        #expect(RatingReader.embeddedRating(in: EmbeddedMetadata(exif: exif)) == RatingLookup(rating: .stars(4), origin: .exif))
        #expect(RatingReader.embeddedRating(in: EmbeddedMetadata(tiffRating: .rejected)) == RatingLookup(rating: .rejected, origin: .exif))
        // XMP without a rating leaves EXIF's.
        let unrated = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8)
        #expect(RatingReader.embeddedRating(in: EmbeddedMetadata(xmp: unrated, exif: exif)).rating == .stars(4))
        #expect(RatingReader.embeddedRating(in: EmbeddedMetadata()) == RatingLookup())
    }
}
