import Foundation
import Testing
@testable import ThumbKit
import TestSupport

/// `--ratings-file`: CSV and JSON, paths relative to the file, precedence over sidecars, and
/// errors that name the line.
@Suite struct RatingsFileTests {
    static func file(_ text: String, at path: String = "/photos/ratings.csv", cwd: String = "/work") throws(RatingsFileError) -> RatingsFile {
        try RatingsFile(path: path, contents: Array(text.utf8), workingDirectory: cwd)
    }

    static func error(_ text: String, at path: String = "/photos/ratings.csv") -> RatingsFileError? {
        do throws(RatingsFileError) { _ = try file(text, at: path); return nil } catch { return error }
    }

    @Test func csvWithHeaderQuotesAndCRLF() throws {
        let ratings = try Self.file("path,rating\r\na.jpg,4\r\n\"b, with comma.jpg\",4.5\r\n\r\n\"say \"\"hi\"\".png\",-1\r\nsub/../c.jpg,0")
        #expect(ratings.count == 4)
        #expect(ratings.rating(forSourceAt: "/photos/a.jpg") == .stars(4))
        #expect(ratings.rating(forSourceAt: "/photos/b, with comma.jpg") == .stars(4.5))
        #expect(ratings.rating(forSourceAt: "/photos/say \"hi\".png") == .rejected)
        #expect(ratings.rating(forSourceAt: "/photos//./c.jpg") == .stars(0))
        #expect(ratings.rating(forSourceAt: "/photos/d.jpg") == nil)
    }

    /// Entries are relative to the ratings file; photos to the working directory.
    @Test func relativePathsOnBothSides() throws {
        let ratings = try Self.file("a.jpg,3\n/abs/b.jpg,2\n", at: "lists/ratings.csv", cwd: "/work")
        #expect(ratings.rating(forSourceAt: "/work/lists/a.jpg") == .stars(3))
        #expect(ratings.rating(forSourceAt: "lists/a.jpg") == .stars(3))
        #expect(ratings.rating(forSourceAt: "./lists/x/../a.jpg") == .stars(3))
        #expect(ratings.rating(forSourceAt: "a.jpg") == nil)
        #expect(ratings.rating(forSourceAt: "/abs/b.jpg") == .stars(2))
    }

    @Test func jsonObjectAndArray() throws {
        let object = try Self.file(#"{"a.jpg": 5, "b.jpg": 2.5, "c.jpg": -1}"#, at: "/p/r.json")
        #expect(object.rating(forSourceAt: "/p/a.jpg") == .stars(5))
        #expect(object.rating(forSourceAt: "/p/b.jpg") == .stars(2.5))
        #expect(object.rating(forSourceAt: "/p/c.jpg") == .rejected)
        let array = try Self.file(#"  [{"path": "a.jpg", "rating": 1}, {"path": "/x/b.jpg", "rating": 0}]"#, at: "/p/r.json")
        #expect(array.rating(forSourceAt: "/p/a.jpg") == .stars(1))
        #expect(array.rating(forSourceAt: "/x/b.jpg") == .stars(0))
    }

    @Test func malformedFilesNameTheLine() {
        #expect(Self.error("a.jpg,4\nb.jpg,4\nc.jpg,four\n") == RatingsFileError(file: "/photos/ratings.csv", line: 3, reason: .badRating("four")))
        #expect(Self.error("a.jpg,4\nb.jpg,6\n")?.line == 2)
        #expect(Self.error("a.jpg,4\nb.jpg\n") == RatingsFileError(file: "/photos/ratings.csv", line: 2, reason: .syntax("expected 2 fields (path,rating), found 1")))
        #expect(Self.error("a.jpg,4\n\"b.jpg,4\n")?.line == 2)
        #expect(Self.error("a.jpg,4\n./a.jpg,5\n") == RatingsFileError(file: "/photos/ratings.csv", line: 2, reason: .duplicate(path: "./a.jpg", firstLine: 1)))
        #expect(Self.error(",4\n") == RatingsFileError(file: "/photos/ratings.csv", line: 1, reason: .emptyPath))
        #expect(Self.error("{\n\"a.jpg\": 4,\n\"b.jpg\" 5}", at: "r.json")?.line == 3)
        #expect(Self.error(#"{"a.jpg": "4"}"#, at: "r.json")?.reason == .syntax("rating of a.jpg is not -1 or a number from 0 to 5"))
        #expect(Self.error(#"[{"name": "a.jpg"}]"#, at: "r.json")?.line == nil)
        #expect(Self.error("a.jpg,\u{FFFD}\n")?.reason == .badRating("\u{FFFD}"))
        #expect(Self.error("a.jpg,4\nb.jpg,four\n")?.message == "ratings file /photos/ratings.csv, line 2: rating 'four' is not -1 or a number from 0 to 5")
        do throws(RatingsFileError) {
            _ = try RatingsFile(path: "/no/such/ratings.csv")
            Issue.record("read a missing file")
        } catch {
            #expect(error.reason == .unreadable("no such file or directory"))
        }
    }

    @Test func ratingsFileBeatsSidecarBeatsFile() throws {
        let folder = Fixtures.path("ratings")
        let ratings = try RatingsFile(path: folder + "/ratings.csv", contents: Array("sidecar-both.jpg,1\n".utf8),
                                      workingDirectory: "/")
        let reader = RatingReader(ratingsFile: ratings)
        let listed = folder + "/sidecar-both.jpg"
        #expect(reader.externalRating(forSourceAt: listed) == RatingLookup(rating: .stars(1), origin: .ratingsFile))
        let header = try ImageSource.file(listed).header()
        #expect(RatingReader().lookup(forSourceAt: listed, header: header) == RatingLookup(rating: .stars(5), origin: .sidecar))
        #expect(RatingReader(readsSidecars: false).lookup(forSourceAt: listed, header: header) == RatingLookup(rating: .stars(2), origin: .xmp))
    }

    /// Read from disk: a BOM is skipped, and a file above the limit is refused before it is read.
    @Test func readFromDisk() throws {
        let folder = NSTemporaryDirectory() + "thumbgen-ratings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([0xEF, 0xBB, 0xBF] + Array("path,rating\nx.png,2\n".utf8)).write(to: URL(fileURLWithPath: folder + "/r.csv"))
        let ratings = try RatingsFile(path: folder + "/r.csv")
        #expect(ratings.rating(forSourceAt: folder + "/x.png") == .stars(2))
        #expect(FileSystem.readSmallFile(FilePath(folder + "/r.csv"), maxBytes: 4) == .success(.tooLarge(size: 23)))
        #expect(FileSystem.readSmallFile(FilePath(folder + "/missing"), maxBytes: 4) == .success(.absent))
        #expect(FileSystem.readSmallFile(FilePath(folder), maxBytes: 4) == .failure(SystemFailure(reason: "is a directory")))
    }
}
