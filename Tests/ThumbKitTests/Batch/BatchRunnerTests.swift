import Glibc
import Synchronization
import Testing
@testable import ThumbKit

@Suite struct BatchRunnerTests {
    func goodTree(_ count: Int = 5) -> ScratchDirectory {
        let dir = ScratchDirectory()
        for i in 0..<count { dir.write("in/\(i % 2 == 0 ? "" : "sub/")img\(i).png", Fixture.png(width: 2 + i, height: 3, seed: i)) }
        return dir
    }

    func run(_ configuration: BatchConfiguration, renderer: @escaping BatchRenderer = Fixture.renderer(),
             cancellation: CancellationFlag = CancellationFlag(), progress: BatchProgressHandler? = nil) throws -> BatchSummary {
        try BatchRunner(configuration: configuration, renderer: renderer, cancellation: cancellation, progress: progress).run()
    }

    @Test func writesMirroredOutputsAndManifest() throws {
        let dir = goodTree(3)
        let summary = try run(Fixture.configuration([dir.at("in")], out: dir.at("out"), scales: [1, 2]))
        #expect(summary.written == 3 && summary.filesWritten == 6 && summary.failed.isEmpty && summary.exitStatus == 0)
        let files = Fixture.tree(dir.at("out"))
        #expect(files.keys.sorted() == ["img0.png", "img0@2x.png", "img2.png", "img2@2x.png", "sub/img1.png", "sub/img1@2x.png", Manifest.defaultName])

        let manifest = try Manifest.load(path: dir.at("out/" + Manifest.defaultName))
        #expect(manifest.sortedEntries.map(\.output) == ["img0.png", "img0@2x.png", "img2.png", "img2@2x.png", "sub/img1.png", "sub/img1@2x.png"])
        for entry in manifest.sortedEntries {
            let bytes = files[entry.output.description]!
            let image = try PNGDecoder.decode(bytes: bytes)
            #expect(entry.fileSHA256 == SHA256.hex(bytes))
            #expect(entry.pixelSHA256 == SHA256.hex(image.rgba8))
            #expect(entry.width == image.width && entry.height == image.height)
            #expect(entry.settings == "settings-1" && entry.toolVersion == ThumbKitVersion.string)
            // Sources are recorded relative to the manifest's folder.
            #expect(entry.sourceFingerprint.sha256 == SHA256.hex(Fixture.readFile(FilePath(dir.at("out")).resolving(entry.source))))
        }
        let img1 = manifest.entries["sub/img1@2x.png"]!
        #expect(img1.source == "../in/sub/img1.png" && img1.sourceRelative == "sub/img1.png" && img1.scale == 2 && img1.width == 6 && img1.height == 6)
        // The manifest is exactly what the writer makes of its entries (sorted, stable).
        #expect(files[Manifest.defaultName]! == manifest.encoded())
    }

