import Foundation
import Testing
@testable import ThumbgenCLI
import ThumbKit
import TestSupport

@Suite struct CommandTests {
    @Test func infoPrintsOneLinePerFile() {
        let files = ["basn0g01.png", "basi6a16.png", "tbbn3p08.png", "basn2c16.png", "tp0n3p08.png", "basi4a08.png"]
        let run = CLIRun(["info"] + files.map { Fixtures.path("pngsuite/" + $0) })
        #expect(run.status == .success)
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n").map { $0.split(separator: "/").last.map(String.init) ?? "" }
        #expect(lines == [
            "basn0g01.png: 32x32, gray, 1-bit, not interlaced, opaque",
            "basi6a16.png: 32x32, rgba, 16-bit, interlaced, transparency",
            "tbbn3p08.png: 32x32, palette, 8-bit, not interlaced, transparency",
            "basn2c16.png: 32x32, rgb, 16-bit, not interlaced, opaque",
            "tp0n3p08.png: 32x32, palette, 8-bit, not interlaced, opaque",
            "basi4a08.png: 32x32, gray+alpha, 8-bit, interlaced, transparency",
        ])
    }

    @Test func infoFailuresAreOneLineAndExit1() {
        let good = Fixtures.path("pngsuite/basn0g08.png")
        let bad = Fixtures.path("pngsuite/xc1n0g08.png")
        let run = CLIRun(["info", bad, good, "/no/such/file.png"])
        #expect(run.status == .failure)
        #expect(run.out.hasSuffix("basn0g08.png: 32x32, gray, 8-bit, not interlaced, opaque\n"))
        #expect(run.err == "thumbgen: \(bad): corrupt PNG: Invalid IHDR data\nthumbgen: /no/such/file.png: cannot read: no such file or directory\n")
    }

    @Test func usageErrorsExit64AndNameTheOption() {
        let run = CLIRun(["--no-such-option", "x.png"])
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("thumbgen: unknown option '--no-such-option'\n"))
        #expect(CLIRun(["info"]).status == .usage)
        #expect(CLIRun([]).status == .usage)
        #expect(CLIRun(["--color-type", "cmyk", "x.png"]).err.contains("--color-type"))
    }

    /// The help texts are held whole by `HelpSnapshotTests`; the version names each decoder's
    /// library, in `ImageDecoders.all`'s order.
    @Test func helpAndVersion() {
        #expect(CLIRun(["--help"]).out.contains("--color-type rgba"), "help says how to force RGBA")
        let version = CLIRun(["--version"])
        #expect(version.out == "thumbgen \(ThumbKitVersion.string) (\(CodecVersions.field))\n")
        #expect(version.out.hasPrefix("thumbgen \(ThumbKitVersion.string) (libpng "))
        for library in ["libjpeg", "lcms2 ", "libwebp ", "giflib ", "libtiff ", "libheif ", "libde265 ", "dav1d "] {
            #expect(version.out.contains(library), "\(library) is named")
        }
    }

    @Test(arguments: ["basn0g01.png", "basi6a16.png", "tbbn3p08.png", "basn2c16.png", "basi3p04.png", "tbwn0g16.png"])
    func sameSizeRoundTripKeepsThePixels(name: String) throws {
        let output = Fixtures.temporaryDirectory("roundtrip")
        let source = Fixtures.path("pngsuite/" + name)
        // The PngSuite declares gAMA 1.0: --keep-profile keeps the samples as stored.
        let run = CLIRun([source, "-o", output, "--size", "100000", "--keep-profile"])
        #expect(run.status == .success, "\(run.err)")
        let written = try PNGDecoder.decode(path: output + "/" + name)
        #expect(written == (try PNGDecoder.decode(path: source)).converted8())
    }

    @Test func theBinaryRuns() throws {
        let result = try BuiltBinary.run(["info", Fixtures.path("pngsuite/basn6a08.png")])
        #expect(result.status == 0)
        #expect(result.out.hasSuffix("basn6a08.png: 32x32, rgba, 8-bit, not interlaced, transparency\n"))
        let usage = try BuiltBinary.run(["--bogus"])
        #expect(usage.status == 64)
        #expect(usage.err.hasPrefix("thumbgen: unknown option '--bogus'"))
    }

    @Test func theBinaryDoesNotLinkFoundation() throws {
        // Loading Foundation roughly doubles thumbgen's start-up (see docs/development.md); a library it needs
        // appears by name in the binary's dynamic section.
        let binary = try [UInt8](Data(contentsOf: URL(fileURLWithPath: BuiltBinary.path)))
        #expect(binary.count > 100_000)
        #expect(binary.firstRange(of: Array("libswiftCore.so".utf8)) != nil)
        #expect(binary.firstRange(of: Array("libFoundation".utf8)) == nil)
    }
}

