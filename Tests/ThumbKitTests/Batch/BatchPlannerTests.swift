import Glibc
import Testing
@testable import ThumbKit
import TestSupport

@Suite struct BatchPlannerTests {
    /// A tree with good, corrupt, JPEG, non-image and hidden files.
    func mixedTree() -> ScratchDirectory {
        let dir = ScratchDirectory()
        dir.write("in/a.png", Fixture.png(seed: 1))
        dir.write("in/sub/b.png", Fixture.png(seed: 2))
        dir.write("in/sub/deeper/c.data", Fixture.png(seed: 3))  // a PNG by content, not by name
        dir.write("in/notes.txt", Array("hello".utf8))
        dir.write("in/broken.PNG", Array("not a png".utf8))
        dir.write("in/photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])
        dir.write("in/.hidden.png", Fixture.png(seed: 4))
        dir.write("in/.git/x.png", Fixture.png(seed: 5))
        return dir
    }

    func plan(_ configuration: BatchConfiguration) throws -> BatchPlan {
        try BatchPlanner(configuration: configuration).plan()
    }

    @Test func recognisesByContentAndMirrorsTheTree() throws {
        let dir = mixedTree()
        let plan = try plan(Fixture.configuration([dir.at("in")], out: dir.at("out")))
        // JPEG is supported: photo.jpg is planned (its bytes fail later, at decoding).
        #expect(plan.sources.map(\.relativePath) == ["a.png", "photo.jpg", "sub/b.png", "sub/deeper/c.data"])
        #expect(plan.sources.map { $0.outputs.map(\.relativePath) } == [["a.png"], ["photo.png"], ["sub/b.png"], ["sub/deeper/c.png"]])
        #expect(plan.sources[0].path == FilePath(dir.at("in/a.png")))
        // Sizes as walked, for largest-first ordering.
        #expect(plan.sources.map(\.size) == [Fixture.png(seed: 1).count, 6, Fixture.png(seed: 2).count, Fixture.png(seed: 3).count].map(Int64.init))
        let failed = plan.items.compactMap { if case .failed(let p, let r) = $0 { "\(p): \(r)" } else { nil } }
        #expect(failed == [
            dir.at("in/broken.PNG") + ": not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)",
        ])
        let skipped = plan.items.compactMap { if case .skipped(let p, let r) = $0 { "\(p): \(r)" } else { nil } }
        #expect(skipped == [dir.at("in/.git") + ": hidden", dir.at("in/.hidden.png") + ": hidden", dir.at("in/notes.txt") + ": not an image"])
    }

    @Test func includesHiddenWhenAsked() throws {
        let dir = mixedTree()
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        configuration.includeHidden = true
        let relatives = try plan(configuration).sources.map(\.relativePath)
        #expect(relatives == [".git/x.png", ".hidden.png", "a.png", "photo.jpg", "sub/b.png", "sub/deeper/c.data"])
    }

    @Test func sortsNamesByteWise() throws {
        let dir = ScratchDirectory()
        for name in ["b.png", "B.png", "a.png", "Z/z.png", "_.png", "é.png"] { dir.write("in/" + name, Fixture.png()) }
        let relatives = try plan(Fixture.configuration([dir.at("in")], out: dir.at("out"))).sources.map(\.relativePath)
        #expect(relatives == ["B.png", "Z/z.png", "_.png", "a.png", "b.png", "é.png"])
    }

    @Test func fileInputUsesItsNameAndInputsKeepTheirOrder() throws {
        let dir = ScratchDirectory()
        dir.write("deep/path/one.png", Fixture.png())
        dir.write("tree/two.png", Fixture.png())
        let plan = try plan(Fixture.configuration([dir.at("tree"), dir.at("deep/path/one.png")], out: dir.at("out"), scales: [1, 2, 3]))
        #expect(plan.sources.map { $0.outputs.map(\.relativePath) } == [
            ["two.png", "two@2x.png", "two@3x.png"], ["one.png", "one@2x.png", "one@3x.png"],
        ])
    }

    @Test func explicitNonImageFileFails() throws {
        let dir = ScratchDirectory()
        dir.write("readme.txt", Array("x".utf8))
        let plan = try plan(Fixture.configuration([dir.at("readme.txt"), dir.at("missing.png")], out: dir.at("out")))
        #expect(plan.items == [
            .failed(path: dir.at("readme.txt"), reason: "not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW)"),
            .failed(path: dir.at("missing.png"), reason: "cannot read: no such file or directory"),
        ])
    }

    @Test func nameFormat() throws {
        let dir = ScratchDirectory()
        dir.write("in/photo.final.png", Fixture.png())
        dir.write("in/.profile", Fixture.png())
        var configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), format: "thumb-%s-100%%", scales: [2, 1])
        configuration.includeHidden = true
        let outputs = try plan(configuration).sources.flatMap { $0.outputs.map(\.relativePath) }
        #expect(outputs == ["thumb-.profile-100%.png", "thumb-.profile-100%@2x.png", "thumb-photo.final-100%.png", "thumb-photo.final-100%@2x.png"])
    }

    /// Names split at the last `/` and `.` bytes, even where a combining mark follows and joins
    /// them into one Character with it.
    @Test func namesSplitOnBytes() throws {
        let naming = try OutputNaming(format: "t-%s")
        let two = Fixture.variants(scales: [1, 2])
        #expect(naming.outputs(forSource: "d/e\u{301}.x/b.c.png", variants: two) == ["d/e\u{301}.x/t-b.c.png", "d/e\u{301}.x/t-b.c@2x.png"])
        #expect(naming.outputs(forSource: "d/\u{301}b.png", variants: two) == ["d/t-\u{301}b.png", "d/t-\u{301}b@2x.png"])
        #expect(naming.outputs(forSource: "x.\u{301}png", variants: two) == ["t-x.png", "t-x@2x.png"])
        #expect(naming.outputs(forSource: ".hidden", variants: two) == ["t-.hidden.png", "t-.hidden@2x.png"])
        #expect(try OutputNaming().outputs(forSource: "é/名.jpeg", variants: Fixture.variants(scales: [1])) == ["é/名.png"])
    }

    @Test(arguments: ["", "a/%s", "%d", "%s%", "x%"])
    func rejectsBadFormats(_ format: String) {
        #expect(throws: BatchError.self) { try OutputNaming(format: format) }
    }

    @Test(arguments: ["0", "9", "8.001", "1.2345", "-1", "x", "", "1.", ".5", "1e1"])
    func rejectsBadScales(_ text: String) {
        #expect(Scale(parsing: text) == nil)
    }

    @Test func scalesParseExactly() {
        #expect(["0.75", "1", "1.5", "2", "3", "4", "8", "0.001", "2.50"].map { Scale(parsing: $0)?.description }
                == ["0.75", "1", "1.5", "2", "3", "4", "8", "0.001", "2.5"])
        #expect(["0.75", "1", "1.5", "2", "4"].map { Scale(parsing: $0)!.suffix } == ["@0.75x", "", "@1.5x", "@2x", "@4x"])
        // Sizes round half up: 1.5 × 41 = 61.5 → 62; 0.75 × 48 = 36.
        #expect(Scale(parsing: "1.5")!.apply(to: 41) == 62 && Scale(parsing: "0.75")!.apply(to: 48) == 36)
    }

    @Test func collisionIsReportedBeforeAnyWork() throws {
        let dir = ScratchDirectory()
        dir.write("in/a.png", Fixture.png())
        dir.write("in/a.PNG", Fixture.png())
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"))
        #expect(throws: BatchError.outputCollisions([.init(output: "a.png", first: FilePath(dir.at("in/a.PNG")), second: FilePath(dir.at("in/a.png")))])) {
            try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run()
        }
        #expect(Fixture.tree(dir.at("out")).isEmpty)
        let message = BatchError.outputCollisions([.init(output: "a.png", first: "x/a.PNG", second: "x/a.png")]).message
        #expect(message == "x/a.PNG and x/a.png both map to output a.png")
    }

    /// Which twin of a shot each pairing keeps, decided by extension: the JPEG beside a RAW or a
    /// HEIC; the RAW, then the HEIC, for prefer-raw; ties and sets with a file no camera writes
    /// (a PNG, a WebP) are left to collide; folders keep shots apart.
    @Test func pairingKeepsOneTwinPerShot() {
        let names: [FilePath] = ["IMG_1.CR2", "IMG_1.JPG", "IMG_2.heic", "IMG_2.jpeg", "IMG_2.png", "IMG_3.HEIC", "IMG_3.nef",
                                 "a.png", "a.webp", "b.jpg", "b.JPG", "d/IMG_1.dng"]
        #expect(SourcePairing.preferJPEG.twins(names) == [0: 1, 6: 5])
        #expect(SourcePairing.preferRaw.twins(names) == [1: 0, 5: 6])
        // Every extension the RAW reader takes is a RAW here (Nikon's NRW too).
        let camera: [FilePath] = ["IMG_2.heic", "IMG_2.jpeg", "IMG_4.HIF", "IMG_4.ARW", "IMG_4.jpg", "IMG_5.NRW", "IMG_5.JPG"]
        #expect(SourcePairing.preferJPEG.twins(camera) == [0: 1, 2: 4, 3: 4, 5: 6])
        #expect(SourcePairing.preferRaw.twins(camera) == [1: 0, 2: 3, 4: 3, 6: 5])
        #expect(ImageFormat.raw.facts.extensions.allSatisfy { SourcePairing.family(ofName: Array("x.\($0.uppercased())".utf8)) == .raw })
        #expect(SourcePairing.both.twins(names).isEmpty)
    }

    /// `%e` is the source's extension as spelt, empty for a name without one.
    @Test func extensionToken() throws {
        let naming = try OutputNaming(format: "%s_%e")
        #expect(naming.output(forSource: "d/IMG_1.CR2", variant: ThumbnailVariant()) == "d/IMG_1_CR2.png")
        #expect(naming.output(forSource: "README", variant: ThumbnailVariant()) == "README_.png")
    }

    /// All collisions of a run in one error, one per pair of sources however many scales.
    @Test func everyCollisionIsCollected() throws {
        let dir = ScratchDirectory()
        for name in ["in/a.png", "in/a.PNG", "in/b.webp", "in/b.png", "in/c.png"] { dir.write(name, Fixture.png()) }
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), scales: [1, 2])
        #expect(throws: BatchError.outputCollisions([.init(output: "a.png", first: FilePath(dir.at("in/a.PNG")), second: FilePath(dir.at("in/a.png"))),
                                                     .init(output: "b.png", first: FilePath(dir.at("in/b.png")), second: FilePath(dir.at("in/b.webp")))])) {
            try plan(configuration)
        }
    }

    @Test func collisionAcrossInputs() throws {
        let dir = ScratchDirectory()
        dir.write("one/a.png", Fixture.png())
        dir.write("two/a.png", Fixture.png())
        #expect(throws: BatchError.self) {
            try plan(Fixture.configuration([dir.at("one"), dir.at("two/a.png")], out: dir.at("out")))
        }
    }

    @Test func neverWalksTheOutputDirectory() throws {
        let dir = ScratchDirectory()
        dir.write("in/a.png", Fixture.png())
        dir.write("in/thumbs/a.png", Fixture.png())  // a previous run's output
        let plan = try plan(Fixture.configuration([dir.at("in")], out: dir.at("in/thumbs")))
        #expect(plan.sources.map(\.relativePath) == ["a.png"])
        #expect(plan.items.contains(.skipped(path: dir.at("in/thumbs"), reason: "output directory")))
        #expect(throws: BatchError.inputIsOutputDirectory(FilePath(dir.at("in/thumbs")))) {
            try self.plan(Fixture.configuration([dir.at("in/thumbs")], out: dir.at("in/thumbs")))
        }
    }

    @Test func followsSymlinksButNotLoops() throws {
        let dir = ScratchDirectory()
        dir.write("in/a.png", Fixture.png())
        dir.write("elsewhere/b.png", Fixture.png())
        dir.symlink("in/linked", to: dir.at("elsewhere"))
        dir.symlink("in/loop", to: dir.at("in"))
        dir.symlink("in/dangling.png", to: dir.at("nowhere.png"))
        dir.symlink("in/dangling.txt", to: dir.at("nowhere.txt"))
        let plan = try plan(Fixture.configuration([dir.at("in")], out: dir.at("out")))
        #expect(plan.sources.map(\.relativePath) == ["a.png", "linked/b.png"])
        #expect(plan.items.contains(.skipped(path: dir.at("in/loop"), reason: "symlink loop (directory already being walked)")))
        #expect(plan.items.contains(.failed(path: dir.at("in/dangling.png"), reason: "cannot read: no such file or directory")))
        #expect(plan.items.contains(.skipped(path: dir.at("in/dangling.txt"), reason: "cannot read: no such file or directory")))
    }

    /// A name that is not UTF-8 is planned like any other: output names keep its bytes.
    @Test func invalidUTF8NameIsPlannedByteForByte() throws {
        let dir = ScratchDirectory()
        dir.mkdir("in")
        let name = Array(dir.at("in/bad").utf8) + [0xFF, 0x0A] + Array(".png".utf8)
        let bytes = Fixture.png()
        RawName.write(bytes, at: name)
        let plan = try plan(Fixture.configuration([dir.at("in")], out: dir.at("out")))
        let relative = FilePath(Array("bad".utf8) + [0xFF, 0x0A] + Array(".png".utf8))
        let out = FilePath(dir.at("out")).appending(relative).relative(from: FilePath(dir.at("out")))
        #expect(plan.items == [.source(.init(path: FilePath(name), key: FilePath(name).relative(from: FilePath(dir.at("out"))),
                                             memberships: [.init(group: 0, relativePath: relative,
                                                                 outputs: [.init(variant: ThumbnailVariant(), relativePath: relative, key: out)])],
                                             size: Int64(bytes.count)))])
        #expect(plan.sources[0].path.description == dir.at("in/bad") + "\\xFF\\n.png")
    }
}
