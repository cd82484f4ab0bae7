import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Contact sheets: what is shown, in which order, where (the map matches the pixels), and the
/// sheet's own golden pixels.
@Suite struct ContactSheetTests {
    /// Seven small photos of different shapes and colours, rated 5, 3.5, none, 1, rejected, 4.5, 0.
    static let photos: [SheetSource] = {
        let ratings: [Rating?] = [.stars(5), .stars(3.5), nil, .stars(1), .rejected, .stars(4.5), .stars(0)]
        return ratings.enumerated().map { index, rating in
            let width = 60 + 25 * (index % 3), height = 40 + 30 * (index % 2)
            let image = TestPatterns.image(width, height) { x, y in
                (UInt8((x * 4 + index * 40) % 256), UInt8((y * 5 + index * 70) % 256), UInt8((index * 90) % 256), 255)
            }
            return SheetSource(name: "photo\(index).png", image: .bytes(try! PNGEncoder().encode(image)), rating: rating)
        }
    }()

    static func options(_ change: (inout SheetOptions) -> Void = { _ in }) -> SheetOptions {
        var options = SheetOptions(thumbnail: ThumbnailOptions(size: ThumbnailSize(width: 48, height: 36), background: .white))
        options.columns = 3
        options.gap = 4
        options.badgeStyle.cellSize = 7
        options.badgeStyle.margin = 2
        change(&options)
        return options
    }