@Suite struct RoundTripTests {
    @Test func sameSizeSRGBSourceKeepsThePixelsWithoutFlags() throws {
        // An sRGB icon with no gamma or profile chunks: nothing to convert, so a pixel-exact copy.
        let source = Fixtures.path("../../Assets/samples/icons/bookmarks-48.png")
        let output = Fixtures.temporaryDirectory("roundtrip")
        let run = CLIRun([source, "-o", output, "--size", "100000"])
        #expect(run.status == .success, "\(run.err)")
        #expect(try PNGDecoder.decode(path: output + "/bookmarks-48.png") == (try PNGDecoder.decode(path: source)).converted8())
    }
}

@Suite struct InfoJPEGTests {
    @Test func describesJPEGsToo() {
        let run = CLIRun(["info", Fixtures.path("fuzz-seeds/progressive.jpg"), Fixtures.path("fuzz-seeds/cmyk.jpg")])
        #expect(run.status == .success, "\(run.err)")
        let lines = run.out.split(separator: "\n").map { $0.split(separator: "/").last.map(String.init) ?? "" }
        #expect(lines == ["progressive.jpg: 32x32, jpeg ycbcr, 8-bit, progressive, opaque",
                          "cmyk.jpg: 32x32, jpeg ycck, 8-bit, baseline, opaque"])
    }
}

@Suite struct TruncatedJPEGTests {
    @Test func truncatedJPEGFailsUnlessPartialIsAllowed() throws {
        let dir = Fixtures.temporaryDirectory("partial")
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("fuzz-seeds/baseline.jpg"))))
        #expect(FileManager.default.createFile(atPath: dir + "/cut.jpg", contents: Data(whole.prefix(whole.count * 2 / 3))))
        let strict = CLIRun([dir + "/cut.jpg", "-o", dir + "/strict"])
        #expect(strict.status == .failure)
        #expect(strict.err.contains("cut.jpg: "))
        #expect(!FileManager.default.fileExists(atPath: dir + "/strict/cut.png"))
        let lenient = CLIRun([dir + "/cut.jpg", "-o", dir + "/lenient", "--allow-partial"])
        #expect(lenient.status == .success, "\(lenient.err)")
        #expect(lenient.err.contains("thumbgen: warning: \(dir)/cut.jpg: "), "the partial read is reported")
        #expect(!CLIRun([dir + "/cut.jpg", "-o", dir + "/quiet", "--allow-partial", "-q"]).err.contains("warning"))
        #expect(try PNGDecoder(path: dir + "/lenient/cut.png").header.width == 32)
    }
}

@Suite struct ShrinkOnLoadOptionTests {
    @Test func parsesIntoTheOptions() throws {
        let parser = ArgumentParser(ThumbnailSettings.options)
        #expect(!(try ThumbnailSettings.thumbnailSet(parser.parse(["--no-shrink-on-load", "x.jpg"]))).set.options.shrinkOnLoad)
        #expect(try ThumbnailSettings.thumbnailSet(parser.parse(["x.jpg"])).set.options.shrinkOnLoad)
        #expect(CLIRun(["--help"]).out.contains("--no-shrink-on-load"))
    }

    /// The manifest records the setting and `check` regenerates with it: at --size 4 the 32×32
    /// JPEG is reduced to 1/4 by default, which gives other pixels, so a `check` that ignored the
    /// recorded setting would report the output as differing.
    @Test func manifestRecordsItAndCheckRegeneratesWithIt() throws {
        let source = Fixtures.path("fuzz-seeds/baseline.jpg")
        let exact = Fixtures.temporaryDirectory("exact"), reduced = Fixtures.temporaryDirectory("reduced")
        #expect(CLIRun([source, "-o", exact, "--size", "4", "--no-shrink-on-load"]).status == .success)
        #expect(CLIRun([source, "-o", reduced, "--size", "4"]).status == .success)
        #expect(try PNGDecoder.decode(path: exact + "/baseline.png") != (try PNGDecoder.decode(path: reduced + "/baseline.png")))
        let manifest = try String(contentsOfFile: exact + "/thumbgen-manifest.json", encoding: .utf8)
        #expect(manifest.contains("shrink-on-load=off"))
        let check = CLIRun(["check", exact, "--summary"])
        #expect(check.status == .success, "\(check.err)")
        #expect(check.err.hasSuffix("1 outputs checked, 0 differ\n"))
    }
}
