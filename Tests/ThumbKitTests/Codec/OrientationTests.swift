import Testing
@testable import ThumbKit

/// EXIF orientation: the reader, the eight transforms, and upright thumbnails end to end.
@Suite struct OrientationTests {
    static let uprightWidth = 48, uprightHeight = 36

    /// The upright picture: blue, with a red 12 × 12 block at the top left and a green one at the
    /// top right. Two marks, so that a mirror cannot pass for a rotation.
    static func upright(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        if y < 12 && x < 12 { return (220, 20, 20) }
        if y < 12 && x >= uprightWidth - 12 { return (20, 200, 20) }
        return (20, 20, 200)
    }

    /// Where the stored pixel (sx, sy) is seen once the image is shown upright, written from the
    /// EXIF definition of each value ("the 0th row is the visual X side, the 0th column the visual
    /// Y side"), independently of `Orientation`'s inverse mapping.
    static func visual(_ value: Int, _ sx: Int, _ sy: Int, _ uw: Int, _ uh: Int) -> (Int, Int) {
        switch value {
        case 1: return (sx, sy)               // row 0 top, column 0 left
        case 2: return (uw - 1 - sx, sy)      // row 0 top, column 0 right
        case 3: return (uw - 1 - sx, uh - 1 - sy) // row 0 bottom, column 0 right
        case 4: return (sx, uh - 1 - sy)      // row 0 bottom, column 0 left
        case 5: return (sy, sx)               // row 0 left, column 0 top
        case 6: return (uw - 1 - sy, sx)      // row 0 right, column 0 top
        case 7: return (uw - 1 - sy, uh - 1 - sx) // row 0 right, column 0 bottom
        default: return (sy, uh - 1 - sx)     // 8: row 0 left, column 0 bottom
        }
    }

    /// The stored RGB pixels a camera would write for the upright picture under `value`.
    static func stored(_ value: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        let swaps = value >= 5
        let w = swaps ? uprightHeight : uprightWidth, h = swaps ? uprightWidth : uprightHeight
        let pixels = JPEGFixtures.rgb(width: w, height: h) { sx, sy in
            let v = visual(value, sx, sy, uprightWidth, uprightHeight)
            return upright(v.0, v.1)
        }
        return (pixels, w, h)
    }

