import Foundation
import Testing
import ThumbKit

/// The README's "As a library" example, compiled and run here: it must keep building as the API
/// changes, and the README must show exactly this code.
@Suite struct ReadmeExampleTests {
    static let readme = Fixtures.repository.appendingPathComponent("README.md").path

    /// The example's lines, as the README has them (`photo.jpg` stands for a real file).
    static let example = """
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256, mode: .cover)))
        let thumbs = try thumbnailer.thumbnails(of: .file("photo.jpg"), scales: [1, 2])   // [Thumbnail]: .image, .png
        let header = try ImageSource.file("photo.jpg").header()                        // format, size, orientation
        let badge = try StarBadge(rating: 3.5, fillMode: .half).render(scale: 2)          // a premultiplied Bitmap
        let png = try PNGEncoder().encode(Image(badge))
        """

    @Test func theReadmeShowsThisExample() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        #expect(text.contains("import ThumbKit\n" + Self.example + "\n```"))
    }

    @Test func theExampleRuns() throws {
        let photo = Fixtures.path("photos/cat-rgba8.png")
        // The example's code, with the photo's path in place of "photo.jpg".
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 256, height: 256, mode: .cover)))
        let thumbs = try thumbnailer.thumbnails(of: .file(photo), scales: [1, 2])   // [Thumbnail]: .image, .png
        let header = try ImageSource.file(photo).header()                        // format, size, orientation
        let badge = try StarBadge(rating: 3.5, fillMode: .half).render(scale: 2)          // a premultiplied Bitmap
        let png = try PNGEncoder().encode(Image(badge))

        #expect(thumbs.map(\.scale) == [1, 2] && thumbs[0].image.width == 256 && thumbs[0].image.height == 256)
        #expect(header.format == .png && header.width > 0)
        #expect(badge.width == 2 * (5 * 16 + 4) && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