    @Test func theMapMatchesTheLayoutAndThePixels() throws {
        let sheet = ContactSheet(options: Self.options(), jobs: 3)
        let plan = try sheet.plan(Self.photos)
        #expect(plan.pages.count == 1 && plan.failures.isEmpty)
        let page = try sheet.render(page: 0, of: plan)
        // 3 columns of 48 with 4-pixel gaps; tiles 36 + a 2 + 7 strip high, 3 rows.
        #expect(page.layout.width == 3 * 48 + 4 * 4 && page.layout.height == 3 * 45 + 4 * 4)
        let file = try #require(page.files.first)
        #expect(file.image.width == page.layout.width && file.image.height == page.layout.height)

        let map = try JSONParser.parse(SheetMap.json(for: page, fileNames: ["sheet.png"]))
        let cells = try #require(map.objectValue?["cells"]?.arrayValue)
        #expect(cells.count == 7)
        let thumbnailer = Thumbnailer(options: Self.options().thumbnail)
        for (index, cell) in cells.enumerated() {
            let members = try #require(cell.objectValue)
            func int(_ value: JSONValue?) -> Int { Int(value?.integerValue ?? -1) }
            let tile = page.layout.tile(index)
            #expect(int(members["x"]) == tile.x && int(members["y"]) == tile.y)
            #expect(int(members["width"]) == 48 && int(members["height"]) == 45)
            #expect(members["source"]?.stringValue == "photo\(index).png")
            if let rating = Self.photos[index].externalRating.rating {
                #expect(members["rating"]?.numberValue == rating.storedValue)
            } else {
                #expect(members["rating"] == .null)
            }
            // The picture the map points at holds exactly the thumbnail of the photo.
            let picture = try #require(members["picture"]?.objectValue)
            let expected = try thumbnailer.thumbnails(of: Self.sourceImage(index))[0].image
            #expect(int(picture["width"]) == expected.width && int(picture["height"]) == expected.height)
            #expect(Self.crop(file.image, x: int(picture["x"]), y: int(picture["y"]), width: expected.width, height: expected.height)
                    == expected.rgba8, "cell \(index)")
            // Centred in the tile together with the 9-pixel strip right under it.
            #expect(int(picture["x"]) == tile.x + (48 - expected.width) / 2 && int(picture["y"]) == tile.y + (45 - expected.height - 9) / 2)
            // The strip holds the stars badge over its halo, on white, for rated photos, white
            // otherwise; one row more than the strip, where the halo reaches below the badge.
            let strip = Self.crop(file.image, x: tile.x, y: int(picture["y"]) + expected.height, width: 48, height: 10)
            if let stars = Self.photos[index].externalRating.rating?.stars {
                let style = RatingBadgeStyle.with(cell: 7)
                let badge = try style.render(stars: stars, cellSize: 7, scale: 1)
                let halo = try #require(style.haloImage(around: badge, cellSize: 7, scale: 1))
                let white = Image(width: 48, height: 10, rgba8: [UInt8](repeating: 255, count: 48 * 10 * 4))
                let x = (48 - badge.width) / 2
                #expect(strip == white.compositing(halo, x: x - 1, y: 1).compositing(badge, x: x, y: 2).rgba8, "badge \(index)")
            } else {
                #expect(strip.allSatisfy { $0 == 255 }, "no badge \(index)")
            }
        }
        // Gaps are background.
        #expect(Self.crop(file.image, x: 0, y: 0, width: page.layout.width, height: 4).allSatisfy { $0 == 255 })
    }

    static func sourceImage(_ index: Int) -> ImageSource {
        // The photos' sources as built above (SheetSource hides its image).
        let width = 60 + 25 * (index % 3), height = 40 + 30 * (index % 2)
        let image = TestPatterns.image(width, height) { x, y in
            (UInt8((x * 4 + index * 40) % 256), UInt8((y * 5 + index * 70) % 256), UInt8((index * 90) % 256), 255)
        }
        return .bytes(try! PNGEncoder().encode(image))
    }

    static func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        let samples = image.rgba8
        var out: [UInt8] = []
        for row in y ..< y + height { out += samples[(row * image.width + x) * 4 ..< (row * image.width + x + width) * 4] }
        return out
    }

    @Test func ratingOrderFiltersAndPages() throws {
        let sheet = ContactSheet(options: Self.options { $0.order = .rating; $0.minimumRating = 1; $0.perPage = 2 })
        let plan = try sheet.plan(Self.photos)
        #expect(plan.pages.map { $0.map(\.source.name) } == [["photo0.png", "photo5.png"], ["photo1.png", "photo3.png"]])
        #expect(plan.filteredOut == 3)   // unrated, rejected, 0 stars
        let all = try ContactSheet(options: Self.options { $0.order = .rating }).plan(Self.photos)
        #expect(all.pages[0].map(\.source.name) == ["photo0.png", "photo5.png", "photo1.png", "photo3.png", "photo6.png", "photo2.png", "photo4.png"])
        // The second page is laid out like the first: same columns, its own rows.
        let second = try sheet.render(page: 1, of: plan)
        #expect(second.index == 1 && second.pageCount == 2 && second.cells.map(\.name) == ["photo1.png", "photo3.png"])
        #expect(second.layout.columns == 2 && second.layout.rows == 1)
    }

    @Test func aPhotoThatFailsIsLeftOutOrLeftBlankAndTheRestAreDrawn() throws {
        let png = try PNGEncoder().encode(TestPatterns.gradient(90, 60))
        let cut = SheetSource(name: "cut.png", image: .bytes(Array(png.prefix(png.count - 30))), rating: .stars(2))
        let junk = SheetSource(name: "junk.png", image: .bytes([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        let sheet = ContactSheet(options: Self.options())
        let plan = try sheet.plan([Self.photos[0], junk, cut])
        #expect(plan.failures.map(\.name) == ["junk.png"])
        let page = try sheet.render(page: 0, of: plan)
        #expect(page.cells.map(\.name) == ["photo0.png", "cut.png"])
        #expect(page.cells[0].error == nil && page.cells[1].error != nil && page.cells[1].picture == nil)
        let tile = page.layout.tile(1)
        #expect(Self.crop(page.files[0].image, x: tile.x, y: tile.y, width: 48, height: 45).allSatisfy { $0 == 255 })
        let map = String(decoding: SheetMap.json(for: page, fileNames: ["s.png"]), as: UTF8.self)
        #expect(map.contains("\"error\": \"") && map.contains("\"source\": \"cut.png\""))
    }

    @Test func scalesMultiplyTheLayoutExactly() throws {
        let sheet = ContactSheet(options: Self.options { $0.scales = [1, 2, 3] })
        let page = try sheet.render(page: 0, of: try sheet.plan(Self.photos))
        #expect(page.files.map { "\($0.image.width)x\($0.image.height)" } == (1...3).map { "\(160 * $0)x\(151 * $0)" })
    }

    @Test func badgesOnThePicturesAndTransparentSheets() throws {
        let sheet = ContactSheet(options: Self.options {
            $0.badge = .on(.southEast)
            $0.badgeStyle.cellSize = nil
            $0.thumbnail.background = nil
        })
        let page = try sheet.render(page: 0, of: try sheet.plan(Self.photos))
        #expect(page.layout.strip == 0 && page.layout.height == 3 * 36 + 4 * 4)
        let image = page.files[0].image
        #expect(Self.crop(image, x: 0, y: 0, width: 4, height: 4).allSatisfy { $0 == 0 })   // transparent gap
        // Each rated picture is the thumbnail with the badge drawn on it, as --rating-badge draws it.
        var options = Self.options().thumbnail
        options.background = nil
        options.ratingBadge = RatingBadgeStyle.with(cell: nil)
        for (index, cell) in page.cells.enumerated() {
            let expected = try Thumbnailer(options: options).thumbnails(of: Self.sourceImage(index), rating: cell.rating)[0].image
            let picture = try #require(cell.picture)
            #expect(Self.crop(image, x: picture.x, y: picture.y, width: expected.width, height: expected.height) == expected.rgba8)
        }
    }

    @Test func pagesTooLargeAreRefusedBeforeDecoding() throws {
        let webp = ContactSheet(options: Self.options {
            $0.thumbnail.format = .webp(WebPEncoder())
            $0.thumbnail.size = ThumbnailSize(width: 9000, height: 100)
            $0.columns = 2
        })
        #expect(throws: SheetError.pageTooLarge(width: 18012, height: 456, scale: 1, limit: .formatSide(format: "WebP", pixels: 16383))) {
            try webp.plan(Self.photos)
        }
        let budget = ContactSheet(options: Self.options { $0.thumbnail.limits.maxMemory = 100_000 })
        #expect(throws: SheetError.self) { try budget.plan(Self.photos) }
        #expect(throws: SheetError.invalidColumns(0)) {
            try ContactSheet(options: Self.options { $0.columns = 0 }).plan(Self.photos)
        }
    }

    /// The library names `SheetOptions`' fields; the command line spells them as its flags.
    @Test func messagesNameFieldsAndTheCommandLineNamesFlags() throws {
        do {
            _ = try ContactSheet(options: Self.options { $0.perPage = 0 }).plan(Self.photos)
            Issue.record("perPage 0 was accepted")
        } catch {
            #expect(error.message == "perPage must be at least 1, not 0")
            #expect(error.message(naming: { "<\($0)>" }) == "<perPage> must be at least 1, not 0")
        }
        let page = SheetError.pageTooLarge(width: 10, height: 20, scale: 2, limit: .pixels(limit: 100))
        #expect(page.message == "a sheet page would be 10x20 at @2x, over the 100-pixel limit (thumbnail.limits.maxPixels) (use perPage or fewer columns)")
        #expect(!page.isAboutOptions && SheetError.invalidScales.isAboutOptions)
    }

    /// Golden: the pixels of a small sheet, looked at (`Tests/Fixtures/sheet/golden-sheet.png`
    /// is the page, enlarged 4x to check: five stars, 3.5 as three and a half, none for the
    /// unrated and rejected photos, one star, 4.5, and zero as five empty grey stars; its SHA-256
    /// of RGBA8 is pinned here) and believed right.
    @Test func goldenSheet() throws {
        let sheet = ContactSheet(options: Self.options { $0.badgeStyle.empty = Color(red: 210, green: 210, blue: 210); $0.badgeStyle.fillMode = .half })
        let page = try sheet.render(page: 0, of: try sheet.plan(Self.photos))
        let golden = try ImageSource.file(Fixtures.path("sheet/golden-sheet.png")).decodeAsStored()
        if golden.rgba8 != page.files[0].image.rgba8 {
            // The page as drawn now, to look at before it replaces the golden.
            FileManager.default.createFile(atPath: "/tmp/golden-sheet.png", contents: Data(page.files[0].bytes))
        }
        #expect(golden.rgba8 == page.files[0].image.rgba8)
        #expect(SHA256.hex(page.files[0].image.rgba8) == Self.goldenPixelHash)
        #expect(SHA256.hex(SheetMap.json(for: page, fileNames: ["golden-sheet.png"])) == Self.goldenMapHash)
    }

    static let goldenPixelHash = "0ab2c276ce1743c931d7d709e366357b2b000a06916c6a041b47695d7b483c5c"
    /// `Tests/Fixtures/sheet/golden-sheet.json`, byte for byte.
    static let goldenMapHash = "8cd6333925b4d641024649c586da9b7f45fd8b33e9bc0bb796d1377c12771efa"

    @Test func aSheetsOwnFilesAreNotPhotos() {
        let plain = SheetNaming(stem: "out/sheet", fileExtension: "png", numbered: false)
        #expect(plain.isOwnFile("out/sheet.png") && plain.isOwnFile("./out/sheet@2x.png") && plain.isOwnFile("out/sheet.PNG"))
        #expect(!plain.isOwnFile("out/sheet-1.png") && !plain.isOwnFile("out/sheets.png") && !plain.isOwnFile("out/sheet.jpg"))
        let pages = SheetNaming(stem: "sheet", fileExtension: "webp", numbered: true)
        #expect(pages.isOwnFile("sheet-12.webp") && pages.isOwnFile("sheet-3@3x.webp"))
        #expect(!pages.isOwnFile("sheet.webp") && !pages.isOwnFile("sheet-.webp") && !pages.isOwnFile("sheet-a.webp"))
        #expect(pages.image(page: 1, scale: 2) == "sheet-2@2x.webp" && pages.map(page: 0) == "sheet-1.json")
    }
}

extension RatingBadgeStyle {
    /// The default look with a fixed cell, margin 2 (as the tests' sheets use).
    static func with(cell: Int?) -> RatingBadgeStyle {
        var style = RatingBadgeStyle()
        style.cellSize = cell
        style.margin = 2
        return style
    }
}
