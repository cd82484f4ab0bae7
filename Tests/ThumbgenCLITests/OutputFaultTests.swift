import Foundation
import Glibc
import Testing
import ThumbKit
import TestSupport

/// Output faults through the built binary: a full disk (a small tmpfs, when the machine lets the
/// tests mount one), a file in the way of the output folder, an output path that is a directory.
/// Each: one line per failed file naming it, no temporary file left, nothing incomplete under a
/// final name, a manifest that is valid for what completed, exit status 1, and a clean rerun once
/// the fault is gone.
@Suite(.serialized) struct OutputFaultTests {
    let fileManager = FileManager.default

    /// True when this process may mount a tmpfs (root in a container that allows it).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = Fixtures.temporaryDirectory("mount-probe")
        defer { rmdir(probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(probe)
        return true
    }()


    /// Nothing but complete PNGs (and the manifest) under final names, and no temporaries.
    func expectOnlyCompleteOutputs(_ out: String) {
        for name in Fixtures.entries(under: out) {
            #expect(!name.contains(AtomicFile.temporaryMarker), "temporary file left: \(name)")
            var isDirectory: ObjCBool = false
            if name.hasSuffix(".png") && fileManager.fileExists(atPath: out + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue {
                #expect((try? PNGDecoder.decode(path: out + "/" + name)) != nil, "incomplete output \(name)")
            }
        }
    }

    func makeInputs(_ count: Int) throws -> String {
        let tree = Fixtures.temporaryDirectory("fault-in")
        let sample = Fixtures.path("../../Assets/samples/icons/web-browser-256.png")
        for i in 0..<count { try fileManager.copyItem(atPath: sample, toPath: tree + "/icon\(i).png") }
        return tree
    }

    @Test(.enabled(if: canMountTmpfs, "needs root and a container that allows mounting tmpfs"))
    func diskFull() throws {
        let tree = try makeInputs(10)
        let out = Fixtures.temporaryDirectory("fault-full")
        #expect(mount("tmpfs", out, "tmpfs", 0, "size=256k") == 0)
        defer { umount2(out, Int32(MNT_DETACH)) }
        // Leave about 40 KB: room for a few outputs (about 9.5 KB each) and the manifest, not for all ten.
        var fs = statvfs()
        #expect(statvfs(out, &fs) == 0)
        let free = Int(fs.f_bavail) * Int(fs.f_bsize)
        #expect(fileManager.createFile(atPath: out + "/filler", contents: Data(count: max(0, free - 40 * 1024))))

        let arguments = [tree, "-o", out, "--size", "96", "--fit", "cover", "-j", "1", "--progress", "never"]
        let run = try BuiltBinary.run(arguments, seconds: 120)
        #expect(!run.timedOut)
        // The machine's failure, not the inputs': exit 75, and the run stops at the first output
        // that does not fit (one line, not one per photo), plus the manifest's if it does not fit.
        #expect(run.status == 75, "\(run.err)")
        let lines = run.failureLines
        #expect(!lines.isEmpty && lines.count <= 2, "\(run.err)")
        for line in lines {
            #expect(line.contains("no space left on device"), "\(line)")
            #expect(line.hasPrefix("thumbgen: \(tree)/icon") || line.hasPrefix("thumbgen: \(out)/thumbgen-manifest.json: "), "\(line)")
        }
        expectOnlyCompleteOutputs(out)
        let written = Fixtures.entries(under: out).filter { $0.hasSuffix(".png") }
        #expect(written.count < 10, "the disk was not full: \(run.err)")
        // The manifest is written last; when even it does not fit, its own line says so and the
        // next run rebuilds the outputs it lacks. When it fits, it lists exactly what completed.
        if fileManager.fileExists(atPath: out + "/thumbgen-manifest.json") {
            let manifest = try Manifest.load(path: FilePath(out + "/thumbgen-manifest.json"))
            #expect(manifest.sortedEntries.map(\.output.description) == written)
            #expect(try BuiltBinary.run(["check", out], seconds: 120).status == 0)
        } else {
            #expect(lines.last?.hasPrefix("thumbgen: \(out)/thumbgen-manifest.json: ") == true)
        }

        // Space again: the rerun finishes the job and the manifest covers everything.
        try fileManager.removeItem(atPath: out + "/filler")
        let rerun = try BuiltBinary.run(arguments, seconds: 120)
        #expect(rerun.status == 0, "\(rerun.err)")
        #expect(Fixtures.entries(under: out).filter { $0.hasSuffix(".png") }.count == 10)
        #expect(try BuiltBinary.run(["check", out], seconds: 120).status == 0)
        expectOnlyCompleteOutputs(out)
    }

    @Test func fileInTheWayOfTheOutputFolder() throws {
        let tree = try makeInputs(2)
        let root = Fixtures.temporaryDirectory("fault-blocked")
        #expect(fileManager.createFile(atPath: root + "/out", contents: Data("in the way".utf8)))
        let run = try BuiltBinary.run([tree, "-o", root + "/out/thumbs", "--size", "16", "--progress", "never"])
        #expect(run.status == 1)
        #expect(run.failureLines == [
            "thumbgen: \(tree)/icon0.png: cannot create directory \(root)/out: a file is in the way",
            "thumbgen: \(tree)/icon1.png: cannot create directory \(root)/out: a file is in the way",
        ], "\(run.err)")
        #expect(fileManager.contents(atPath: root + "/out") == Data("in the way".utf8))
        #expect(Fixtures.entries(under: root) == ["out"])
    }

    @Test func outputPathThatIsADirectory() throws {
        let tree = try makeInputs(2)
        let out = Fixtures.temporaryDirectory("fault-dir")
        try fileManager.createDirectory(atPath: out + "/icon1.png", withIntermediateDirectories: false)
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never", "--summary"])
        #expect(run.status == 1)
        #expect(run.failureLines == ["thumbgen: \(tree)/icon1.png: output path is an existing directory"], "\(run.err)")
        #expect(run.err.contains("1 written, 0 up to date, 0 skipped, 1 failed"))
        expectOnlyCompleteOutputs(out)
        #expect(try BuiltBinary.run(["check", out]).status == 0)
    }

    @Test(.enabled(if: getuid() != 0, "root writes into read-only folders"))
    func readOnlyOutputFolder() throws {
        let tree = try makeInputs(2)
        let out = Fixtures.temporaryDirectory("fault-readonly")
        #expect(chmod(out, 0o555) == 0)
        defer { chmod(out, 0o755) }
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never"])
        #expect(run.status == 1)
        let lines = run.failureLines
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("permission denied") }, "\(run.err)")
        #expect(Fixtures.entries(under: out).isEmpty)
    }
}
