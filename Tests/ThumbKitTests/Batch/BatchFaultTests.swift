import Glibc
import Testing
@testable import ThumbKit

/// Faults during a run, through the library: a source vanishing after planning, the output path
/// blocked by a file or a directory. Each must give one line naming the file, leave no temporary
/// file behind, keep the manifest valid for what completed, and fail the run (exit status 1).
@Suite struct BatchFaultTests {
    func tree(_ count: Int) -> ScratchDirectory {
        let dir = ScratchDirectory()
        for i in 0..<count { dir.write("in/img\(i).png", Fixture.png(width: 3 + i, height: 2, seed: i)) }
        return dir
    }

    func temporaries(_ root: String) -> [String] {
        Fixture.tree(root).keys.filter { $0.contains(AtomicFile.temporaryMarker) }.sorted()
    }

    /// Every manifest entry names an output that exists with the recorded file hash.
    func expectManifestMatchesDisk(_ configuration: BatchConfiguration) throws {
        let manifest = try Manifest.load(path: configuration.manifestPath)
        for entry in manifest.sortedEntries {
            let bytes = Fixture.readFile(configuration.outputDirectory.appending(entry.output))
            #expect(SHA256.hex(bytes) == entry.fileSHA256, "\(entry.output)")
        }
    }

    @Test func sourceDeletedAfterPlanningFailsThatSourceOnly() throws {
        let dir = tree(3)
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        configuration.jobs = 1
        let plan = try BatchPlanner(configuration: configuration).plan()
        #expect(plan.sources.count == 3)
        #expect(unlink(dir.at("in/img1.png")) == 0)
        let summary = BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run(plan)
        #expect(summary.written == 2 && summary.exitStatus == 1)
        #expect(summary.failed.map(\.line) == ["\(dir.at("in/img1.png")): cannot read: no such file or directory"])
        #expect(try Manifest.load(path: configuration.manifestPath).sortedEntries.map(\.output) == ["img0.png", "img2.png"])
        try expectManifestMatchesDisk(configuration)
        #expect(temporaries(dir.at("out")).isEmpty)
    }

    @Test func sourceDeletedWhileTheRunIsGoingFailsThatSourceOnly() throws {
        // With one job the renderer of img0 runs before img1 is read: deleting img1 there is a
        // source vanishing mid-run, deterministically.
        let dir = tree(3)
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        configuration.jobs = 1
        let inner = Fixture.renderer()
        let victim = dir.at("in/img1.png")
        let renderer: BatchRenderer = { source in
            if source.path.description.hasSuffix("img0.png") { unlink(victim) }
            return try inner(source)
        }
        let summary = try BatchRunner(configuration: configuration, renderer: renderer).run()
        #expect(summary.written == 2 && summary.exitStatus == 1)
        #expect(summary.failed.map(\.line) == ["\(victim): cannot read: no such file or directory"])
        try expectManifestMatchesDisk(configuration)
        #expect(temporaries(dir.at("out")).isEmpty)
    }

    @Test func fileInTheWayOfTheOutputDirectory() throws {
        let dir = tree(2)
        dir.write("blocker", Array("a file, not a folder".utf8))
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("blocker/out"))
        let summary = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        #expect(summary.written == 0 && summary.exitStatus == 1)
        // One line per source, each naming its file. Nothing was made, so no manifest is written
        // either (a run that produced nothing leaves nothing behind).
        let lines = summary.failed.map(\.line)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(dir.at("in/img0.png") + ": cannot create directory " + dir.at("blocker")) == true)
        #expect(lines.last?.hasPrefix(dir.at("in/img1.png") + ": ") == true)
        #expect(lines.allSatisfy { !$0.contains("\n") })
        #expect(Fixture.readFile(dir.at("blocker")) == Array("a file, not a folder".utf8))
    }

    @Test func outputPathThatIsADirectory() throws {
        let dir = tree(2)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        dir.write("out/img1.png/keep", Array("x".utf8))
        let summary = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        #expect(summary.written == 1 && summary.exitStatus == 1)
        #expect(summary.failed.map(\.line) == ["\(dir.at("in/img1.png")): output path is an existing directory"])
        #expect(try Manifest.load(path: configuration.manifestPath).sortedEntries.map(\.output) == ["img0.png"])
        try expectManifestMatchesDisk(configuration)
        #expect(temporaries(dir.at("out")).isEmpty)
        #expect(Fixture.readFile(dir.at("out/img1.png/keep")) == Array("x".utf8))
    }

    @Test func rendererFailureLeavesThePreviousOutputsAlone() throws {
        let dir = tree(2)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        let before = Fixture.readFile(dir.at("out/img1.png"))
        var forced = configuration
        forced.force = true
        let failing: BatchRenderer = { source in
            if source.path.description.hasSuffix("img1.png") { throw DecodeError.corrupt(.png, reason: "injected") }
            return try Fixture.renderer()(source)
        }
        let summary = try BatchRunner(configuration: forced, renderer: failing).run()
        #expect(summary.failed.map(\.line) == ["\(dir.at("in/img1.png")): corrupt PNG: injected"])
        // The old output is still complete, and its entry stays: the manifest keeps every output on
        // disk (so pruning and `check` still see it), recorded with the source it was made from.
        #expect(Fixture.readFile(dir.at("out/img1.png")) == before)
        #expect(try Manifest.load(path: configuration.manifestPath).sortedEntries.map(\.output) == ["img0.png", "img1.png"])
        #expect(temporaries(dir.at("out")).isEmpty)
    }

    /// Files come back whole whatever their size, including one whose `stat` size (0) is less
    /// than what it holds, as with files in /proc: the read goes on past the expected end.
    @Test func readingReturnsWholeFiles() throws {
        let dir = ScratchDirectory()
        for size in [0, 1, 4095, 65_537, 300_001] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            #expect(try FileSystem.read(dir.write("f\(size).bin", bytes)).get() == bytes)
        }
        let cmdline = try FileSystem.read("/proc/self/cmdline").get()
        let expected: [UInt8] = CommandLine.arguments.flatMap { Array($0.utf8) + [0] }
        #expect(!cmdline.isEmpty && cmdline == expected)
    }

    @Test func readingRefusesNonRegularFilesAndGrowthPastTheLimit() throws {
        let dir = ScratchDirectory()
        let fifo = dir.at("pipe.png")
        #expect(mkfifo(fifo, 0o644) == 0)
        // O_NONBLOCK: no writer, yet neither call blocks; fstat refuses the FIFO and the device.
        #expect(FileSystem.read(fifo) == .failure(SystemFailure(reason: "not a regular file")))
        #expect(FileSystem.head(Array(fifo.utf8), count: 8) == .failure(SystemFailure(reason: "not a regular file")))
        #expect(FileSystem.read("/dev/zero") == .failure(SystemFailure(reason: "not a regular file")))
        #expect(FileSystem.read(dir.path) == .failure(SystemFailure(reason: "is a directory")))
        // A file larger than the limit when read (it grew after its stat) is not read whole.
        let big = dir.write("big.png", [UInt8](repeating: 7, count: 200_000))
        #expect(FileSystem.read(big, maxBytes: 100_000)
                == .failure(SystemFailure(reason: "file is larger than the limit of 100000 bytes")))
        #expect((try? FileSystem.read(big, maxBytes: 200_000).get())?.count == 200_000)
    }
}
