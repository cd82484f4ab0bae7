import Foundation
import Testing
import TestSupport

/// Exit 75 (EX_TEMPFAIL) when the failure is the machine's: the first write that finds no space,
/// a read-only or vanished folder stops the run with one line, before the other photos are
/// decoded; a bad input still exits 1.
@Suite(.serialized) struct TemporaryFailureTests {
    /// Twelve photos: enough that one line per photo would show.
    static func photos() throws -> String {
        let tree = Fixtures.temporaryDirectory("tempfail-in")
        let photos = Fixtures.path("../../Assets/samples/photos")
        for i in 0..<4 {
            for name in try FileManager.default.contentsOfDirectory(atPath: photos) {
                try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: tree + "/\(i)-" + name)
            }
        }
        return tree
    }

    @Test(arguments: ["write:ENOSPC", "open:EROFS,mkdir:EROFS", "write:EIO", "open:EACCES,mkdir:EACCES"])
    func aMachineFailureStopsTheRunWithOneLineAndExit75(_ calls: String) throws {
        let tree = try Self.photos()
        let out = Fixtures.temporaryDirectory("tempfail-out")
        let log = out + ".log"
        for jobs in ["1", "2"] {
            try? FileManager.default.removeItem(atPath: log)
            let run = try PipedRun([tree, "-o", out + "/thumbs-\(jobs)", "-j", jobs, "--size", "64"], stdin: nil,
                                   environment: FaultShim.environment(failing: calls, below: out, log: log))
            #expect(run.status == 75, "\(calls) -j\(jobs): \(run.err)")
            let lines = run.err.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("thumbgen: \(tree)/"), "\(run.err)")
            // At most one failed write per job in flight: the run stopped at the first.
            let failedCalls = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").count ?? 0
            #expect(failedCalls >= 1 && failedCalls <= Int(jobs)! * 2, "\(failedCalls) failed calls")
            #expect(!FileManager.default.fileExists(atPath: out + "/thumbs-\(jobs)/thumbgen-manifest.json"))
        }
    }

    @Test func aBadInputIsStillExit1() throws {
        let dir = Fixtures.temporaryDirectory("tempfail-bad")
        FileManager.default.createFile(atPath: dir + "/bad.png", contents: Data("not a png".utf8))
        let run = try BuiltBinary.run([dir + "/bad.png", "-o", dir + "/out"])
        #expect(run.status == 1)
    }

    /// A real full file system, when this machine lets the tests mount one (root in a container
    /// that allows it): a 256 KiB tmpfs that the thumbnails overflow.
    @Test func aFullTmpfsIsExit75() throws {
        let mount = Fixtures.temporaryDirectory("tempfail-tmpfs")
        let mounted = try BuiltBinary.run(["/bin/mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mount], executable: "/bin/mount")
        try #require(mounted.status == 0, "cannot mount a tmpfs here: \(mounted.err)")
        defer { _ = try? BuiltBinary.run(["/bin/umount", mount], executable: "/bin/umount") }
        let tree = try Self.photos()
        let run = try BuiltBinary.run([tree, "-o", mount + "/thumbs", "--size", "400", "-j2"])
        #expect(run.status == 75, "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1 && run.err.contains("no space left on device"), "\(run.err)")
        // Read-only: remounted so, the next run fails alike, at its first write.
        _ = try BuiltBinary.run(["/bin/mount", "-o", "remount,ro", mount], executable: "/bin/mount")
        let readOnly = try BuiltBinary.run([tree, "-o", mount + "/other", "--size", "64"])
        #expect(readOnly.status == 75 && readOnly.err.contains("read-only file system"), "\(readOnly.err)")
        #expect(readOnly.err.split(separator: "\n").count == 1)
    }
}
