import Foundation
import Testing
@testable import ThumbKit
import ThumbgenCLI
import TestSupport

/// A library caller gets what the command line writes: one front door, one pipeline.
@Suite struct LibraryMatchesCommandLineTests {
    @Test(arguments: [[1], [1, 2]])
    func aRotatedJPEGWithAProfileGivesTheSameBytes(scales: [Int]) throws {
        let p3 = try JPEGFixtures.displayP3Profile()
        let stored = JPEGFixtures.rgb(width: 90, height: 120) { x, y in (UInt8(x * 2), UInt8(y * 2), x < 45 ? 230 : 40) }
        let jpeg = JPEGFixtures.encode(stored, width: 90, height: 120,
                                       exif: JPEGFixtures.exif(orientation: 6, bigEndian: false), icc: p3)
        let directory = Fixtures.temporaryDirectory("library-cli")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/in", withIntermediateDirectories: true)
        let path = directory + "/in/photo.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(jpeg)))

        let status = ThumbgenMain.run([directory + "/in", "-o", directory + "/out", "--size", "40",
                                       "--scales", scales.map(String.init).joined(separator: ","), "-q", "--no-fsync"])
        #expect(status == 0)
        let thumbnails = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40)))
            .thumbnails(of: .file(path), scales: scales)
        for thumbnail in thumbnails {
            let name = directory + "/out/photo" + (thumbnail.scale == 1 ? "" : "@\(thumbnail.scale)x") + ".png"
            let written = try #require(FileManager.default.contents(atPath: name))
            #expect([UInt8](written) == thumbnail.bytes, "@\(thumbnail.scale)x")
        }
        // Upright (120 × 90 stored turned a quarter) and converted: leaving either out differs.
        #expect((thumbnails[0].image.width, thumbnails[0].image.height) == (40, 30))
        let unrotated = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40), autoRotate: false))
            .thumbnails(of: .file(path))[0].image
        #expect((unrotated.width, unrotated.height) == (30, 40))
        let unconverted = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40), keepProfile: true))
            .thumbnails(of: .file(path))[0].image
        #expect(unconverted != thumbnails[0].image)
    }
}