    @Test func secondRunWritesNothing() throws {
        let dir = goodTree()
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), scales: [1, 2])
        _ = try run(configuration)
        let before = Fixture.mtimes(dir.at("out"))
        let manifestBefore = Fixture.readFile(configuration.manifestPath)
        let calls = CallCounter()
        let summary = try run(configuration, renderer: Fixture.renderer(calls: calls))
        #expect(summary.written == 0 && summary.upToDate == 5 && summary.filesWritten == 0)
        #expect(calls.value == 0)
        // Nothing in the output directory is touched, not even the manifest.
        #expect(Fixture.mtimes(dir.at("out")) == before)
        #expect(Fixture.readFile(configuration.manifestPath) == manifestBefore)
    }

    @Test func touchedSourceIsRehashedNotRendered() throws {
        let dir = goodTree(2)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try run(configuration)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, dir.at("in/img0.png"), &times, 0) == 0)
        let calls = CallCounter()
        let summary = try run(configuration, renderer: Fixture.renderer(calls: calls))
        #expect(summary.upToDate == 2 && calls.value == 0)
        let entry = try Manifest.load(path: configuration.manifestPath).entries["img0.png"]!
        #expect(entry.sourceFingerprint.modifiedNanoseconds == 1_000_000 * 1_000_000_000)
    }

    @Test func changedSourceSettingsOrVersionRebuild() throws {
        let dir = goodTree(3)
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try run(configuration)
        dir.write("in/img2.png", Fixture.png(width: 9, height: 9, seed: 99))
        var summary = try run(configuration)
        #expect(summary.written == 1 && summary.upToDate == 2)
        #expect(try Manifest.load(path: configuration.manifestPath).entries["img2.png"]!.width == 9)

        configuration.settings = "settings-2"
        summary = try run(configuration)
        #expect(summary.written == 3)
        configuration.toolVersion = "9.9.9"
        summary = try run(configuration)
        #expect(summary.written == 3)
        summary = try run(configuration)
        #expect(summary.written == 0 && summary.upToDate == 3)
    }

    @Test func deletedOutputIsRebuilt() throws {
        let dir = goodTree(2)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try run(configuration)
        #expect(unlink(dir.at("out/sub/img1.png")) == 0)
        let summary = try run(configuration)
        #expect(summary.written == 1 && summary.upToDate == 1)
        #expect(Fixture.tree(dir.at("out"))["sub/img1.png"] != nil)
    }

    @Test func forceRebuildsEverything() throws {
        let dir = goodTree(3)
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try run(configuration)
        configuration.force = true
        let calls = CallCounter()
        let summary = try run(configuration, renderer: Fixture.renderer(calls: calls))
        #expect(summary.written == 3 && summary.upToDate == 0 && calls.value == 3)
    }

    @Test func badFilesFailAloneAndAreNamed() throws {
        let dir = goodTree(2)
        dir.write("in/bad.png", Array("garbage".utf8))
        dir.write("in/truncated.png", Array(Fixture.png().prefix(30)))
        dir.write("in/z.jpeg", [0xFF, 0xD8, 0xFF, 0xDB])
        dir.write("in/readme.md", Array("# hi".utf8))
        let summary = try run(Fixture.configuration([dir.at("in")], out: dir.at("out"), jobs: 3))
        #expect(summary.written == 2)
        #expect(summary.failed.map(\.path) == [dir.at("in/bad.png"), dir.at("in/truncated.png"), dir.at("in/z.jpeg")])
        #expect(summary.failed[0].reason == "not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)")
        // A JPEG is planned like a PNG; this test's renderer reads only PNGs, so it fails there.
        #expect(summary.failed[2].reason == "not a PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW file")
        #expect(summary.skipped == [BatchMessage(path: dir.at("in/readme.md"), reason: "not an image")])
        #expect(summary.exitStatus == 1)
        #expect(Set(Fixture.tree(dir.at("out")).keys) == ["img0.png", "sub/img1.png", Manifest.defaultName])
        // Skipped files are the verbose display's to list, as they come; the summary lists failures.
        let text = summary.formatted(prefix: "thumbgen: ")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "thumbgen: \(dir.at("in/bad.png")): not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)")
        #expect(lines[3].hasPrefix("2 written, 0 up to date, 1 skipped, 3 failed in "))
        #expect(!summary.formatted().contains("skipped \(dir.at("in/readme.md"))"))
    }

    @Test func rendererErrorsBecomeMessages() throws {
        let dir = goodTree(2)
        struct Boom: Error {}
        let renderer: BatchRenderer = { source in
            if source.path.description.hasSuffix("img0.png") { throw DecodeError.corrupt(.png, reason: "bad crc") }
            if source.path.description.hasSuffix("img1.png") { return BatchRendering(outputs: []) }
            throw Boom()
        }
        let summary = try run(Fixture.configuration([dir.at("in")], out: dir.at("out")), renderer: renderer)
        #expect(summary.failed.map(\.line) == [
            dir.at("in/img0.png") + ": corrupt PNG: bad crc",
            dir.at("in/sub/img1.png") + ": renderer returned 0 outputs, expected 1",
        ])
    }

    @Test func resultsDoNotDependOnJobCount() throws {
        let dir = goodTree(12)
        dir.write("in/bad.png", Array("garbage".utf8))
        let one = try run(Fixture.configuration([dir.at("in")], out: dir.at("out1"), scales: [1, 3], jobs: 1))
        let four = try run(Fixture.configuration([dir.at("in")], out: dir.at("out4"), scales: [1, 3], jobs: 4))
        let tree1 = Fixture.tree(dir.at("out1")), tree4 = Fixture.tree(dir.at("out4"))
        #expect(tree1.count == 25)
        #expect(tree1 == tree4)  // includes the manifest, byte for byte
        var a = one, b = four
        a.elapsedSeconds = 0
        b.elapsedSeconds = 0
        #expect(a == b)
    }

    @Test func progressEvents() throws {
        let dir = goodTree(3)
        dir.write("in/bad.png", [1, 2, 3])
        dir.write("in/x.txt", [1])
        let log = EventLog()
        _ = try run(Fixture.configuration([dir.at("in")], out: dir.at("out")), progress: { event, progress in log.append(event, progress) })
        let events = log.events
        #expect(events.first?.0 == .started(total: 4))
        guard case .finished(let summary)? = events.last?.0 else { Issue.record("no finished event"); return }
        #expect(summary.written == 3)
        #expect(events.last?.1.done == 4 && events.last?.1.total == 4)
        #expect(events.filter { if case .written = $0.0 { true } else { false } }.count == 3)
        #expect(events.contains { $0.0 == .skipped(BatchMessage(path: dir.at("in/x.txt"), reason: "not an image")) })
        #expect(events.map(\.1.done) == events.map(\.1.done).sorted())
    }

    @Test func cancellationKeepsWhatCompleted() throws {
        let dir = goodTree(6)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), jobs: 1)
        let flag = CancellationFlag()
        let inner = Fixture.renderer()
        let calls = CallCounter()
        // Cancel while the third source is being rendered: it is dropped, later ones never start.
        let renderer: BatchRenderer = { source in
            calls.increment()
            if calls.value == 3 { flag.cancel() }
            return try inner(source)
        }
        let summary = try run(configuration, renderer: renderer, cancellation: flag)
        #expect(summary.cancelled && summary.written == 2 && summary.notProcessed == 4 && summary.exitStatus == 1)
        #expect(summary.formatted().contains("cancelled with 4 not processed"))
        let manifest = try Manifest.load(path: configuration.manifestPath)
        #expect(manifest.entries.count == 2)
        #expect(Fixture.tree(dir.at("out")).count == 3)
        // The next run finishes the job without redoing the first two.
        let next = try run(configuration)
        #expect(next.written == 4 && next.upToDate == 2 && !next.cancelled)
    }

    @Test func cancelledBeforeStartKeepsThePreviousManifest() throws {
        let dir = goodTree(3)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try run(configuration)
        let before = Fixture.readFile(configuration.manifestPath)
        let flag = CancellationFlag()
        flag.cancel()
        let summary = try run(configuration, cancellation: flag)
        #expect(summary.notProcessed == 3 && summary.written == 0)
        #expect(Fixture.readFile(configuration.manifestPath) == before)
    }

    @Test func recoversFromAKilledRun() throws {
        let dir = goodTree(3)
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        _ = try run(configuration)
        // A killed run: outputs changed without a manifest update, and a temporary left behind.
        dir.write("in/img0.png", Fixture.png(width: 7, height: 7, seed: 7))
        dir.write("out/img0.png", Array("half-written garbage".utf8))
        dir.write("out/sub/.img1.png" + AtomicFile.temporaryMarker + "999999999-1", [1, 2, 3])
        #expect(unlink(configuration.manifestPath.description) == 0)
        let summary = try run(configuration)
        #expect(summary.written == 3 && summary.failed.isEmpty)
        #expect(Set(Fixture.tree(dir.at("out")).keys) == ["img0.png", "img2.png", "sub/img1.png", Manifest.defaultName])
        #expect(try PNGDecoder.decode(path: dir.at("out/img0.png")).width == 7)
        // A damaged manifest only costs a rebuild.
        dir.write("out/" + Manifest.defaultName, Array("{\"format\": 1, \"outp".utf8))
        #expect(try run(configuration).written == 3)
    }

    @Test func checkpointsTheManifestDuringTheRun() throws {
        let dir = goodTree(4)
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), jobs: 1)
        configuration.checkpointSeconds = 0
        let path = configuration.manifestPath
        let seen = EntryCounts()
        // Files are recorded, and checkpoints written, in order on the committer's thread: when
        // a file is recorded, the checkpoint after the one before it is on disk.
        let progress: BatchProgressHandler = { event, _ in
            if case .written = event { seen.append((try? Manifest.load(path: path))?.entries.count ?? -1) }
        }
        _ = try BatchRunner(configuration: configuration, renderer: Fixture.renderer(), progress: progress).run()
        // Before the first file there is no manifest; after each, one more entry.
        #expect(seen.values == [-1, 1, 2, 3])
        #expect(try Manifest.load(path: path).entries.count == 4)
    }

    @Test func writeFailureIsOneEscapedLine() throws {
        let dir = ScratchDirectory()
        dir.write("in/a\nb.png", Fixture.png())
        dir.mkdir("out/a\nb.png")  // a directory where the output should go
        let summary = try run(Fixture.configuration([dir.at("in")], out: dir.at("out")))
        #expect(summary.failed.map(\.line) == [dir.at("in/a\\nb.png") + ": output path is an existing directory"])
    }

    @Test func sourceSizeLimit() throws {
        let dir = ScratchDirectory()
        let png = Fixture.png()
        dir.write("in/a.png", png)
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        configuration.maxSourceBytes = UInt64(png.count - 1)
        let summary = try Batch.run(configuration, renderer: Fixture.renderer())
        #expect(summary.failed.map(\.reason) == ["file is too large (\(png.count) bytes, limit \(png.count - 1))"])
    }

    @Test func rejectsZeroJobs() {
        let dir = goodTree(1)
        #expect(throws: BatchError.invalidJobCount(0)) {
            try run(Fixture.configuration([dir.at("in")], out: dir.at("out"), jobs: 0))
        }
    }
}

/// Collects integers from renderer calls.
final class EntryCounts: Sendable {
    private let stored = Mutex<[Int]>([])
    func append(_ value: Int) { stored.withLock { $0.append(value) } }
    var values: [Int] { stored.withLock { $0 } }
}

/// Collects progress events.
final class EventLog: Sendable {
    private let stored = Mutex<[(BatchEvent, BatchProgress)]>([])
    func append(_ event: BatchEvent, _ progress: BatchProgress) { stored.withLock { $0.append((event, progress)) } }
    var events: [(BatchEvent, BatchProgress)] { stored.withLock { $0 } }
}
