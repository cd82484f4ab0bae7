import Testing
@testable import ThumbKit

/// A library caller cannot crash the process with an argument: bad scales and boxes throw.
@Suite struct ThumbnailerArgumentTests {
    static let png = try! PNGEncoder().encode(TestPatterns.noise(40, 30, seed: 1))

    @Test(arguments: [[0], [-1], [1, 9], [], [Int.max]])
    func badScalesThrow(scales: [Int]) {
        let expected = ThumbnailError.invalidScale(scales.first { !(1...8).contains($0) } ?? 0)
        #expect(throws: expected) { try Thumbnailer().thumbnails(of: .bytes(Self.png), scales: scales) }
        if let scale = scales.first {
            #expect(throws: ThumbnailError.invalidScale(scale == 1 ? 9 : scale)) {
                try Thumbnailer().thumbnail(of: TestPatterns.noise(4, 4, seed: 2), scale: scale == 1 ? 9 : scale)
            }
        }
    }

    @Test(arguments: [(0, 10), (10, 0), (-5, 5), (ThumbnailSize.maximumSide + 1, 10)])
    func badBoxesThrow(width: Int, height: Int) {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: width, height: height)))
        #expect(throws: ThumbnailError.invalidSize(width: width, height: height)) {
            try thumbnailer.thumbnails(of: .bytes(Self.png))
        }
        #expect(throws: ThumbnailError.invalidSize(width: width, height: height)) {
            try thumbnailer.thumbnail(of: TestPatterns.noise(4, 4, seed: 2))
        }
        #expect(!ThumbnailSize(width: width, height: height).isValid)
    }

    @Test func scalesUpToEightWork() throws {
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 4, height: 4)))
        let thumbnails = try thumbnailer.thumbnails(of: .bytes(Self.png), scales: [1, 8])
        #expect(thumbnails.map(\.image.width) == [4, 32])
        #expect(ThumbnailError.invalidScale(9).message == "scale 9 is not 1 to 8")
    }

    /// The in-memory entry point gives what the encoded one gives for the same pixels.
    @Test func anImageInMemoryMatchesItsFile() throws {
        let image = TestPatterns.noise(40, 30, seed: 1)
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 16, height: 16), cornerRadius: 3))
        let fromMemory = try thumbnailer.thumbnail(of: image, scale: 2)
        let fromFile = try thumbnailer.thumbnails(of: .bytes(Self.png), scales: [2])[0]
        #expect(fromMemory.bytes == fromFile.bytes && fromMemory.scale == 2)
    }
}