    static func expectUpright(_ image: Image, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == 24 && image.height == 18, sourceLocation: sourceLocation)
        func near(_ x: Int, _ y: Int, _ colour: [Int]) -> Bool {
            zip(JPEGFixtures.pixel(image, x, y), colour).allSatisfy { abs($0 - $1) <= 12 }
        }
        #expect(near(2, 2, [220, 20, 20]), "red mark top left", sourceLocation: sourceLocation)
        #expect(near(21, 2, [20, 200, 20]), "green mark top right", sourceLocation: sourceLocation)
        #expect(near(2, 15, [20, 20, 200]) && near(21, 15, [20, 20, 200]), "blue bottom", sourceLocation: sourceLocation)
    }

    static let options = ThumbnailOptions(size: ThumbnailSize(width: 24, height: 24))

    @Test(arguments: 1...8, [false, true])
    func everyJPEGOrientationGivesTheUprightThumbnail(value: Int, bigEndian: Bool) throws {
        let stored = Self.stored(value)
        let jpeg = JPEGFixtures.encode(stored.pixels, width: stored.width, height: stored.height,
                                       exif: JPEGFixtures.exif(orientation: UInt16(value), bigEndian: bigEndian))
        let thumbnails = try Thumbnailer(options: Self.options).thumbnails(of: .bytes(jpeg))
        Self.expectUpright(thumbnails[0].image)
        let loaded = try DecodedSource.load(jpeg)
        #expect(loaded.plan.orientation == Orientation(rawValue: value))
        #expect(try ImageSource.bytes(jpeg).header().orientation == Orientation(rawValue: value))
        #expect(loaded.image.width == Self.uprightWidth && loaded.image.height == Self.uprightHeight)
    }

    @Test(arguments: 1...8)
    func everyPNGOrientationGivesTheUprightThumbnail(value: Int) throws {
        let stored = Self.stored(value)
        var rgba = [UInt8]()
        for i in 0..<(stored.width * stored.height) { rgba += stored.pixels[i * 3..<i * 3 + 3] + [255] }
        let png = try PNGEncoder().encode(Image(width: stored.width, height: stored.height, rgba8: rgba))
        let tagged = JPEGFixtures.insertChunk("eXIf", JPEGFixtures.exif(orientation: UInt16(value), bigEndian: value % 2 == 0),
                                              into: png)
        let thumbnails = try Thumbnailer(options: Self.options).thumbnails(of: .bytes(tagged))
        Self.expectUpright(thumbnails[0].image)
    }

    @Test func noRotateKeepsTheStoredOrientation() throws {
        let stored = Self.stored(6)
        let jpeg = JPEGFixtures.encode(stored.pixels, width: stored.width, height: stored.height,
                                       exif: JPEGFixtures.exif(orientation: 6, bigEndian: false))
        var options = Self.options
        options.autoRotate = false
        let image = try Thumbnailer(options: options).thumbnails(of: .bytes(jpeg))[0].image
        #expect(image.width == 18 && image.height == 24)
        #expect(options.canonicalDescription.contains("rotate=off"))
        #expect(Self.options.canonicalDescription.contains("rotate=auto"))
        #expect(options.digest != Self.options.digest)
    }

    /// `apply` against the EXIF definition, pixel by pixel, at 8 and 16 bits.
    @Test(arguments: 1...8)
    func applyMovesEveryPixelWhereEXIFSays(value: Int) {
        let orientation = Orientation(rawValue: value)!
        let w = 5, h = 3
        let eight = Image(width: w, height: h, rgba8: (0..<(w * h * 4)).map { UInt8($0) })
        let sixteen = Image(width: w, height: h, rgba16: (0..<(w * h * 4)).map { UInt16($0 * 300) })
        for image in [eight, sixteen] {
            let out = orientation.apply(to: image)
            let size = orientation.uprightSize(width: w, height: h)
            #expect(out.width == size.width && out.height == size.height && out.bitDepth == image.bitDepth)
            for sy in 0..<h {
                for sx in 0..<w {
                    let v = Self.visual(value, sx, sy, size.width, size.height)
                    let from = (sy * w + sx) * 4, to = (v.1 * size.width + v.0) * 4
                    switch (image.samples, out.samples) {
                    case (.eight(let a), .eight(let b)): #expect(Array(a[from..<from + 4]) == Array(b[to..<to + 4]))
                    case (.sixteen(let a), .sixteen(let b)): #expect(Array(a[from..<from + 4]) == Array(b[to..<to + 4]))
                    default: Issue.record("bit depth changed")
                    }
                }
            }
        }
    }

    @Test func exifReaderReadsBothByteOrdersAndRejectsNonsense() {
        for value in 1...8 {
            #expect(ExifReader(tiff: JPEGFixtures.exif(orientation: UInt16(value), bigEndian: true))?.orientation?.rawValue == value)
            #expect(ExifReader(tiff: JPEGFixtures.exif(orientation: UInt16(value), bigEndian: false))?.orientation?.rawValue == value)
        }
        #expect(ExifReader(tiff: JPEGFixtures.exif(orientation: 0, bigEndian: true))?.orientation == nil)
        #expect(ExifReader(tiff: JPEGFixtures.exif(orientation: 9, bigEndian: false))?.orientation == nil)
        #expect(ExifReader(tiff: Array("XX*\0\0\0\0\u{8}".utf8)) == nil)
        // Every truncation of a valid block reads as "no orientation" (or the value, once complete),
        // never out of bounds.
        let full = JPEGFixtures.exif(orientation: 3, bigEndian: true)
        for length in 0..<full.count {
            let value = ExifReader(tiff: Array(full.prefix(length)))?.orientation
            #expect(value == nil || value == .bottomRight)
        }
        // IFD offset far outside the data; entry count larger than the data.
        var farIFD = full
        farIFD[4] = 0x7F
        #expect(ExifReader(tiff: farIFD)?.orientation == nil)
        var manyEntries = full
        manyEntries[8] = 0xFF
        manyEntries[9] = 0xFF
        #expect(ExifReader(tiff: manyEntries)?.orientation == .bottomRight) // found before running out
        // The tag with the wrong type (LONG) is not trusted.
        var wrongType = full
        wrongType[8 + 2 + 12 + 3] = 4
        #expect(ExifReader(tiff: wrongType)?.orientation == nil)
    }
}
