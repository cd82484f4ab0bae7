import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Labels under contact sheet cells (the bundled bitmap font, exact positions, ellipsis), the date
/// order, and the badge strip placed tight under the fitted picture.
@Suite struct SheetLabelTests {
    /// A TIFF structure holding `DateTimeOriginal` in an EXIF IFD (IFD0 points to it), little-endian.
    static func exif(dateTimeOriginal date: String) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let exifIFD = 8 + 2 + 12 + 4, text = exifIFD + 2 + 12 + 4
        return [0x49, 0x49, 0x2A, 0] + u32(8)
            + u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(exifIFD) + u32(0)
            + u16(1) + u16(0x9003) + u16(2) + u32(20) + u32(text) + u32(0)
            + Array(date.utf8) + [0]
    }

    /// A photo of the given size carrying `date` in a PNG `eXIf` chunk (none when nil).
    static func photo(_ name: String, width: Int = 60, height: Int = 40, date: String?, rating: Rating? = .stars(3)) -> SheetSource {
        let png = try! PNGEncoder().encode(TestPatterns.gradient(width, height))
        let bytes = date.map { JPEGFixtures.insertChunk("eXIf", exif(dateTimeOriginal: $0), into: png) } ?? png
        return SheetSource(name: name, image: .bytes(bytes), rating: rating)
    }

    static let white = Color.white

    /// `width` × `height` of white with `image` composited at (`x`, `y`).
    static func onWhite(_ image: Image, width: Int, height: Int, x: Int = 0, y: Int = 0) -> [UInt8] {
        Image(width: width, height: height, rgba8: [UInt8](repeating: 255, count: width * height * 4)).compositing(image, x: x, y: y).rgba8
    }

    @Test func exifReaderReadsDateTimeOriginal() {
        #expect(ExifReader(tiff: Self.exif(dateTimeOriginal: "2024:06:01 14:03:22"))?.dateTimeOriginal == "2024:06:01 14:03:22")
        // Unknown dates as cameras write them, and text of another shape, are no date.
        for bad in ["0000:00:00 00:00:00", "    :  :     :  :  ", "2024-06-01 14:03:22", "yesterday at noon!!"] {
            #expect(ExifReader(tiff: Self.exif(dateTimeOriginal: bad))?.dateTimeOriginal == nil, "\(bad)")
        }
        // IFD0 alone (an orientation) has no date.
        #expect(ExifReader(tiff: JPEGFixtures.exif(orientation: 1, bigEndian: true))?.dateTimeOriginal == nil)
    }

    @Test func formatsAreCheckedAndFilledIn() throws {
        #expect(throws: SheetError.invalidLabel(format: "%f %x", reason: "unknown directive '%x' (use %f, %r, %d, %w, %h or %%)")) {
            try SheetOptions.Label(format: "%f %x")
        }
        #expect(throws: SheetError.self) { try SheetOptions.Label(format: "50%") }
        #expect(throws: SheetError.self) { try SheetOptions.Label(format: "") }
        #expect(SheetError.invalidLabel(format: "%x", reason: "r").message == "invalid label \"%x\": r")
        let label = try SheetOptions.Label(format: "%f|%r|%d|%wx%h|100%%")
        let cell = SheetPlan.Cell(source: SheetSource(name: "day/IMG_1.jpg", image: .bytes([])), rating: .stars(3.5), ratingOrigin: nil,
                                  captureDate: "2024:06:01 14:03:22", sourceWidth: 4000, sourceHeight: 3000)
        #expect(label.text(for: cell) == "IMG_1.jpg|3.5/5|2024-06-01 14:03|4000x3000|100%")
        let bare = SheetPlan.Cell(source: SheetSource(name: "a.png", image: .bytes([])), rating: nil, ratingOrigin: nil)
        #expect(label.text(for: bare) == "a.png|unrated||?x?|100%")
    }

    /// A name longer than the cell is cut to its width and ends in "…"; one that fits is whole.
    @Test func longNamesAreEllipsised() throws {
        #expect(SheetOptions.Label.fitted("photo0.png", columns: 8) == Array("photo0.\u{2026}".unicodeScalars))
        #expect(SheetOptions.Label.fitted("photo0.png", columns: 10) == Array("photo0.png".unicodeScalars))
        #expect(SheetOptions.Label.fitted("", columns: 10) == nil)
        // The ellipsis and the fallback are real glyphs: not blank, and not the same.
        let font = BitmapFont.fixed6x13
        #expect(font.glyph("\u{2026}").contains { $0 != 0 } && font.glyph("\u{2026}") != font.glyph("é"))
        #expect(font.glyph("é") == font.glyph("\u{FFFD}") && font.glyph("A") != font.glyph("\u{FFFD}"))
        // A 48-pixel cell holds 8 characters of the 6-pixel font.
        let line = try #require(SheetOptions.Label.image("photo0.png", cellWidth: 48, scale: 1, color: SheetOptions.Label.dark))
        #expect(line.width == 48 && line.height == 13)
        #expect(line == SheetOptions.Label.image("photo0.\u{2026}", cellWidth: 48, scale: 1, color: SheetOptions.Label.dark))
        // Magnified whole: 2x at @2x is every pixel doubled; wide cells get a larger font.
        let double = try #require(SheetOptions.Label.image("ab", cellWidth: 48, scale: 2, color: SheetOptions.Label.dark))
        let single = try #require(SheetOptions.Label.image("ab", cellWidth: 48, scale: 1, color: SheetOptions.Label.dark))
        #expect(double.width == 24 && double.height == 26)
        for y in 0..<26 { for x in 0..<24 { #expect(double.rgba8[(y * 24 + x) * 4 + 3] == single.rgba8[(y / 2 * 12 + x / 2) * 4 + 3]) } }
        #expect(SheetOptions.Label.magnification(cellWidth: 128) == 1 && SheetOptions.Label.magnification(cellWidth: 240) == 2)
    }

    /// Every label sits centred under its cell's badge strip, `SheetOptions.Label.gap` below it, in the
    /// dark colour on a white sheet; the strip is right under the picture.
    @Test func labelsAreDrawnAtExactPositions() throws {
        let sheet = ContactSheet(options: ContactSheetTests.options { $0.label = try! SheetOptions.Label(format: "%f") })
        let page = try sheet.render(page: 0, of: try sheet.plan(ContactSheetTests.photos))
        // Tiles: the 36-pixel box, the 9-pixel strip, the 2 + 13 label.
        #expect(page.layout.label == 15 && page.layout.tileHeight == 60)
        let image = page.files[0].image
        for (index, cell) in page.cells.enumerated() {
            let picture = try #require(cell.picture), tile = cell.tile
            // The picture, strip and label placed together in the middle of the tile.
            #expect(picture.y == tile.y + (60 - picture.height - 24) / 2, "cell \(index)")
            let line = try #require(SheetOptions.Label.image("photo\(index).png", cellWidth: 48, scale: 1, color: SheetOptions.Label.dark))
            let top = picture.y + picture.height + 9 + 2
            #expect(ContactSheetTests.crop(image, x: tile.x, y: top, width: 48, height: 13) == Self.onWhite(line, width: 48, height: 13), "label \(index)")
            // Nothing but white in the gap above the label.
            #expect(ContactSheetTests.crop(image, x: tile.x, y: top - 1, width: 48, height: 1).allSatisfy { $0 == 255 }, "gap \(index)")
        }
    }

    /// A landscape photo in a square cell: the stars directly under it, not under the square.
    @Test func theStripIsTightUnderThePicture() throws {
        var options = SheetOptions(thumbnail: ThumbnailOptions(size: ThumbnailSize(width: 64, height: 64), background: .white))
        options.badgeStyle.cellSize = 8
        options.badgeStyle.halo = nil
        let sheet = ContactSheet(options: options)
        let page = try sheet.render(page: 0, of: try sheet.plan([Self.photo("wide.png", width: 64, height: 32, date: nil, rating: .stars(5))]))
        let picture = try #require(page.cells[0].picture), tile = page.cells[0].tile
        let strip = page.layout.strip
        #expect(strip == 4 + 8 && picture.height == 32)
        // Block of 32 + 12 centred in the 76-pixel tile: 16 pixels above, 16 below.
        #expect(picture.y - tile.y == 16)
        let image = page.files[0].image
        let badge = try RatingBadgeStyle().render(stars: 5, cellSize: 8, scale: 1)
        let rows = ContactSheetTests.crop(image, x: tile.x, y: picture.y + 32, width: 64, height: strip)
        #expect(rows == Self.onWhite(badge, width: 64, height: strip, x: (64 - badge.width) / 2, y: 4))
        // Below the block, to the tile's end, the sheet is bare.
        #expect(ContactSheetTests.crop(image, x: tile.x, y: picture.y + 32 + strip, width: 64, height: 16).allSatisfy { $0 == 255 })
    }

    /// `--sort date`: by EXIF capture time, photos without one last, ties and undated by name.
    @Test func dateOrder() throws {
        let photos = [Self.photo("b-undated.png", date: nil), Self.photo("c.png", date: "2024:06:01 14:03:22"),
                      Self.photo("a-undated.png", date: nil), Self.photo("z.png", date: "2023:12:31 23:59:59"),
                      Self.photo("d.png", date: "2024:06:01 14:03:22")]
        var options = ContactSheetTests.options()
        options.order = .date
        let plan = try ContactSheet(options: options).plan(photos)
        #expect(plan.pages[0].map(\.source.name) == ["z.png", "c.png", "d.png", "a-undated.png", "b-undated.png"])
        #expect(plan.pages[0].map(\.captureDate) == ["2023:12:31 23:59:59", "2024:06:01 14:03:22", "2024:06:01 14:03:22", nil, nil])
        // The default order stays the inputs'.
        let byPath = try ContactSheet(options: ContactSheetTests.options()).plan(photos)
        #expect(byPath.pages[0].map(\.source.name) == photos.map(\.name))
    }

    /// Golden: a labelled sheet (`%r %f`: the rating, then the file name), looked at enlarged
    /// (`Tests/Fixtures/sheet/golden-labels.png`): each label cut with "…" to its 72-pixel cell
    /// and centred under its picture's strip, "unrated" and "rejected" spelt out, the font's
    /// own diamond-shaped full stop.
    @Test func goldenLabelledSheet() throws {
        var options = ContactSheetTests.options { $0.label = try! SheetOptions.Label(format: "%r %f") }
        options.thumbnail.size = ThumbnailSize(width: 72, height: 48)
        let sheet = ContactSheet(options: options)
        let page = try sheet.render(page: 0, of: try sheet.plan(ContactSheetTests.photos))
        let rendered = page.files[0]
        guard let golden = try? ImageSource.file(Fixtures.path("sheet/golden-labels.png")).decodeAsStored() else {
            FileManager.default.createFile(atPath: "/tmp/golden-labels.png", contents: Data(rendered.bytes))
            Issue.record("no golden: wrote /tmp/golden-labels.png to look at")
            return
        }
        #expect(golden.rgba8 == rendered.image.rgba8)
        #expect(SHA256.hex(rendered.image.rgba8) == Self.goldenLabelsHash)
    }

    static let goldenLabelsHash = "a7a74932d8f9f03a0c997c607bbd0b4526d35ee808b96962c32cf89a55c964ee"
}
