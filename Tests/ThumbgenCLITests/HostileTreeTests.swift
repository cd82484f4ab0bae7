import Foundation
import Glibc
import Testing
import ThumbKit
import TestSupport

/// The built binary over hostile inputs and odd file systems, built in temporary directories at run
/// time: every bad thing is one named line, the batch goes on, the summary counts are right, and
/// nothing hangs (each run has a watchdog).
@Suite(.serialized) struct HostileTreeTests {
    let fileManager = FileManager.default

    func bytes(_ path: String) -> [UInt8] { [UInt8](fileManager.contents(atPath: path) ?? Data()) }

    func temporaries(under directory: String) -> [String] {
        Fixtures.entries(under: directory).filter { $0.contains(AtomicFile.temporaryMarker) }
    }

    // MARK: Hostile files

    @Test func wholeHostileFolderInOneBatch() throws {
        let source = Fixtures.path("hostile")
        let expected = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: source + "/expected.json"))) as? [String: String])
        let tree = Fixtures.temporaryDirectory("hostile")
        var names = expected.keys.sorted()
        #if DEBUG
        // Streaming the 225 MP bomb takes minutes in a debug build; release runs it (`make test`).
        names.removeAll { $0 == "bomb-real-15000.png" }
        #endif
        // expected.json comes along: a file that is not an image, so it is skipped.
        for name in names + ["expected.json"] { try fileManager.copyItem(atPath: source + "/" + name, toPath: tree + "/" + name) }
        let out = Fixtures.temporaryDirectory("hostile-out")
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "-j", "2", "--progress", "never", "--summary"], seconds: 300)
        #expect(!run.timedOut)
        #expect(run.status == 1, "\(run.err)")
        let lines = run.failureLines
        let bad = names.filter { expected[$0] != "decodes" }
        let good = names.filter { expected[$0] == "decodes" }
        for name in bad {
            let naming = lines.filter { $0.hasPrefix("thumbgen: \(tree)/\(name): ") }
            #expect(naming.count == 1, "\(name): \(naming)")
        }
        #expect(lines.count == bad.count, "\(run.err)")
        for name in good { #expect(fileManager.fileExists(atPath: out + "/" + name), "\(name) not written") }
        #expect(run.err.contains("\(good.count) written, 0 up to date, 1 skipped, \(bad.count) failed"), "\(run.err)")
        #expect(temporaries(under: out).isEmpty)
    }

    @Test(.enabled(if: BuildConfiguration.isRelease && FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
                   "release build with GNU time"))
    func realBombStreamsInBoundedMemory() throws {
        // 15000x15000 (225 MP) of 1-bit gray in 27 KB. Decoded whole it would be 900 MB of RGBA8;
        // the streaming path holds a few rows and the output (measured: about 23 MB peak RSS in
        // total, the process included). The bound leaves room for allocator and runtime noise.
        let root = Fixtures.temporaryDirectory("bomb")
        let report = root + "/rss"
        let run = try BuiltBinary.run(["/usr/bin/time", "-f", "%M", "-o", report, BuiltBinary.path,
                                Fixtures.path("hostile/bomb-real-15000.png"), "-o", root + "/out", "--progress", "never"],
                               executable: "/usr/bin/time", seconds: 300)
        #expect(run.status == 0, "\(run.err)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let peakKiB = try #require(Int(text.split(separator: "\n").last.map(String.init) ?? ""), "\(text)")
        #expect(peakKiB < 96 * 1024, "peak RSS \(peakKiB) KiB")
    }

    /// The limits and the memory formula are too long for `--help`, which points to thumbgen(1).
    @Test func manPageDocumentsTheLimits() throws {
        #expect(CLIRun(["--help"]).out.contains("Limits, memory per job"))
        let page = try String(contentsOfFile: ManPageTests.pages + "/thumbgen.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for text in ["--max-pixels", "--max-file-bytes", "8 MiB", "Memory per job", "streamed", "Only regular files"] {
            #expect(page.contains(text), "\(text)")
        }
    }

    // MARK: File system oddities

    @Test func oddFileSystemEntriesDoNotStopTheBatch() throws {
        let root = Fixtures.temporaryDirectory("oddfs")
        let tree = root + "/in"
        let png = bytes(Fixtures.path("pngsuite/basn2c08.png"))
        try fileManager.createDirectory(atPath: tree + "/photo.png", withIntermediateDirectories: true)
        let t = Array(tree.utf8) + [0x2F]
        RawName.write(png, at: t + Array("good.png".utf8))
        RawName.write(png, at: t + Array("photo.png/inner.png".utf8))                  // a directory named like an image
        RawName.write(png, at: t + Array("with space.png".utf8))
        RawName.write(png, at: t + Array("new\nline.png".utf8))
        RawName.write(png, at: t + Array("tab\there.png".utf8))
        RawName.write(png, at: t + Array("bad".utf8) + [0xFF, 0xFE] + Array(".png".utf8))  // not UTF-8
        RawName.write(Array("not a png".utf8), at: t + Array("broken\n\u{1B}[31mname.png".utf8))
        #expect(mkfifo(RawName.cPath(t + Array("fifo.png".utf8)), 0o644) == 0)
        #expect(symlink("/dev/zero", RawName.cPath(t + Array("zero.png".utf8))) == 0)
        #expect(symlink("/nonexistent/thumbgen-target.png", RawName.cPath(t + Array("dangling.png".utf8))) == 0)
        #expect(symlink(".", RawName.cPath(t + Array("loop".utf8))) == 0)

        let out = root + "/out"
        let run = try BuiltBinary.run([tree, "-o", out, "--size", "16", "--progress", "never", "--summary"], seconds: 60)
        #expect(!run.timedOut, "the batch hung on a FIFO or device")
        #expect(run.status == 1)
        let lines = run.failureLines
        #expect(lines.sorted() == [
            "thumbgen: \(tree)/broken\\n\\x1B[31mname.png: not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)",
            "thumbgen: \(tree)/dangling.png: cannot read: no such file or directory",
            "thumbgen: \(tree)/fifo.png: not a regular file",
            "thumbgen: \(tree)/zero.png: not a regular file",
        ], "\(run.err)")
        #expect(run.err.contains("6 written, 0 up to date, 1 skipped, 4 failed"), "\(run.err)")
        for name in ["good.png", "photo.png/inner.png", "with space.png", "new\nline.png", "tab\there.png"] {
            #expect(fileManager.fileExists(atPath: out + "/" + name), "\(name)")
        }
        // The name that is not UTF-8 gets an output of the same bytes.
        #expect(access(RawName.cPath(Array(out.utf8) + Array("/bad".utf8) + [0xFF, 0xFE] + Array(".png".utf8)), F_OK) == 0)
        // The manifest holds names escaped (then JSON-escaped): \n is `\\n` in the file.
        let manifest = try String(contentsOfFile: out + "/thumbgen-manifest.json", encoding: .utf8)
        #expect(manifest.contains(#""new\\nline.png""#) && manifest.contains(#""tab\\there.png""#), "\(manifest)")
        #expect(manifest.contains(#""bad\\xFF\\xFE.png""#), "\(manifest)")
        #expect(try BuiltBinary.run(["check", out], seconds: 60).status == 0)
    }

    @Test func fifoOrDeviceGivenExplicitlyFailsWithoutHanging() throws {
        let root = Fixtures.temporaryDirectory("fifo")
        #expect(mkfifo(root + "/pipe.png", 0o644) == 0)
        let run = try BuiltBinary.run([root + "/pipe.png", "/dev/zero", "-o", root + "/out", "--progress", "never"], seconds: 60)
        #expect(!run.timedOut)
        #expect(run.status == 1)
        #expect(run.failureLines == ["thumbgen: \(root)/pipe.png: not a regular file", "thumbgen: /dev/zero: not a regular file"], "\(run.err)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their mode"))
    func unreadableFileIsOneFailure() throws {
        let root = Fixtures.temporaryDirectory("unreadable")
        try fileManager.copyItem(atPath: Fixtures.path("pngsuite/basn2c08.png"), toPath: root + "/locked.png")
        try fileManager.copyItem(atPath: Fixtures.path("pngsuite/basn2c08.png"), toPath: root + "/open.png")
        #expect(chmod(root + "/locked.png", 0) == 0)
        let run = try BuiltBinary.run([root, "-o", root + "/out", "--progress", "never", "--summary"])
        #expect(run.status == 1)
        #expect(run.failureLines == ["thumbgen: \(root)/locked.png: cannot read: permission denied"])
        #expect(run.err.contains("1 written"))
    }
}
