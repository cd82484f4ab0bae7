import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// Files are read through their descriptor, a chunk at a time, and give exactly what the same
/// bytes in memory give: pixels, warnings and errors.
@Suite struct FileReadingTests {
    /// Each seed JPEG, plus cut-off and damaged copies, written to a file.
    static let jpegCases: [(label: String, bytes: [UInt8])] = {
        var cases: [(String, [UInt8])] = []
        for name in ["baseline.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg", "oriented.jpg"] {
            let bytes = [UInt8](FileManager.default.contents(atPath: Fixtures.path("fuzz-seeds/" + name))!)
            cases.append((name, bytes))
            cases.append((name + " cut in half", Array(bytes.prefix(bytes.count / 2))))
            var damaged = bytes
            for i in stride(from: bytes.count / 3, to: bytes.count - 2, by: 97) { damaged[i] ^= 0x55 }
            cases.append((name + " damaged", damaged))
        }
        // Larger than one 64 KiB read chunk, so the reader refills mid-image.
        let noise = JPEGFixtures.rgb(width: 400, height: 300) { x, y in (UInt8((x * 7 + y * 13) % 256), UInt8((x * y) % 256), UInt8((x ^ y) % 256)) }
        let big = JPEGFixtures.encode(noise, width: 400, height: 300, quality: 100)
        cases.append(("400x300 quality 100 (\(big.count) bytes)", big))
        cases.append(("progressive 400x300", JPEGFixtures.encode(noise, width: 400, height: 300, quality: 100, progressive: true)))
        return cases
    }()

    static func outcome(_ source: ImageSource, options: ThumbnailOptions, scales: [Int]) -> String {
        do {
            let thumbnails = try Thumbnailer(options: options).thumbnails(of: source, scales: scales)
            return thumbnails.map { "\(SHA256.hex($0.bytes)) \($0.warnings)" }.joined(separator: "; ")
        } catch {
            return "error: \(error.message)"
        }
    }

    @Test(arguments: 0..<jpegCases.count)
    func aFileGivesWhatItsBytesGive(index: Int) throws {
        let (label, bytes) = Self.jpegCases[index]
        let path = Fixtures.temporaryDirectory("file-reading") + "/source.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var options = ThumbnailOptions(size: ThumbnailSize(width: 48, height: 48))
        for (streams, scales) in [(true, [1]), (false, [1, 2])] {
            for partial in [false, true] {
                options.allowPartial = partial
                let fromFile = Self.outcome(.file(path), options: options, scales: scales)
                let fromBytes = Self.outcome(.bytes(bytes), options: options, scales: scales)
                #expect(fromFile == fromBytes, "\(label), streams \(streams), partial \(partial)")
            }
        }
    }

    @Test func aTruncatedJPEGFileIsTruncated() throws {
        let bytes = Self.jpegCases[0].bytes
        let path = Fixtures.temporaryDirectory("file-reading") + "/cut.jpg"
        try Data(bytes.prefix(bytes.count - 40)).write(to: URL(fileURLWithPath: path))
        #expect(throws: ThumbnailError.decode(.truncated)) { try Thumbnailer().thumbnails(of: .file(path)) }
    }

    /// What follows the end of the image data is never needed, so a file with gigabytes after
    /// IEND or EOI (sparse: no disk is used) thumbnails as the image alone does.
    @Test(arguments: ["hostile/good-rgb.png", "fuzz-seeds/baseline.jpg"])
    func gigabytesAfterTheEndAreNotRead(fixture: String) throws {
        let image = [UInt8](FileManager.default.contents(atPath: Fixtures.path(fixture))!)
        let path = Fixtures.temporaryDirectory("file-reading") + "/trailing-" + (fixture as NSString).lastPathComponent
        try Data(image).write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(image.count) + (4 << 30))
        try handle.close()
        let thumbnails = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 8, height: 8))).thumbnails(of: .file(path))
        let alone = try Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 8, height: 8))).thumbnails(of: .bytes(image))
        #expect(thumbnails[0].bytes == alone[0].bytes)
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func aFileOverTheByteLimitIsRefusedBeforeReading() throws {
        let path = Fixtures.path("fuzz-seeds/baseline.jpg")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64
        var options = ThumbnailOptions()
        options.limits.maxFileBytes = size - 1
        #expect(throws: ThumbnailError.decode(.limitExceeded(LimitExceeded(limit: .fileBytes, actual: size, allowed: size - 1)))) {
            try Thumbnailer(options: options).thumbnails(of: .file(path))
        }
    }

    @Test func onlyRegularFilesAreOpened() {
        #expect(throws: ThumbnailError.decode(.unreadable(reason: "is a directory"))) {
            try Thumbnailer().thumbnails(of: .file(Fixtures.directory))
        }
        let missing = #expect(throws: ThumbnailError.self) { try Thumbnailer().thumbnails(of: .file(Fixtures.directory + "/missing.jpg")) }
        #expect(missing?.message == "cannot read: no such file or directory")
    }
}
