import Foundation
import Testing
import ThumbKit
import TestSupport

/// The built binary over temporary trees: what a user's Makefile or CI job sees.
@Suite(.serialized) struct BatchIntegrationTests {
    let fileManager = FileManager.default

    /// A tree of real images: a few PngSuite files and the sample photos, in nested folders, plus a
    /// text file, a hidden file and (when asked) corrupt files named like images.
    func makeTree(corrupt: Bool = false) throws -> String {
        let root = Fixtures.temporaryDirectory("tree")
        let suite = Fixtures.path("pngsuite")
        try fileManager.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: root + "/c", withIntermediateDirectories: true)
        for (name, destination) in [("basn6a08.png", "a/alpha.png"), ("basi2c16.png", "a/b/deep.png"),
                                    ("tbbn3p08.png", "c/palette.PNG"), ("s09n3p02.png", "tiny.png"),
                                    ("basn0g16.png", "a/b/gray16.png"), ("bgan6a16.png", "c/noext")] {
            try fileManager.copyItem(atPath: suite + "/" + name, toPath: root + "/" + destination)
        }
        try fileManager.copyItem(atPath: Fixtures.path("../../Assets/samples/photos/fresh-flower.png"), toPath: root + "/c/flower.png")
        #expect(fileManager.createFile(atPath: root + "/notes.txt", contents: Data("not an image".utf8)))
        try fileManager.copyItem(atPath: suite + "/basn2c08.png", toPath: root + "/.hidden.png")
        if corrupt {
            #expect(fileManager.createFile(atPath: root + "/a/broken.png", contents: Data("GIF89a".utf8)))
            let good = try Data(contentsOf: URL(fileURLWithPath: suite + "/basn2c08.png"))
            #expect(fileManager.createFile(atPath: root + "/c/truncated.png", contents: good.prefix(100)))
        }
        return root
    }

    func mtimes(under directory: String) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for file in Fixtures.files(under: directory) {
            result[file] = try fileManager.attributesOfItem(atPath: directory + "/" + file)[.modificationDate] as? Date
        }
        return result
    }

    @Test func mirrorsTheTreeAndWritesAManifest() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("out")
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--scales", "1,2", "--summary"])
        #expect(run.status == 0, "\(run.err)")
        #expect(Fixtures.files(under: out) == [
            "a/alpha.png", "a/alpha@2x.png", "a/b/deep.png", "a/b/deep@2x.png", "a/b/gray16.png", "a/b/gray16@2x.png",
            "c/flower.png", "c/flower@2x.png", "c/noext.png", "c/noext@2x.png", "c/palette.png", "c/palette@2x.png",
            "thumbgen-manifest.json", "tiny.png", "tiny@2x.png",
        ])
        let flower = try PNGDecoder(path: out + "/c/flower.png").header
        #expect((flower.width, flower.height) == (16, 12))
        let flower2x = try PNGDecoder(path: out + "/c/flower@2x.png").header
        #expect((flower2x.width, flower2x.height) == (32, 24))
        #expect(run.err.hasSuffix("skipped, 0 failed in " + (run.err.components(separatedBy: "failed in ").last ?? "")))
        #expect(run.err.contains("7 written, 0 up to date"))
        let manifest = try String(contentsOfFile: out + "/thumbgen-manifest.json", encoding: .utf8)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/a/alpha.png")))
        #expect(manifest.contains(SHA256.hex(bytes)))
        #expect(manifest.contains(SHA256.hex(try PNGDecoder.decode(bytes: bytes).rgba8)))
    }

    @Test func secondRunWritesNothingAndForceRebuilds() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("out")
        #expect(try BuiltBinary.run([tree, "-o", out]).status == 0)
        let before = try mtimes(under: out)
        Thread.sleep(forTimeInterval: 0.05)
        let again = try BuiltBinary.run([tree, "-o", out, "--summary"])
        #expect(again.status == 0)
        #expect(again.err.contains("0 written, 7 up to date"))
        #expect(try mtimes(under: out) == before, "no output or manifest touched")
        let forced = try BuiltBinary.run([tree, "-o", out, "--force", "--summary"])
        #expect(forced.err.contains("7 written, 0 up to date"))
        // A changed option rebuilds everything.
        let other = try BuiltBinary.run([tree, "-o", out, "--kernel", "mitchell", "-v"])
        #expect(other.err.contains("7 written"))
    }

    @Test func badFilesAreNamedAndDoNotStopTheOthers() throws {
        let tree = try makeTree(corrupt: true)
        let out = Fixtures.temporaryDirectory("out")
        let run = try BuiltBinary.run([tree, "-o", out, "--summary"])
        #expect(run.status == 1)
        #expect(run.err.contains("a/broken.png: "))
        #expect(run.err.contains("c/truncated.png: "))
        #expect(run.err.contains("7 written, 0 up to date, "))
        #expect(run.err.contains(" skipped, 2 failed in "))
        #expect(!fileManager.fileExists(atPath: out + "/a/broken.png"))
        #expect(!fileManager.fileExists(atPath: out + "/c/truncated.png"))
        #expect(fileManager.fileExists(atPath: out + "/a/alpha.png"))
        for line in run.err.split(separator: "\n") where line.contains("broken.png") {
            #expect(line.hasPrefix("thumbgen: "))
        }
    }

    @Test func resultsDoNotDependOnTheJobCount() throws {
        let tree = try makeTree(corrupt: true)
        let one = Fixtures.temporaryDirectory("j1"), four = Fixtures.temporaryDirectory("j4")
        let a = try BuiltBinary.run([tree, "-o", one, "-j1", "--scales", "1,2,3", "--fit", "cover", "--corner-radius", "3"])
        let b = try BuiltBinary.run([tree, "-o", four, "-j4", "--scales", "1,2,3", "--fit", "cover", "--corner-radius", "3"])
        #expect(Fixtures.files(under: one) == Fixtures.files(under: four))
        for file in Fixtures.files(under: one) {
            #expect(fileManager.contents(atPath: one + "/" + file) == fileManager.contents(atPath: four + "/" + file), "\(file)")
        }
        let strip = { (text: String) in text.components(separatedBy: " in ").dropLast().joined(separator: " in ") }
        #expect(strip(a.err) == strip(b.err), "messages in the same order")
    }

    @Test func shardsCoverEveryInputExactlyOnce() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("shards")
        for k in 1...3 {
            #expect(try BuiltBinary.run([tree, "-o", out, "--shard", "\(k)/3"]).status == 0)
        }
        let whole = Fixtures.temporaryDirectory("whole")
        _ = try BuiltBinary.run([tree, "-o", whole])
        let images = Fixtures.files(under: whole).filter { $0.hasSuffix(".png") }
        #expect(Fixtures.files(under: out).filter { $0.hasSuffix(".png") } == images)
        var listed: [String] = []
        for k in 1...3 {
            let text = try String(contentsOfFile: out + "/thumbgen-manifest.\(k)-of-3.json", encoding: .utf8)
            for image in images where text.contains("\"\(image)\"") { listed.append(image) }
        }
        #expect(listed.sorted() == images)
    }

    @Test func checkPassesThenFindsAnAlteredOutput() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("check")
        #expect(try BuiltBinary.run([tree, "-o", out, "--fit", "cover", "--size", "20x10", "--scales", "1,2", "--corner-radius", "2"]).status == 0)
        let good = try BuiltBinary.run(["check", out + "/thumbgen-manifest.json", "--summary"])
        #expect(good.status == 0, "\(good.err)")
        #expect(good.err.hasSuffix("14 outputs checked, 0 differ\n"))
        // Alter one output's pixels (a valid PNG, other content, and another size: tiny's @2x is twice its 9x5 @1x).
        try fileManager.removeItem(atPath: out + "/a/alpha@2x.png")
        try fileManager.copyItem(atPath: out + "/tiny@2x.png", toPath: out + "/a/alpha@2x.png")
        let bad = try BuiltBinary.run(["check", out, "--summary"])
        #expect(bad.status == 1)
        // One line for the output, naming both differences.
        #expect(bad.err.split(separator: "\n").filter { $0.contains("a/alpha@2x.png: ") }.count == 1, "\(bad.err)")
        #expect(bad.err.contains("a/alpha@2x.png: file hash differs on disk") && bad.err.contains("; size differs on disk (manifest 40x20, file 18x10)"),
                "\(bad.err)")
        #expect(bad.err.hasSuffix("14 outputs checked, 1 differ\n"))
    }

    @Test func checkAcceptsAllShardManifestsTogether() throws {
        let tree = try makeTree()
        let out = Fixtures.temporaryDirectory("check-shards")
        for k in 1...2 { _ = try BuiltBinary.run([tree, "-o", out, "--shard", "\(k)/2", "--size", "24"]) }
        let run = try BuiltBinary.run(["check", out + "/thumbgen-manifest.1-of-2.json", out + "/thumbgen-manifest.2-of-2.json", "--summary"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.hasSuffix("7 outputs checked, 0 differ\n"))
    }

    @Test func usageErrorsWriteNothing() throws {
        let out = Fixtures.temporaryDirectory("usage") + "/never"
        for arguments in [["--size", "0"], ["--fit", "squash"], ["--scales", "1,9"], ["--kernel", "sinc"],
                          ["--background", "red"], ["--shard", "4/3"], ["-j", "0"], ["--name", "a/%s"]] {
            let run = try BuiltBinary.run(arguments + [Fixtures.path("pngsuite/basn2c08.png"), "-o", out])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.err.hasPrefix("thumbgen: "), "\(arguments)")
            #expect(!fileManager.fileExists(atPath: out))
        }
    }

    @Test func sigkillLeavesOnlyCompletePNGsAndARerunFinishes() throws {
        // Enough work that the kill lands mid-run: the sample photos many times over, at 3 scales.
        let tree = Fixtures.temporaryDirectory("kill")
        let photos = Fixtures.path("../../Assets/samples/photos")
        for i in 0..<8 {
            for name in try fileManager.contentsOfDirectory(atPath: photos) {
                try fileManager.copyItem(atPath: photos + "/" + name, toPath: tree + "/\(i)-" + name)
            }
        }
        let out = Fixtures.temporaryDirectory("killed")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = [tree, "-o", out, "--scales", "1,2", "--size", "200", "-j2"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        for file in Fixtures.files(under: out) where file.hasSuffix(".png") && !file.hasPrefix(".") && !file.contains("/.") {
            #expect(throws: Never.self, "\(file) is complete") { _ = try PNGDecoder.decode(path: out + "/" + file) }
        }
        let rerun = try BuiltBinary.run([tree, "-o", out, "--scales", "1,2", "--size", "200"])
        #expect(rerun.status == 0)
        #expect(Fixtures.files(under: out).filter { $0.hasSuffix(".png") }.count == 24 * 2)
        #expect(!Fixtures.files(under: out).contains { $0.contains(AtomicFile.temporaryMarker) }, "stale temporaries cleaned")
    }
}
