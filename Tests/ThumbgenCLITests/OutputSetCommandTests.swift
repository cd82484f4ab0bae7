import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI
import ThumbKit

/// Sets of outputs from the command line: one-sided sizes, `--widths`, format lists, any scale,
/// `--strict-scales`, `--base`, `--manifest`, and `-v` lines that do not depend on `-j`.
@Suite struct OutputSetCommandTests {
    let fileManager = FileManager.default
    static let cat = Fixtures.path("photos/cat-rgba8.png")   // 320×480


    func size(_ path: String) throws -> String {
        let header = try ImageSource.file(path).header()
        return "\(header.width)x\(header.height)"
    }

    @Test func oneSidedSizesAsVipsthumbnailReadsThem() throws {
        let out = Fixtures.temporaryDirectory("one-sided")
        #expect(CLIRun([Self.cat, "-o", out + "/w", "--size", "100x"]).status == .success)
        #expect(CLIRun([Self.cat, "-o", out + "/h", "--size", "x120"]).status == .success)
        #expect(try size(out + "/w/cat-rgba8.png") == "100x150" && size(out + "/h/cat-rgba8.png") == "80x120")
        let cover = CLIRun([Self.cat, "-o", out + "/c", "--size", "100x", "--fit", "cover"])
        #expect(cover.status == .usage && cover.err.hasPrefix("thumbgen: --fit cover needs both sides of the box; --size 100x gives one\n"))
        #expect(CLIRun([Self.cat, "-o", out + "/c", "--size", "100x^"]).err.hasPrefix("thumbgen: invalid value for --size: "))
    }

