import Foundation
import Testing
import ThumbKit
import ThumbKitTesting

@Test func coverThumbnailMatchesItsGolden() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let photo = ImageSource.file(here.appendingPathComponent("Fixtures/cat.png").path)
    let options = ThumbnailOptions(size: ThumbnailSize(width: 64, height: 64, mode: .cover), cornerRadius: 8)
    let thumbnail = try Thumbnailer(options: options).thumbnails(of: photo)[0]

    // Goldens/cat-64.png beside this file: recorded on the first run, compared after.
    assertImage(thumbnail, matchesGolden: "Goldens/cat-64.png")

    // The source as the thumbnailer saw it (upright, sRGB), and hashes as a manifest records them.
    let source = try photo.decode()
    #expect(source.width == 320 && source.height == 480)
    #expect(thumbnail.pixelHash == thumbnail.image.pixelHash && thumbnail.fileHash.count == 64)
}
