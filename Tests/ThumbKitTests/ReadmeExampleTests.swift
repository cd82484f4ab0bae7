import Foundation
import Testing
import ThumbKit
import TestSupport

/// The README's library example and docs/library.md's contact sheet example, compiled and run here:
/// they must keep building as the API changes, and the pages must show exactly this code.
@Suite struct ReadmeExampleTests {
    static let readme = Fixtures.repository.appendingPathComponent("README.md").path

    /// The example's lines, as the README has them (`photo.jpg` stands for a real file).
    static let example = """
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256, mode: .cover)))
        let thumbs = try thumbnailer.thumbnails(of: .file("photo.jpg"), scales: [1, 2])   // [Thumbnail]: .image, .bytes
        let header = try ImageSource.file("photo.jpg").header()                        // format, size, orientation
        let badge = try StarBadge(rating: 3.5, fillMode: .half).render(scale: 2)          // a premultiplied Bitmap
        let png = try PNGEncoder().encode(Image(badge))
        """

    @Test func theReadmeAndTheLibraryPageShowThisExample() throws {
        for page in [Self.readme, Self.libraryPage] {
            let text = try String(contentsOfFile: page, encoding: .utf8)
            #expect(text.contains("import ThumbKit\n" + Self.example + "\n```"), "\(page)")
        }
    }

    @Test func theExampleRuns() throws {
        let photo = Fixtures.path("photos/cat-rgba8.png")
        // The example's code, with the photo's path in place of "photo.jpg".
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256, mode: .cover)))
        let thumbs = try thumbnailer.thumbnails(of: .file(photo), scales: [1, 2])   // [Thumbnail]: .image, .bytes
        let header = try ImageSource.file(photo).header()                        // format, size, orientation
        let badge = try StarBadge(rating: 3.5, fillMode: .half).render(scale: 2)          // a premultiplied Bitmap
        let png = try PNGEncoder().encode(Image(badge))

        #expect(thumbs.map(\.scale) == [1, 2] && thumbs[0].image.width == 256 && thumbs[0].image.height == 256)
        #expect(header.format == .png && header.width > 0)
        #expect(badge.width == 2 * (5 * 16 + 4) && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    static let libraryPage = Fixtures.repository.appendingPathComponent("docs/library.md").path

    /// The contact sheet example, as docs/library.md has it.
    static let sheetExample = """
        var sheetOptions = SheetOptions()
        sheetOptions.columns = 4
        sheetOptions.order = .rating
        let sheet = ContactSheet(options: sheetOptions, jobs: 2)
        let plan = try sheet.plan([SheetSource(name: "a.jpg", image: .file("a.jpg"), rating: .stars(4))])
        let page = try sheet.render(page: 0, of: plan)                  // page.files[0].bytes: the PNG
        let map = page.mapJSON(fileNames: ["sheet.png"])               // sheet.json's bytes
        """

    @Test func theLibraryPageShowsTheSheetExample() throws {
        let text = try String(contentsOfFile: Self.libraryPage, encoding: .utf8)
        #expect(text.contains("```swift\n" + Self.sheetExample + "\n```"))
    }

    @Test func theSheetExampleRuns() throws {
        let photo = Fixtures.path("photos/cat-rgba8.png")
        var sheetOptions = SheetOptions()
        sheetOptions.columns = 4
        sheetOptions.order = .rating
        let sheet = ContactSheet(options: sheetOptions, jobs: 2)
        let plan = try sheet.plan([SheetSource(name: "a.jpg", image: .file(photo), rating: .stars(4))])
        let page = try sheet.render(page: 0, of: plan)                  // page.files[0].bytes: the PNG
        let map = page.mapJSON(fileNames: ["sheet.png"])               // sheet.json's bytes

        #expect(page.files[0].bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && page.layout.width == 128 + 16)
        #expect(String(decoding: map, as: UTF8.self).contains("\"rating\": 4,"))
    }
}