    /// A srcset in one run: every width in every format, named by the width each really has.
    @Test func widthsTimesFormatsInOneRun() throws {
        let out = Fixtures.temporaryDirectory("widths")
        let run = CLIRun([Self.cat, "-o", out, "--widths", "100,200,400,auto", "--format", "webp,jpeg", "--quality", "webp=70,jpeg=80"])
        #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        // 400 is above the 320-pixel source and `auto` is 320 itself: one 320, under its real width.
        #expect(Fixtures.files(under: out) == ["cat-rgba8-100.jpg", "cat-rgba8-100.webp", "cat-rgba8-200.jpg", "cat-rgba8-200.webp",
                                      "cat-rgba8-320.jpg", "cat-rgba8-320.webp", "thumbgen-manifest.json"])
        #expect(try size(out + "/cat-rgba8-200.webp") == "200x300" && size(out + "/cat-rgba8-320.jpg") == "320x480")
        let manifest = try Manifest.load(path: out + "/thumbgen-manifest.json")
        #expect(manifest.entries.count == 6)
        let settings = try #require(manifest.entries["cat-rgba8-100.webp"]?.settings)
        #expect(settings.contains(";formats=webp,jpeg;webp:quality=70;") && settings.contains(";jpeg:quality=80;")
                && settings.hasSuffix(";widths=100,200,400,auto"), "\(settings)")
        // Rerun: nothing to do; check regenerates each with the recorded settings.
        #expect(CLIRun([Self.cat, "-o", out, "--widths", "100,200,400,auto", "--format", "webp,jpeg", "--quality", "webp=70,jpeg=80", "--summary"])
            .err.hasPrefix("0 written, 1 up to date"))
        let check = CLIRun(["check", out, "--summary"])
        #expect(check.status == .success && check.err == "6 outputs checked, 0 differ\n", "\(check.err)")
        // Named widths need %w.
        let unnamed = CLIRun([Self.cat, "-o", out + "/x", "--widths", "100,200", "--name", "%s"])
        #expect(unnamed.status == .usage && unnamed.err.hasPrefix("thumbgen: --name %s has no %w, so the --widths outputs would share one name\n"))
        let noWidths = CLIRun([Self.cat, "-o", out + "/x", "--name", "%s-%w"])
        #expect(noWidths.status == .usage && noWidths.err.hasPrefix("thumbgen: --name %s-%w has %w, which needs --widths\n"))
        let both = CLIRun([Self.cat, "-o", out + "/x", "--widths", "100", "--size", "50"])
        #expect(both.status == .usage && both.err.hasPrefix("thumbgen: --widths and --size both give the box; give one\n"))
        let bad = CLIRun([Self.cat, "-o", out + "/x", "--widths", "100,0"])
        #expect(bad.status == .usage && bad.err.hasPrefix("thumbgen: invalid value '100,0' for --widths: "))
        let glued = CLIRun([Self.cat, "-o", out + "/x", "--widths", "100,200", "--name", "%s%w"])
        #expect(glued.status == .usage && glued.err.contains("'%w' needs a character that is not a digit before it"), "\(glued.err)")
    }

    /// Android's densities: any positive scale, each output exactly that many times @1x; an @3x
    /// of a 16-pixel icon is 48×48 with one warning, or with --strict-scales a failure.
    @Test func anyScaleExactlyAndEnlargedWithAWarning() throws {
        let out = Fixtures.temporaryDirectory("scales")
        let run = CLIRun([Self.cat, "-o", out, "--size", "48", "--scales", "0.75,1,1.5,2,3,4"])
        #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        // @1x is 32×48; @1.5x 48×72, and so on, exactly.
        #expect(try ["", "@0.75x", "@1.5x", "@2x", "@3x", "@4x"].map { try size(out + "/cat-rgba8\($0).png") }
                == ["32x48", "24x36", "48x72", "64x96", "96x144", "128x192"])

        let icons = Fixtures.temporaryDirectory("icon-in")
        let icon = try PNGEncoder().encode(Image(width: 16, height: 16, rgba8: [UInt8](repeating: 200, count: 16 * 16 * 4)))
        #expect(fileManager.createFile(atPath: icons + "/favorite.png", contents: Data(icon)))
        let enlarged = CLIRun([icons, "-o", out + "/icons", "--size", "16", "--scales", "1,3"])
        #expect(enlarged.status == .success)
        #expect(enlarged.err == "thumbgen: warning: \(icons)/favorite.png: enlarged beyond the 16x16 source for @3x (48x48)\n")
        #expect(try size(out + "/icons/favorite@3x.png") == "48x48")
        let strict = CLIRun([icons, "-o", out + "/strict", "--size", "16", "--scales", "1,3", "--strict-scales"])
        #expect(strict.status == .failure)
        #expect(strict.err == "thumbgen: \(icons)/favorite.png: @3x is 48x48, more than the 16x16 pixels of the source\n")
        #expect(!fileManager.fileExists(atPath: out + "/strict/favorite.png"), "nothing half-written")
        let quiet = CLIRun([icons, "-o", out + "/quiet", "--size", "16", "--scales", "1,3", "-q"])
        #expect(quiet.status == .success && quiet.err.isEmpty)
        let badScale = CLIRun([Self.cat, "-o", out + "/x", "--scales", "1,9"])
        #expect(badScale.status == .usage && badScale.err.hasPrefix("thumbgen: invalid value '1,9' for --scales: "))
        let badge = CLIRun([Self.cat, "-o", out + "/x", "--scales", "1,1.5", "--rating-badge", "southeast"])
        #expect(badge.status == .usage && badge.err.hasPrefix("thumbgen: --rating-badge needs whole --scales, not 1.5\n"))
    }

    /// `--base` and `--manifest`: runs over a folder and over its subfolder agree on where outputs
    /// go, and the manifest lives where it is told, with paths relative to it.
    @Test func baseAndManifestOutsideTheOutputs() throws {
        let tree = Fixtures.temporaryDirectory("base")
        try fileManager.createDirectory(atPath: tree + "/photos/day1", withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: Self.cat, toPath: tree + "/photos/day1/cat.png")
        try fileManager.copyItem(atPath: Fixtures.path("pngsuite/basn2c08.png"), toPath: tree + "/photos/b.png")
        let manifest = tree + "/state/thumbs.json"
        #expect(CLIRun([tree + "/photos", "-o", tree + "/web", "--manifest", manifest]).status == .success)
        #expect(CLIRun([tree + "/photos/day1", "-o", tree + "/web", "--manifest", manifest, "--base", tree + "/photos",
                        "--size", "64"]).status == .success)
        #expect(Fixtures.files(under: tree + "/web") == ["b.png", "day1/cat.png"], "the day's run wrote where the whole run did")
        #expect(try size(tree + "/web/day1/cat.png") == "43x64")
        let entries = try Manifest.load(path: manifest).sortedEntries
        #expect(entries.map(\.output.description) == ["../web/b.png", "../web/day1/cat.png"])
        #expect(entries.map(\.source.description) == ["../photos/b.png", "../photos/day1/cat.png"])
        let outside = CLIRun([tree + "/photos", "-o", tree + "/web", "--base", tree + "/photos/day1"])
        #expect(outside.status == .failure && outside.err == "thumbgen: input \(tree)/photos is not inside the base folder \(tree)/photos/day1\n")
        #expect(CLIRun(["check", manifest]).status == .success)
    }

    /// `-v` lines and warnings come in plan order, whatever the job count.
    @Test func verboseLinesDoNotDependOnJobs() throws {
        let tree = Fixtures.temporaryDirectory("order")
        for (i, fixture) in ["basn2c08.png", "basn6a08.png", "basn0g08.png", "basn3p08.png", "bgan6a16.png"].enumerated() {
            try fileManager.copyItem(atPath: Fixtures.path("pngsuite/" + fixture), toPath: tree + "/\(i).png")
        }
        try fileManager.copyItem(atPath: Self.cat, toPath: tree + "/big.png")
        fileManager.createFile(atPath: tree + "/notes.txt", contents: Data("x".utf8))
        var logs: [String] = []
        for jobs in ["1", "2", "4"] {
            let out = Fixtures.temporaryDirectory("order-out")
            let run = CLIRun([tree, "-o", out, "-j", jobs, "-v", "--scales", "1,2", "--size", "16"])
            logs.append(run.err.split(separator: "\n").dropLast().joined(separator: "\n"))
        }
        #expect(logs[0] == logs[1] && logs[1] == logs[2])
        #expect(logs[0] == (0..<5).map { "written: \(tree)/\($0).png" }.joined(separator: "\n")
                + "\nwritten: \(tree)/big.png\nskipped: \(tree)/notes.txt: not an image", "\(logs[0])")
    }
}
