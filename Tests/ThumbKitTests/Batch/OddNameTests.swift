import Glibc
import Testing
@testable import ThumbKit

/// Names as bytes through the batch layer: output names for long and non-UTF-8 names, the
/// manifest's reversible spelling of them, short temporary names, streamed hashing and pruning.
@Suite struct OddNameTests {
    @Test func outputNamesKeepTheSourceBytes() throws {
        let naming = try OutputNaming(format: "t-%s", scales: [1, 2])
        let source = FilePath(Array("sub/caf".utf8) + [0xE9] + Array(".jpeg".utf8))
        #expect(naming.outputs(forSource: source).map(\.path) == [
            FilePath(Array("sub/t-caf".utf8) + [0xE9] + Array(".png".utf8)),
            FilePath(Array("sub/t-caf".utf8) + [0xE9] + Array("@2x.png".utf8)),
        ])
    }

    @Test func longNamesAreShortenedDeterministicallyAtACharacterBoundary() throws {
        let naming = try OutputNaming(scales: [1, 3])
        // Fits with @3x.png (248 + 7 = 255): kept as it is.
        let fits = String(repeating: "a", count: 248)
        #expect(naming.outputs(forSource: FilePath(fits + ".png")).map(\.path) == [FilePath(fits + ".png"), FilePath(fits + "@3x.png")])
        // One byte more: cut to 239 bytes at a character boundary, plus ~ and 8 hex digits.
        for stem in [String(repeating: "a", count: 249), String(repeating: "é", count: 125), "x" + String(repeating: "名", count: 90)] {
            let outputs = naming.outputs(forSource: FilePath("dir/" + stem + ".jpg")).map(\.path)
            var hasher = SHA256()
            hasher.update(Array(stem.utf8))
            let mark = "~" + String(hasher.finalize().hexString.prefix(8))
            for (output, ending) in zip(outputs, [".png", "@3x.png"]) {
                let name = output.lastComponent
                #expect(output.directory == "dir")
                #expect(name.bytes.count <= OutputNaming.maxNameBytes)
                let text = try #require(name.string, "the cut splits no character")
                #expect(text.hasSuffix(mark + ending))
                let kept = text.dropLast(mark.utf8.count + ending.utf8.count)
                #expect(stem.hasPrefix(kept) && kept.utf8.count <= 239 && kept.utf8.count > 236, "\(kept.utf8.count)")
            }
            #expect(naming.outputs(forSource: FilePath("dir/" + stem + ".jpg")).map(\.path) == outputs, "deterministic")
        }
        // Two long names that share their first 239 bytes still differ.
        let a = naming.outputs(forSource: FilePath(String(repeating: "a", count: 250) + "1.png"))[0].path
        let b = naming.outputs(forSource: FilePath(String(repeating: "a", count: 250) + "2.png"))[0].path
        #expect(a != b)
        // A byte that is not UTF-8 counts as one character.
        let raw = FilePath([UInt8](repeating: 0xFF, count: 252) + Array(".png".utf8))
        #expect(naming.outputs(forSource: raw)[0].path.bytes.prefix(239) == [UInt8](repeating: 0xFF, count: 239)[...])
    }

    @Test func theExtensionIsTheFormatsAndALongerOneLeavesRoomForItself() throws {
        let webp = try OutputNaming(format: "t-%s", scales: [1, 2], fileExtension: "webp")
        #expect(webp.outputs(forSource: "a/photo.jpg").map(\.path) == ["a/t-photo.webp", "a/t-photo@2x.webp"])
        // "t-" + 245 + "@3x.webp" = 255 fits; one more is cut to 238 bytes plus the mark.
        #expect(webp.outputs(forSource: FilePath(String(repeating: "a", count: 245) + ".png"))[0].path.bytes.count == 252)
        let cut = webp.outputs(forSource: FilePath(String(repeating: "a", count: 246) + ".png"))[0].path
        #expect(cut.bytes.count == 238 + 9 + 5 && cut.bytes.prefix(238) == Array(("t-" + String(repeating: "a", count: 236)).utf8)[...])
        #expect(OutputNaming.splitImageExtension("%s_t.JPG")! == ("%s_t", "JPG"))
        #expect(OutputNaming.splitImageExtension("%s.thumb") == nil && OutputNaming.splitImageExtension(".png") == nil)
        #expect(OutputNaming.splitImageExtension("%s.webp")! == ("%s", "webp"))
    }

    @Test func manifestStoresAnyNameAndReadsItBack() throws {
        let fingerprint = SourceFingerprint(sha256: "ab", size: 1, modifiedNanoseconds: 2, changedNanoseconds: 3, inode: 4)
        let names: [FilePath] = [FilePath([0xFF, 0x2E, 0x70]), FilePath(Array("a\\b\n".utf8)), "plain.png"]
        let manifest = Manifest(entries: names.map {
            ManifestEntry(output: $0, source: FilePath(Array("in/".utf8) + $0.bytes), sourceRelative: $0, scale: 1, settings: "s",
                          toolVersion: "v", width: 1, height: 1, fileSHA256: "f", pixelSHA256: "p", sourceFingerprint: fingerprint)
        })
        let bytes = manifest.encoded()
        let parsed = try JSONParser.parse(bytes)
        #expect(parsed == manifest.document)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""output": "\\xFF.p""#) && text.contains(#""output": "a\\\\b\\n""#), "\(text)")
        #expect(try Manifest.decode(bytes, path: "m") == manifest)
        // Format 1 stored names as plain text: still read, backslashes and all.
        let old = #"{"format": 1, "outputs": [{"fileSHA256": "f", "height": 1, "output": "a\\b.png", "pixelSHA256": "p", "scale": 1, "settings": "s", "source": "in/a\\b.png", "sourceChangedNanoseconds": 3, "sourceInode": 4, "sourceModifiedNanoseconds": 2, "sourceRelative": "a\\b.png", "sourceSHA256": "ab", "sourceSize": 1, "toolVersion": "v", "width": 1}]}"#
        #expect(try Manifest.decode(Array(old.utf8), path: "m").entries.keys.map(\.bytes) == [Array("a\\b.png".utf8)])
        // A format 2 path that is not an escaped path is an error, not a guess.
        let bad = text.replacing(#""output": "plain.png""#, with: #""output": "plain\\q.png""#)
        #expect(throws: BatchError.unreadableManifest(path: "m", reason: "output 1: 'output' is not an escaped path")) {
            try Manifest.decode(Array(bad.utf8), path: "m")
        }
    }

    @Test func temporaryNamesAreShortWhateverTheDestination() throws {
        let dir = ScratchDirectory()
        let name = FilePath([UInt8](repeating: 0x6E, count: 255))
        let staged = try AtomicFile.stage([1, 2, 3], to: FilePath(dir.path).appending(name))
        #expect(staged.temporaryPath.lastComponent.bytes.count < 40)
        #expect(staged.temporaryPath.lastComponent.description.hasPrefix(AtomicFile.temporaryMarker))
        #expect(AtomicFile.commit([staged], syncData: false) == [nil])
        #expect(Fixture.readFile(FilePath(dir.path).appending(name)) == [1, 2, 3])
        // A temporary left by a killed run, old long style or new short style, is cleared.
        dir.write(".x.png" + AtomicFile.temporaryMarker + "9-9", [0])
        dir.write(AtomicFile.temporaryMarker + "9-10", [0])
        #expect(AtomicFile.removeStaleTemporaries(in: dir.path) == 2)
    }

    @Test func hashingStreamsAndMatchesTheWholeFileHash() throws {
        let dir = ScratchDirectory()
        for size in [0, 1, SourceFile.hashChunkBytes - 1, SourceFile.hashChunkBytes, SourceFile.hashChunkBytes * 2 + 17] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
            let file = try SourceFile.open(FilePath(dir.write("f\(size)", bytes))).get()
            #expect(try file.sha256().get() == SHA256.hex(bytes), "\(size)")
            #expect(!file.changedSinceOpened)
        }
        let big = try SourceFile.open(FilePath(dir.write("big", [UInt8](repeating: 1, count: SourceFile.hashChunkBytes + 10)))).get()
        #expect(big.sha256(maxBytes: 1000) == .failure(SystemFailure(reason: "file grew past the limit of 1000 bytes (--max-file-bytes)")))
        // Written to in place while open: noticed.
        dir.write("big", [2])
        let reopened = try SourceFile.open(FilePath(dir.at("big"))).get()
        let fd = open(dir.at("big"), O_WRONLY | O_APPEND)
        _ = [UInt8(9)].withUnsafeBytes { write(fd, $0.baseAddress, 1) }
        close(fd)
        #expect(reopened.changedSinceOpened)
        // Only regular files are opened.
        if case .failure(let failure) = SourceFile.open(FilePath(dir.path)) {
            #expect(failure.reason == "is a directory")
        } else {
            Issue.record("a directory was opened as a source")
        }
    }

    @Test func aSourceUnderANonUTF8NameIsRenderedAndUpToDateNextTime() throws {
        let dir = ScratchDirectory()
        dir.mkdir("in")
        let name = Array("in/caf".utf8) + [0xE9] + Array(".png".utf8)
        let png = Fixture.png(width: 4, height: 3)
        _ = try AtomicFile.write(png, to: FilePath(Array(dir.path.utf8) + [0x2F] + name))
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        let first = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        #expect(first.written == 1 && first.failed.isEmpty, "\(first.failed)")
        let output = FilePath(Array(dir.at("out/caf").utf8) + [0xE9] + Array(".png".utf8))
        #expect(try PNGDecoder.decode(bytes: Fixture.readFile(output)).width == 4)
        let entry = try #require(try Manifest.load(path: configuration.manifestPath).sortedEntries.first)
        #expect(entry.output == output.lastComponent && entry.sourceFingerprint.sha256 == SHA256.hex(png))
        let second = try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        #expect(second.upToDate == 1 && second.written == 0)
        let report = try Batch.check(manifestPaths: [configuration.manifestPath], renderer: Fixture.renderer())
        #expect(report.mismatches.isEmpty && report.checked == 1)
    }

    @Test func pruningNeverLeavesTheOutputDirectory() throws {
        #expect(OutputPruner.staysInside("a/b.png") && OutputPruner.staysInside(FilePath([0xFF])))
        for path: FilePath in ["../a.png", "a/../../b.png", "/etc/passwd", "a//b.png", "./a.png", ""] {
            #expect(!OutputPruner.staysInside(path), "\(path)")
        }
        // A manifest entry pointing outside is ignored, even with the right hash.
        let dir = ScratchDirectory()
        let victim = dir.write("victim.png", [7])
        var previous = Manifest()
        let fingerprint = SourceFingerprint(sha256: "", size: 0, modifiedNanoseconds: 0, changedNanoseconds: 0, inode: 0)
        previous.entries["../victim.png"] = ManifestEntry(output: "../victim.png", source: "gone.png", sourceRelative: "gone.png", scale: 1,
            settings: "", toolVersion: "", width: 1, height: 1, fileSHA256: SHA256.hex([7]), pixelSHA256: "", sourceFingerprint: fingerprint)
        var summary = BatchSummary()
        var manifest = Manifest()
        OutputPruner(outputDirectory: FilePath(dir.at("out")), keep: []).prune(previous, into: &summary, manifest: &manifest) { _ in }
        #expect(summary.pruned.isEmpty && Fixture.readFile(victim) == [7])
    }
}
