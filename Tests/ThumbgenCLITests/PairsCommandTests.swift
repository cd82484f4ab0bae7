import Foundation
import Testing
import TestSupport

/// The twins of a shot (`IMG_0001.CR2` beside `IMG_0001.JPG`, `IMG_0002.HEIC` beside
/// `IMG_0002.JPG`), through the built binary: one thumbnail per shot by default, both with
/// `--pairs both` and `%e`, and every collision that remains listed in one go.
@Suite struct PairsCommandTests {
    /// A folder of shots: camera RAWs (a CR2 and a DNG, read through their previews) and a
    /// phone's HEIC, each beside its JPEG.
    static func shots(_ root: String) throws -> String {
        let tree = root + "/in"
        try FileManager.default.createDirectory(atPath: tree + "/day", withIntermediateDirectories: true)
        func write(_ name: String, _ fixture: String) {
            FileManager.default.createFile(atPath: tree + "/" + name, contents: Data(Fixtures.bytes(fixture)))
        }
        write("IMG_0001.JPG", "fuzz-seeds/baseline.jpg")
        write("IMG_0001.CR2", "raw/synthetic.cr2")
        write("day/IMG_0003.jpg", "fuzz-seeds/baseline.jpg")
        write("day/IMG_0003.dng", "raw/synthetic.dng")
        write("IMG_0002.HEIC", "heif/opaque.heic")
        write("IMG_0002.JPG", "fuzz-seeds/progressive.jpg")
        write("solo.heic", "heif/opaque.heic")
        return tree
    }

    @Test func oneThumbnailPerShotByDefault() throws {
        let root = Fixtures.temporaryDirectory("pairs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tree = try Self.shots(root), out = root + "/out"
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never", "-v"])
        #expect(run.status == 0, "\(run.err)")
        #expect(Fixtures.files(under: out).sorted() == ["IMG_0001.png", "IMG_0002.png", "day/IMG_0003.png", "solo.png", "thumbgen-manifest.json"])
        // The JPEGs were used: the manifest names them, and the twins are listed as skipped.
        let manifest = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/thumbgen-manifest.json")), as: UTF8.self)
        for kept in ["IMG_0001.JPG", "IMG_0002.JPG", "day/IMG_0003.jpg"] { #expect(manifest.contains("in/\(kept)\""), "\(kept)") }
        for twin in ["IMG_0001.CR2", "IMG_0002.HEIC", "day/IMG_0003.dng"] { #expect(!manifest.contains(twin), "\(twin)") }
        #expect(run.err.contains("skipped: \(tree)/IMG_0001.CR2: a twin of IMG_0001.JPG, which is used instead\n"), "\(run.err)")
        #expect(run.err.contains("skipped: \(tree)/day/IMG_0003.dng: a twin of IMG_0003.jpg, which is used instead\n"), "\(run.err)")
        #expect(run.err.contains("4 written, 0 up to date, 3 skipped, 0 failed"), "\(run.err)")
    }

    @Test func preferRawKeepsTheRawThenTheHEIC() throws {
        let root = Fixtures.temporaryDirectory("pairs-raw")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tree = try Self.shots(root), out = root + "/out"
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never", "--pairs", "prefer-raw"])
        #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
        let manifest = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/thumbgen-manifest.json")), as: UTF8.self)
        for kept in ["IMG_0001.CR2", "IMG_0002.HEIC", "day/IMG_0003.dng"] { #expect(manifest.contains("in/\(kept)\""), "\(kept)") }
        for twin in ["IMG_0001.JPG", "IMG_0002.JPG", "day/IMG_0003.jpg"] { #expect(!manifest.contains(twin), "\(twin)") }
    }

    @Test func bothWithTheExtensionTokenGivesTwo() throws {
        let root = Fixtures.temporaryDirectory("pairs-both")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tree = try Self.shots(root), out = root + "/out"
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never", "--pairs", "both", "--name", "%s-%e"])
        #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
        #expect(Fixtures.files(under: out).sorted() == ["IMG_0001-CR2.png", "IMG_0001-JPG.png", "IMG_0002-HEIC.png", "IMG_0002-JPG.png",
                                                        "day/IMG_0003-dng.png", "day/IMG_0003-jpg.png", "solo-heic.png", "thumbgen-manifest.json"])
    }

    /// `both` without `%e`: every pair collides, and all three are named on one line before any
    /// work (exit 1, nothing written).
    @Test func everyCollisionIsListed() throws {
        let root = Fixtures.temporaryDirectory("pairs-collide")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tree = try Self.shots(root), out = root + "/out"
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never", "--pairs", "both"])
        #expect(run.status == 1)
        #expect(run.err == "thumbgen: 3 output collisions: \(tree)/IMG_0001.CR2 and \(tree)/IMG_0001.JPG both map to output IMG_0001.png; "
                + "\(tree)/IMG_0002.HEIC and \(tree)/IMG_0002.JPG both map to output IMG_0002.png; "
                + "\(tree)/day/IMG_0003.dng and \(tree)/day/IMG_0003.jpg both map to output day/IMG_0003.png\n", "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A project group takes `pairs` and `%e` as the command line does.
    /// A contact sheet has one cell per shot too (the JPEG's), the twins listed with -v; with
    /// `--pairs both` every file has its cell.
    @Test func aSheetHasOneCellPerShot() throws {
        let root = Fixtures.temporaryDirectory("pairs-sheet")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tree = try Self.shots(root)
        func cells(_ extra: [String]) throws -> (sources: [String], err: String) {
            let run = try BuiltBinary.run(["sheet", tree, "-o", root + "/sheet.png", "--cell", "16", "--progress", "never"] + extra)
            #expect(run.status == 0, "\(run.err)")
            let map = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/sheet.json"))) as? [String: Any]
            let sources = (map?["cells"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String }
            return (sources.map { String($0.dropFirst(tree.count + 1)) }, run.err)
        }
        let byDefault = try cells(["-v"])
        #expect(byDefault.sources == ["IMG_0001.JPG", "IMG_0002.JPG", "day/IMG_0003.jpg", "solo.heic"])
        #expect(byDefault.err.contains("skipped: \(tree)/IMG_0002.HEIC: a twin of IMG_0002.JPG, which is used instead\n"), "\(byDefault.err)")
        #expect(try cells(["--pairs", "prefer-raw"]).sources == ["IMG_0001.CR2", "IMG_0002.HEIC", "day/IMG_0003.dng", "solo.heic"])
        let both = try cells(["--pairs", "both"])
        #expect(both.sources.count == 7 && both.err.isEmpty, "\(both)")
    }

    @Test func projectGroupsPairToo() throws {
        let root = Fixtures.temporaryDirectory("pairs-build")
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try Self.shots(root)
        let project = root + "/thumbgen.json"
        try Data(#"{"thumbnails": [{"source": "in", "output": "a", "size": 16}, {"source": "in", "output": "b", "size": 16, "pairs": "both", "name": "%s_%e"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: project))
        let run = try BuiltBinary.run(["build", project, "--progress", "never"])
        #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
        #expect(Fixtures.files(under: root + "/a").sorted() == ["IMG_0001.png", "IMG_0002.png", "day/IMG_0003.png", "solo.png"])
        #expect(Fixtures.files(under: root + "/b").count == 7)
    }
}
