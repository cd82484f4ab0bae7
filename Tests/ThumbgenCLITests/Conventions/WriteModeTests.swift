import Foundation
import Testing
import TestSupport

/// `--write-mode direct` on a folder where rename fails (as on Mountpoint for S3): every output
/// written once under its final name, the manifest too, the same bytes as the default mode; the
/// default mode there is the machine's failure, exit 75.
@Suite struct WriteModeTests {
    @Test func directWritesWhereRenameFails() throws {
        let tree = Fixtures.temporaryDirectory("direct-in")
        for name in ["basn2c08.png", "basn6a08.png", "basn0g16.png"] {
            try FileManager.default.copyItem(atPath: Fixtures.path("pngsuite/" + name), toPath: tree + "/" + name)
        }
        let mount = Fixtures.temporaryDirectory("direct-out")
        let log = mount + ".log"
        let noRename = FaultShim.environment(failing: "rename:EXDEV", below: mount, log: log)
        let options = ["--size", "16", "--scales", "1,2", "--format", "png,webp"]

        let atomic = try PipedRun([tree, "-o", mount + "/atomic"] + options, stdin: nil, environment: noRename)
        #expect(atomic.status == 75 && atomic.err.contains("cannot rename"), "\(atomic.err)")

        try? FileManager.default.removeItem(atPath: log)
        let direct = try PipedRun([tree, "-o", mount + "/direct", "--write-mode", "direct"] + options, stdin: nil, environment: noRename)
        #expect(direct.status == 0 && direct.err.isEmpty, "\(direct.err)")
        #expect(!FileManager.default.fileExists(atPath: log), "a rename was tried")
        let reference = Fixtures.temporaryDirectory("direct-reference")
        #expect(try BuiltBinary.run([tree, "-o", reference] + options).status == 0)
        let made = Fixtures.files(under: mount + "/direct").sorted()
        #expect(made == Fixtures.files(under: reference).sorted() && made.count == 3 * 4 + 1, "\(made)")
        for file in made where file != "thumbgen-manifest.json" {
            #expect(FileManager.default.contents(atPath: mount + "/direct/" + file) == FileManager.default.contents(atPath: reference + "/" + file), "\(file)")
        }
        // The manifest marks completion: a rerun finds everything up to date and writes nothing.
        let rerun = try PipedRun([tree, "-o", mount + "/direct", "--write-mode", "direct", "--summary"] + options, stdin: nil, environment: noRename)
        #expect(rerun.status == 0 && rerun.err.hasPrefix("0 written, 3 up to date"), "\(rerun.err)")
        #expect(try BuiltBinary.run(["check", mount + "/direct"]).status == 0)
        // An output removed behind the manifest's back is made again.
        try FileManager.default.removeItem(atPath: mount + "/direct/basn2c08@2x.webp")
        try FileManager.default.removeItem(atPath: mount + "/direct/basn2c08.png")
        let again = try PipedRun([tree, "-o", mount + "/direct", "--write-mode", "direct", "--summary"] + options, stdin: nil, environment: noRename)
        #expect(again.status == 0 && again.err.hasPrefix("1 written, 2 up to date"), "\(again.err)")
    }
}
