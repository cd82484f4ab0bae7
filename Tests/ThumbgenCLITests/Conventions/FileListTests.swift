import Foundation
import Testing
import TestSupport

/// `--files-from FILE|-` with `-0`: the inputs as a list (odd names included), mirrored below
/// `--base`, the same outputs a walk of the folder makes.
@Suite struct FileListTests {
    /// A folder of photos with awkward names, relative to `root`, and the names.
    static func tree() throws -> (root: String, names: [String]) {
        let root = Fixtures.temporaryDirectory("files-from")
        let names = ["photos/plain.png", "photos/with space.png", "photos/new\nline.png", "photos/tab\there/é ü.png",
                     "photos/-dash.png", "photos/back\\slash.png"]
        for name in names {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.path("pngsuite/basn2c08.png"), toPath: path)
        }
        return (root, names)
    }

    @Test func aNulListOfOddNamesMakesWhatTheWalkMakes() throws {
        let (root, names) = try Self.tree()
        let list = root + "/list0"
        // Listed paths are opened as given (here absolute); outputs mirror them below --base.
        FileManager.default.createFile(atPath: list, contents: Data(names.map { root + "/" + $0 + "\0" }.joined().utf8))
        let listed = try BuiltBinary.run(["--files-from", list, "-0", "--base", root, "-o", root + "/listed"])
        #expect(listed.status == 0 && listed.err.isEmpty, "\(listed.err)")
        let walked = try BuiltBinary.run([root + "/photos", "--base", root, "-o", root + "/walked"])
        #expect(walked.status == 0, "\(walked.err)")
        let made = Fixtures.files(under: root + "/listed").filter { $0.hasSuffix(".png") }.sorted()
        #expect(made == names.sorted(), "\(made)")
        for name in names {
            #expect(FileManager.default.contents(atPath: root + "/listed/" + name) == FileManager.default.contents(atPath: root + "/walked/" + name))
        }
    }

    @Test func aNewlineListFromStandardInputIsRelativeToTheCurrentFolder() throws {
        let (root, names) = try Self.tree()
        let plain = names.filter { !$0.contains("\n") }
        let list = root + "/list"
        FileManager.default.createFile(atPath: list, contents: Data((plain.joined(separator: "\n") + "\n\n").utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.arguments = ["--files-from", "-", "-o", "out"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: list))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Fixtures.files(under: root + "/out").filter { $0.hasSuffix(".png") }.sorted() == plain.sorted())
    }

    @Test func listProblemsAreOneLine() throws {
        let dir = Fixtures.temporaryDirectory("files-from-bad")
        let missing = try BuiltBinary.run(["--files-from", dir + "/nope", "-o", dir + "/out"])
        #expect(missing.status == 1 && missing.err == "thumbgen: \(dir)/nope: cannot read: no such file or directory\n")
        FileManager.default.createFile(atPath: dir + "/list", contents: Data("\(dir)/gone.png\n".utf8))
        let listedMissing = try BuiltBinary.run(["--files-from", dir + "/list", "--base", dir, "-o", dir + "/out"])
        #expect(listedMissing.status == 1 && listedMissing.err.hasPrefix("thumbgen: \(dir)/gone.png: cannot read"), "\(listedMissing.err)")
        // A listed path outside --base (the current folder by default) is an error before any work.
        let outside = try BuiltBinary.run(["--files-from", dir + "/list", "-o", dir + "/out"])
        #expect(outside.status == 1 && outside.err.contains("is not inside the base folder"), "\(outside.err)")
        #expect(try BuiltBinary.run(["-0", dir, "-o", dir + "/out"]).status == 64)
        FileManager.default.createFile(atPath: dir + "/empty", contents: Data())
        let empty = try BuiltBinary.run(["--files-from", dir + "/empty", "-o", dir + "/out"])
        #expect(empty.status == 0 && empty.err == "thumbgen: no images found in the files listed in \(dir)/empty\n")
    }
}
