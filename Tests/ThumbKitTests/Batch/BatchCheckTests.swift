import Glibc
import Testing
@testable import ThumbKit

@Suite struct BatchCheckTests {
    func builtTree() throws -> (ScratchDirectory, BatchConfiguration) {
        let dir = ScratchDirectory()
        for i in 0..<4 { dir.write("in/d\(i % 2)/p\(i).png", Fixture.png(width: 3, height: 2 + i, seed: i)) }
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), scales: [1, 2])
        let summary = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        #expect(summary.written == 4)
        return (dir, configuration)
    }

    @Test func passesThenFailsAfterAnOutputIsAltered() throws {
        let (dir, configuration) = try builtTree()
        let checker = BatchChecker(renderer: Fixture.renderer(), settings: "settings-1")
        let clean = try checker.check(manifestPaths: [configuration.manifestPath])
        #expect(clean.checked == 8 && clean.mismatches.isEmpty && clean.exitStatus == 0)
        #expect(clean.formatted() == "8 outputs checked, 0 differ\n")

        // Same pixels, other compression: only the file hash differs.
        let target = dir.at("out/d1/p3@2x.png")
        let image = try PNGDecoder.decode(path: target)
        try AtomicFile.write(try PNGEncoder(compressionLevel: 0).encode(image), to: target)
        // Other pixels: both differ.
        try AtomicFile.write(Fixture.png(seed: 42), to: dir.at("out/d0/p0.png"))

        let report = try checker.check(manifestPaths: [configuration.manifestPath])
        #expect(report.exitStatus == 1)
        #expect(report.mismatches.map(\.output) == [dir.at("out/d0/p0.png"), dir.at("out/d0/p0.png"), target])
        guard case .fileHashOnDisk = report.mismatches[0].kind, case .pixelHashOnDisk = report.mismatches[1].kind,
              case .fileHashOnDisk = report.mismatches[2].kind else {
            Issue.record("unexpected kinds: \(report.mismatches)")
            return
        }
        #expect(report.formatted().hasSuffix("8 outputs checked, 2 differ\n"))
        // One line per output that differs, its differences joined; no counts unless asked for.
        let lines = report.formatted(counts: false).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(dir.at("out/d0/p0.png") + ": file hash differs on disk (manifest ") == true)
        #expect(lines.first?.contains("; pixel hash differs on disk (manifest ") == true)
        #expect(BatchChecker.self == BatchChecker.self && CheckReport(checked: 1, mismatches: []).formatted(counts: false).isEmpty)
        #expect(report.mismatches[0].line.hasPrefix(dir.at("out/d0/p0.png") + ": file hash differs on disk (manifest "))
    }

    @Test func regeneratedDifferencesAreSeparated() throws {
        let (dir, configuration) = try builtTree()
        defer { withExtendedLifetime(dir) {} }
        // An encoder change: same pixels, other bytes.
        let encoderChange = try BatchChecker(renderer: Fixture.renderer(level: 1)).check(manifestPaths: [configuration.manifestPath])
        #expect(encoderChange.mismatches.count == 8)
        #expect(encoderChange.mismatches.allSatisfy { $0.kind == .encoderBytesDiffer(libraries: []) })
        #expect(encoderChange.mismatches[0].description == "encoder's bytes differ, pixels equal")
        // A rendering change: pixels differ too.
        let renderChange = try BatchChecker(renderer: Fixture.renderer(invert: true)).check(manifestPaths: [configuration.manifestPath])
        // Measured against the outputs on disk: every pixel of the inverted images differs.
        #expect(renderChange.mismatches.filter { if case .pixelsDiffer(_, _, let measure?, [], nil) = $0.kind { measure.contains(" differ, maximum difference ") } else { false } }.count == 8)
        // Other settings: reported, not regenerated.
        let other = try BatchChecker(renderer: Fixture.renderer(invert: true), settings: "settings-2").check(manifestPaths: [configuration.manifestPath])
        #expect(other.mismatches.count == 8)
        #expect(other.mismatches.allSatisfy { $0.kind == .settingsDiffer(recorded: "settings-1", current: "settings-2") })
    }

    /// A missing output is checked from the manifest alone; a missing source cannot be.
    @Test func missingOutputAndSource() throws {
        let (dir, configuration) = try builtTree()
        #expect(unlink(dir.at("out/d0/p2.png")) == 0)
        #expect(unlink(dir.at("in/d1/p1.png")) == 0)
        let report = try BatchChecker(renderer: Fixture.renderer()).check(manifestPaths: [configuration.manifestPath])
        #expect(report.mismatches.map(\.output) == [dir.at("out/d1/p1.png"), dir.at("out/d1/p1@2x.png")])
        #expect(report.mismatches[0].line.contains("cannot regenerate: cannot read source"))
        #expect(report.matches.contains { $0.output == dir.at("out/d0/p2.png") && $0.note == "ok (not on disk; regenerated)" })
    }

    @Test func unreadableManifestThrows() {
        #expect(throws: BatchError.self) { try BatchChecker(renderer: Fixture.renderer()).check(manifestPaths: ["/nonexistent/m.json"]) }
    }

    @Test(arguments: [1, 2, 3, 5])
    func shardsCoverEveryInputExactlyOnce(_ count: Int) throws {
        let dir = ScratchDirectory()
        for i in 0..<20 { dir.write("in/\(i % 3)/s\(i).png", Fixture.png(seed: i)) }
        dir.write("in/broken.png", [0])
        var failures = 0
        for index in 1...count {
            var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
            configuration.shard = try Shard(index: index, count: count)
            let summary = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
            failures += summary.failed.count
            #expect(configuration.shardManifestPath.lastComponent.description == "thumbgen-manifest.\(index)-of-\(count).json")
        }
        #expect(failures == 1)
        let manifests = (1...count).map { dir.at("out/thumbgen-manifest.\($0)-of-\(count).json") }
        #expect(Batch.manifestPaths(in: FilePath(dir.at("out"))) == manifests.map { FilePath($0) }.sorted())
        let outputs = try manifests.flatMap { try Manifest.load(path: $0).sortedEntries.map(\.output) }
        #expect(outputs.count == 20 && Set(outputs).count == 20)
        let report = try Batch.check(manifestPaths: manifests, renderer: Fixture.renderer(), settings: "settings-1")
        #expect(report.checked == 20 && report.mismatches.isEmpty)
    }

    @Test func shardAssignmentIsStable() throws {
        // Pinned so a change to the hashing (which would reshuffle every sharded batch) is noticed.
        let buckets = ["a.png", "b.png", "sub/c.png", "é.png"].map { Shard.bucket(of: Array($0.utf8), count: 7) }
        var hasher = SHA256()
        hasher.update(Array("a.png".utf8))
        let expectedA = Int(hasher.finalize().prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 7)
        #expect(buckets[0] == expectedA)
        #expect(try Shard(index: 3, count: 7).contains(relativePath: Array("a.png".utf8)) == (expectedA == 2))
        #expect(throws: BatchError.invalidShard(index: 0, count: 2)) { try Shard(index: 0, count: 2) }
        #expect(throws: BatchError.invalidShard(index: 3, count: 2)) { try Shard(index: 3, count: 2) }
    }
}
