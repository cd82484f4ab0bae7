import Glibc
import Testing
@testable import ThumbKit

/// Names as bytes through the batch layer: output names for long and non-UTF-8 names, the
/// manifest's reversible spelling of them, short temporary names, streamed hashing and pruning.
@Suite struct OddNameTests {
    @Test func outputNamesKeepTheSourceBytes() throws {
        let naming = try OutputNaming(format: "t-%s")
        let source = FilePath(Array("sub/caf".utf8) + [0xE9] + Array(".jpeg".utf8))
        #expect(naming.outputs(forSource: source, variants: Fixture.variants(scales: [1, 2])) == [
            FilePath(Array("sub/t-caf".utf8) + [0xE9] + Array(".png".utf8)),
            FilePath(Array("sub/t-caf".utf8) + [0xE9] + Array("@2x.png".utf8)),
        ])
    }

    @Test func longNamesAreShortenedDeterministicallyAtACharacterBoundary() throws {
        let naming = try OutputNaming()
        let scales = Fixture.variants(scales: [1, 3])
        func outputs(_ source: FilePath) -> [FilePath] { naming.outputs(forSource: source, variants: scales) }
        // Fits with the longest ending any scale and format can give, @0.125x.webp (243 + 12 = 255):
        // kept as it is.
        let fits = String(repeating: "a", count: 243)
        #expect(outputs(FilePath(fits + ".png")) == [FilePath(fits + ".png"), FilePath(fits + "@3x.png")])
        // One byte more: cut to 234 bytes at a character boundary, plus ~ and 8 hex digits.
        for stem in [String(repeating: "a", count: 244), String(repeating: "é", count: 125), "x" + String(repeating: "名", count: 90)] {
            let made = outputs(FilePath("dir/" + stem + ".jpg"))
            var hasher = SHA256()
            hasher.update(Array(stem.utf8))
            let mark = "~" + String(hasher.finalize().hexString.prefix(8))
            for (output, ending) in zip(made, [".png", "@3x.png"]) {
                let name = output.lastComponent
                #expect(output.directory == "dir")
                #expect(name.bytes.count <= OutputNaming.maxNameBytes)
                let text = try #require(name.string, "the cut splits no character")
                #expect(text.hasSuffix(mark + ending))
                let kept = text.dropLast(mark.utf8.count + ending.utf8.count)
                #expect(stem.hasPrefix(kept) && kept.utf8.count <= 234 && kept.utf8.count > 231, "\(kept.utf8.count)")
            }
            #expect(outputs(FilePath("dir/" + stem + ".jpg")) == made, "deterministic")
        }
        // Two long names that share their first 234 bytes still differ.
        let a = outputs(FilePath(String(repeating: "a", count: 250) + "1.png"))[0]
        let b = outputs(FilePath(String(repeating: "a", count: 250) + "2.png"))[0]
        #expect(a != b)
        // A byte that is not UTF-8 counts as one character.
        let raw = FilePath([UInt8](repeating: 0xFF, count: 252) + Array(".png".utf8))
        #expect(outputs(raw)[0].bytes.prefix(234) == [UInt8](repeating: 0xFF, count: 234)[...])
        // With %w, seven bytes are kept for the width whatever it is.
        let widths = try OutputNaming(format: "%s-%w")
        let long = FilePath(String(repeating: "a", count: 240) + ".png")
        let named = widths.output(forSource: long, variant: ThumbnailVariant(width: 1_048_576, scale: Scale(thousandths: 125), format: .webp(WebPEncoder())))
        #expect(named.bytes.count <= 255 && named.bytes.prefix(226) == Array(String(repeating: "a", count: 226).utf8)[...])
    }

    @Test func theExtensionIsTheFormatsOrTheNamesOwn() throws {
        let webp = try OutputNaming(format: "t-%s")
        let variants = [ThumbnailVariant(scale: 1, format: .webp(WebPEncoder())), ThumbnailVariant(scale: 2, format: .webp(WebPEncoder()))]
        #expect(webp.outputs(forSource: "a/photo.jpg", variants: variants) == ["a/t-photo.webp", "a/t-photo@2x.webp"])
        #expect(webp.outputs(forSource: "a/photo.jpg", variants: [ThumbnailVariant(format: .jpeg(JPEGEncoder()))]) == ["a/t-photo.jpg"])
        let spelt = try OutputNaming(format: "%s_t", fileExtension: "JPG")
        #expect(spelt.outputs(forSource: "p.png", variants: [ThumbnailVariant(scale: 2, format: .jpeg(JPEGEncoder()))]) == ["p_t@2x.JPG"])
        #expect(OutputNaming.splitImageExtension("%s_t.JPG")! == ("%s_t", "JPG"))
        #expect(OutputNaming.splitImageExtension("%s.thumb") == nil && OutputNaming.splitImageExtension(".png") == nil)
        #expect(OutputNaming.splitImageExtension("%s.webp")! == ("%s", "webp"))
    }

    /// `%w` must have a character that is not a digit on each side, so that the width can be told
    /// apart from the rest of the name: else `a1` at 320 and `a` at 1320 would meet.
    @Test func widthTokensNeedNonDigitNeighbours() throws {
        for bad in ["%s%w", "%w%s", "a1%w", "%w2", "%w%w"] {
            #expect(throws: BatchError.self, "\(bad)") { try OutputNaming(format: bad) }
        }
        for good in ["%s-%w", "%w-%s", "%w", "%s_w%w", "%s@%wpx"] {
            #expect(try OutputNaming(format: good).namesWidths, "\(good)")
        }
        let naming = try OutputNaming(format: "%s-%w")
        #expect(naming.output(forSource: "a/b.jpg", variant: ThumbnailVariant(width: 640, scale: Scale(thousandths: 1500), format: .png))
                == "a/b-640@1.5x.png")
        #expect(naming.template(forSource: "a/b.jpg", scale: 1, format: .png) == FilePath(Array("a/b-".utf8) + [0] + Array(".png".utf8)))
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
        dir.write(".x.png" + AtomicFile.temporaryMarker + "999999999-9", [0])
        dir.write(AtomicFile.temporaryMarker + "999999999-10", [0])
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
        #expect(big.sha256(maxBytes: 1000) == .failure(SystemFailure(reason: "file grew past the limit of 1000 bytes")))
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

    @Test func pruningNeverLeavesTheOutputDirectories() throws {
        let dir = ScratchDirectory()
        let pruner = OutputPruner(rule: .notPlanned, manifestDirectory: FilePath(dir.at("out")), outputDirectories: [FilePath(dir.at("out"))],
                                  made: [], unnamedSources: [])
        #expect(pruner.insideAnOutputDirectory(FilePath(dir.at("out/a/b.png"))) && pruner.insideAnOutputDirectory(FilePath(dir.at("out/\u{FF}"))))
        for path in [dir.at("a.png"), dir.at("out/../b.png"), "/etc/passwd", dir.at("out"), dir.at("outside/x.png")] {
            #expect(!pruner.insideAnOutputDirectory(FilePath(path)), "\(path)")
        }
        // A manifest entry pointing outside is ignored, even with the right hash and its source gone.
        let victim = dir.write("victim.png", [7])
        var manifest = Manifest()
        let fingerprint = SourceFingerprint(sha256: "", size: 0, modifiedNanoseconds: 0, changedNanoseconds: 0, inode: 0)
        manifest.entries["../victim.png"] = ManifestEntry(output: "../victim.png", source: "gone.png", sourceRelative: "gone.png", scale: 1,
            settings: "", toolVersion: "", width: 1, height: 1, fileSHA256: SHA256.hex([7]), pixelSHA256: "", sourceFingerprint: fingerprint)
        var summary = BatchSummary()
        pruner.prune(&manifest, into: &summary) { _ in }
        #expect(summary.pruned.isEmpty && Fixture.readFile(victim) == [7] && manifest.entries.count == 1)
    }
}
