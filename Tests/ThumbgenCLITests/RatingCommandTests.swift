import Foundation
import Testing
@testable import ThumbgenCLI
import ThumbKit
import TestSupport

/// The command line's rating badges and contact sheets: ratings from a ratings file and sidecars
/// reach the pixels and the manifest, a changed rating rebuilds, sheets and their maps are written
/// whole and silently, and every misuse is one clear line.
@Suite struct RatingCommandTests {
    let fileManager = FileManager.default

    /// A folder of three small photos (PNG), and a ratings file rating two of them.
    func photos(_ label: String) throws -> String {
        let directory = Fixtures.temporaryDirectory(label)
        try fileManager.createDirectory(atPath: directory + "/in", withIntermediateDirectories: true)
        for (index, name) in ["a", "b", "c"].enumerated() {
            let image = Self.pattern(300 + 40 * index, 220 + 20 * index, seed: index)
            try Data(PNGEncoder().encode(image)).write(to: URL(fileURLWithPath: "\(directory)/in/\(name).png"))
        }
        return directory
    }

    static func pattern(_ width: Int, _ height: Int, seed: Int) -> Image {
        var samples = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                samples[i] = UInt8((x * 3 + seed * 50) % 256); samples[i + 1] = UInt8((y * 4 + seed * 90) % 256)
                samples[i + 2] = UInt8((x + y + seed * 30) % 256)
            }
        }
        return Image(width: width, height: height, rgba8: samples)
    }

    func read(_ path: String) throws -> [UInt8] { [UInt8](try #require(fileManager.contents(atPath: path))) }

    func manifestEntries(_ directory: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/thumbgen-manifest.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(json["outputs"] as? [[String: Any]])
    }

    @Test func aBadgeFromARatingsFileIsTheStarsBadgeAndARatingChangeRebuilds() throws {
        let dir = try photos("badge")
        try "path,rating\nin/a.png,4\nin/b.png,-1\n".write(toFile: dir + "/ratings.csv", atomically: true, encoding: .utf8)
        let args = [dir + "/in", "-o", dir + "/out", "--size", "120x90", "--fit", "cover", "--rating-badge", "southeast",
                    "--ratings-file", dir + "/ratings.csv", "--badge-size", "12", "--badge-halo", "none"]
        let run = CLIRun(args)
        #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        let plain = CLIRun([dir + "/in", "-o", dir + "/plain", "--size", "120x90", "--fit", "cover"])
        #expect(plain.status == .success)
        // a: the stars command's 4-star badge over the plain thumbnail, 4 pixels from the corner.
        #expect(CLIRun(["stars", "-o", dir + "/stars", "--size", "12", "--ratings", "4", "--outline-width", "0.75"]).status == .success)
        let badge = try ImageSource.bytes(read(dir + "/stars/4StarsSmall.png")).decodeAsStored()
        let plainA = try ImageSource.bytes(read(dir + "/plain/a.png")).decodeAsStored()
        let badgedA = try ImageSource.bytes(read(dir + "/out/a.png")).decodeAsStored()
        let same = plainA.compositing(badge, x: 120 - 4 - badge.width, y: 90 - 4 - badge.height) == badgedA
        #expect(same)
        // b is rejected and c unrated: no badge.
        #expect(try read(dir + "/out/b.png") == read(dir + "/plain/b.png"))
        #expect(try read(dir + "/out/c.png") == read(dir + "/plain/c.png"))
        // The manifest records each rating and where it came from.
        let byOutput = Dictionary(uniqueKeysWithValues: try manifestEntries(dir + "/out").map { ($0["output"] as! String, $0) })
        #expect(byOutput["a.png"]?["rating"] as? Int == 4 && byOutput["a.png"]?["ratingOrigin"] as? String == "ratings-file")
        #expect(byOutput["b.png"]?["rating"] as? Int == -1)
        #expect(byOutput["c.png"]?["rating"] is NSNull && byOutput["c.png"]?["ratingOrigin"] as? String == "none")
        // Nothing changed: all up to date. The ratings file changes a's rating only: a is rebuilt.
        #expect(CLIRun(args + ["--summary"]).err.hasPrefix("0 written, 3 up to date"))
        try "path,rating\nin/a.png,2.5\nin/b.png,-1\n".write(toFile: dir + "/ratings.csv", atomically: true, encoding: .utf8)
        let rerun = CLIRun(args + ["--summary"])
        #expect(rerun.err.hasPrefix("1 written, 2 up to date"), "\(rerun.err)")
        #expect(try read(dir + "/out/a.png") != read(dir + "/plain/a.png"))
        // check regenerates with the recorded rating, and agrees.
        let check = CLIRun(["check", dir + "/out", "--summary"])
        #expect(check.status == .success && check.err == "3 outputs checked, 0 differ\n", "\(check.err)")
    }

    @Test func aSidecarWinsOverTheFileAndItsEditRebuilds() throws {
        let dir = try photos("sidecar")
        func sidecar(_ rating: String) throws {
            try """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/></rdf:RDF></x:xmpmeta>
            """.write(toFile: dir + "/in/b.png.xmp", atomically: true, encoding: .utf8)
        }
        try sidecar("3")
        let args = [dir + "/in", "-o", dir + "/out", "--rating-badge", "northwest", "--size", "100"]
        #expect(CLIRun(args).status == .success)
        let first = try read(dir + "/out/b.png")
        var entry = try manifestEntries(dir + "/out").first { $0["output"] as? String == "b.png" }
        #expect(entry?["rating"] as? Int == 3 && entry?["ratingOrigin"] as? String == "sidecar")
        try sidecar("5")
        #expect(CLIRun(args + ["--summary"]).err.hasPrefix("1 written, 2 up to date"))
        #expect(try read(dir + "/out/b.png") != first)
        // The sidecar removed: the file has no rating of its own, so the badge goes.
        try fileManager.removeItem(atPath: dir + "/in/b.png.xmp")
        #expect(CLIRun(args + ["--summary"]).err.hasPrefix("1 written, 2 up to date"))
        entry = try manifestEntries(dir + "/out").first { $0["output"] as? String == "b.png" }
        #expect(entry?["rating"] is NSNull)
        // --no-sidecars ignores it.
        try sidecar("2")
        #expect(CLIRun(args + ["--no-sidecars", "--summary"]).err.hasPrefix("0 written, 3 up to date"))
    }

    @Test func aSheetAndItsMapAreWrittenSilently() throws {
        let dir = try photos("sheet")
        try #"{"in/a.png": 4.5, "in/c.png": 2}"#.write(toFile: dir + "/ratings.json", atomically: true, encoding: .utf8)
        let run = CLIRun(["sheet", dir + "/in", "-o", dir + "/out/sheet.png", "--ratings-file", dir + "/ratings.json",
                          "--columns", "2", "--cell", "64", "--scales", "1,2", "--sort", "rating"])
        #expect(run.status == .success && run.err.isEmpty && run.out.isEmpty, "\(run.err)")
        let names = try fileManager.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(names == ["sheet.json", "sheet.png", "sheet@2x.png"])
        let map = try #require(try JSONSerialization.jsonObject(with: Data(read(dir + "/out/sheet.json"))) as? [String: Any])
        let cells = try #require(map["cells"] as? [[String: Any]])
        #expect(cells.map { ($0["source"] as! String).split(separator: "/").last! } == ["a.png", "c.png", "b.png"])
        #expect(cells.map { $0["rating"] as? Double } == [4.5, 2, nil])
        #expect(cells[0]["ratingOrigin"] as? String == "ratings-file")
        let sheet = try ImageSource.bytes(read(dir + "/out/sheet.png")).header()
        #expect(sheet.width == map["width"] as? Int && sheet.height == map["height"] as? Int)
        #expect(sheet.width == 2 * 64 + 3 * 8)
        let large = try ImageSource.bytes(read(dir + "/out/sheet@2x.png")).header()
        #expect(large.width == 2 * sheet.width && large.height == 2 * sheet.height)
        // A second run takes neither its own pages nor its map for photos.
        let again = CLIRun(["sheet", dir + "/in", dir + "/out", "-o", dir + "/out/sheet.png", "--ratings-file", dir + "/ratings.json"])
        #expect(again.status == .success && again.err.isEmpty, "\(again.err)")
        let cellsAgain = try #require((try JSONSerialization.jsonObject(with: Data(read(dir + "/out/sheet.json"))) as? [String: Any])?["cells"] as? [[String: Any]])
        #expect(cellsAgain.count == 3)
    }

    @Test func pagesAndMinimumRating() throws {
        let dir = try photos("pages")
        try "in/a.png,5\nin/b.png,3\nin/c.png,1\n".write(toFile: dir + "/r.csv", atomically: true, encoding: .utf8)
        let run = CLIRun(["sheet", dir + "/in", "-o", dir + "/out/s.webp", "--ratings-file", dir + "/r.csv", "--min-rating", "2",
                          "--per-page", "1", "--rating-badge", "southeast"])
        #expect(run.status == .success, "\(run.err)")
        #expect(try fileManager.contentsOfDirectory(atPath: dir + "/out").sorted() == ["s-1.json", "s-1.webp", "s-2.json", "s-2.webp"])
        #expect(try ImageSource.bytes(read(dir + "/out/s-2.webp")).header().format == .webp)
    }

    @Test func aBadPhotoIsReportedAndTheSheetStillWritten() throws {
        let dir = try photos("bad")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: URL(fileURLWithPath: dir + "/in/broken.png"))
        let run = CLIRun(["sheet", dir + "/in", "-o", dir + "/s.png"])
        #expect(run.status == .failure)
        #expect(run.err.split(separator: "\n").count == 1 && run.err.hasPrefix("thumbgen: \(dir)/in/broken.png: "), "\(run.err)")
        #expect(fileManager.fileExists(atPath: dir + "/s.png") && fileManager.fileExists(atPath: dir + "/s.json"))
    }

    @Test(arguments: [
        (["--fill", "ff0000"], "--fill applies to rating badges (see --rating-badge)"),
        (["--ratings-file", "x.csv"], "--ratings-file applies to rating badges (see --rating-badge)"),
        (["--rating-badge", "middle"], "invalid value 'middle' for --rating-badge: expected a corner or edge: southeast, southwest, northeast, northwest, south, north, east, west or centre"),
        (["--rating-badge", "southeast", "--size", "20"], "the rating badge with its margins is 32x12, larger than the 20x20 box (see --badge-size, --badge-margin)"),
        (["--rating-badge", "southeast", "--badge-size", "0"], "invalid value '0' for --badge-size: expected a cell size from 1 to 512 pixels"),
        (["--rating-badge", "southeast", "--badge-plate", "black"], "invalid value 'black' for --badge-plate: expected RRGGBB or RRGGBBAA"),
        (["--rating-badge", "southeast", "--fill-mode", "most"], "--fill-mode: 'most' is not a fill mode (expected full, half or precise)"),
    ])
    func thumbnailMisuseIsOneLine(extra: [String], message: String) throws {
        let run = CLIRun([Fixtures.path("photos/cat-rgba8.png"), "-o", Fixtures.temporaryDirectory("misuse")] + extra)
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("thumbgen: \(message)\n"), "\(run.err)")
    }

    @Test(arguments: [
        (["--columns", "0"], "invalid value '0' for --columns: expected a number from 1 to 1000"),
        (["--sort", "size"], "invalid value 'size' for --sort: expected path, rating or date"),
        (["--min-rating", "6"], "invalid value '6' for --min-rating: expected a number of stars from 0 to 5"),
        (["--per-page", "0"], "invalid value '0' for --per-page: expected a number of cells, 1 or more"),
        (["--rating-badge", "above"], "invalid value 'above' for --rating-badge: expected under, none, or a corner or edge such as southeast"),
        (["--rating-badge", "none", "--badge-size", "8"], "--badge-size applies to rating badges (see --rating-badge)"),
        (["--rating-badge", "southeast", "--cell", "20"], "the rating badge with its margins does not fit the 20x20 cell (see --badge-size, --badge-margin)"),
        (["-o", "s.jpg", "--background", "none"], "--background none needs a format with alpha (PNG or WebP), not JPEG"),
        (["-o", "s.jpg", "--format", "webp"], "--output s.jpg ends in .jpg, which is not --format webp"),
    ])
    func sheetMisuseIsOneLine(extra: [String], message: String) throws {
        let run = CLIRun(["sheet", Fixtures.path("photos")] + extra)
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("thumbgen: \(message)\n"), "\(run.err)")
    }
}
