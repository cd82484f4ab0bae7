import Foundation
import Testing
import TestSupport

/// `thumbgen - -o -`: one image from standard input to one thumbnail on standard output, byte
/// for byte what the same file gives as a file, for every input format.
@Suite struct PipeTests {
    static let inputs = ["pngsuite/basn2c08.png", "photos/cat-rgba8.png", "fuzz-seeds/baseline.jpg", "fuzz-seeds/cmyk.jpg",
                         "gif/animated.gif", "tiff/rgba-lzw.tif", "tiff/orientation-6.tif", "heif/alpha.heic", "heif/alpha.avif"]
        + (try! FileManager.default.contentsOfDirectory(atPath: Fixtures.path("webp"))).filter { $0.hasSuffix(".webp") }.sorted().prefix(2).map { "webp/" + $0 }

    @Test(arguments: inputs)
    func standardInputToStandardOutputIsTheFilesThumbnail(_ fixture: String) throws {
        let path = Fixtures.path(fixture)
        let dir = Fixtures.temporaryDirectory("pipe")
        for format in ["png", "jpeg", "webp"] {
            let file = try BuiltBinary.run([path, "-o", dir, "--size", "24", "--format", format])
            #expect(file.status == 0, "\(file.err)")
            let stem = ((fixture as NSString).lastPathComponent as NSString).deletingPathExtension
            let expected = [UInt8](FileManager.default.contents(atPath: dir + "/\(stem).\(format == "jpeg" ? "jpg" : format)") ?? Data())
            let piped = try PipedRun(["-", "-o", "-", "--size", "24", "--format", format], stdin: path)
            #expect(piped.status == 0 && piped.err.isEmpty, "\(piped.err)")
            #expect(!expected.isEmpty && piped.out == expected, "\(fixture) as \(format)")
        }
        // Without -o, standard output too; PNG unless --format says otherwise.
        let bare = try PipedRun(["-", "--size", "24"], stdin: path)
        #expect(bare.status == 0 && bare.out.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func limitsApplyWhileReadingTheStream() throws {
        let path = Fixtures.path("photos/cat-rgba8.png")
        let bytes = try #require(FileManager.default.contents(atPath: path)).count
        let small = try PipedRun(["-", "--max-file-bytes", "\(bytes - 1)"], stdin: path)
        #expect(small.status == 1 && small.out.isEmpty)
        #expect(small.err == "thumbgen: standard input: more than the limit of \(bytes - 1) bytes (--max-file-bytes)\n")
        #expect(try PipedRun(["-", "--max-file-bytes", "\(bytes)"], stdin: path).status == 0)
        let pixels = try PipedRun(["-", "--max-pixels", "100"], stdin: path)
        #expect(pixels.status == 1 && pixels.out.isEmpty && pixels.err.hasPrefix("thumbgen: standard input: ") && pixels.err.contains("(--max-pixels)"))
        let empty = try PipedRun(["-"], stdin: nil)
        #expect(empty.status == 1 && empty.out.isEmpty && empty.err.hasPrefix("thumbgen: standard input: "))
        let garbage = try PipedRun(["-"], stdin: Fixtures.path("README.md"))
        #expect(garbage.status == 1 && garbage.out.isEmpty)
    }

    @Test func dashOutputNeverMakesAFolderNamedDash() throws {
        let dir = Fixtures.temporaryDirectory("pipe-dash")
        let run = try PipedRun([Fixtures.path("pngsuite"), "-o", "-"], stdin: nil, executable: BuiltBinary.path)
        #expect(run.status == 64 && run.out.isEmpty && run.err.hasPrefix("thumbgen: -o - writes one thumbnail to standard output"))
        #expect(!FileManager.default.fileExists(atPath: "-") && !FileManager.default.fileExists(atPath: dir + "/-"))
        // One thumbnail only, and no batch options.
        #expect(try PipedRun(["-", "--scales", "1,2"], stdin: Fixtures.path("photos/cat-rgba8.png")).status == 64)
        #expect(try PipedRun(["-", "--shard", "1/2"], stdin: Fixtures.path("photos/cat-rgba8.png")).status == 64)
        #expect(try PipedRun(["-", Fixtures.path("photos/cat-rgba8.png")], stdin: nil).status == 64)
        // -o FILE writes that file.
        let named = try PipedRun(["-", "-o", dir + "/one.png"], stdin: Fixtures.path("photos/cat-rgba8.png"))
        #expect(named.status == 0 && named.out.isEmpty && FileManager.default.fileExists(atPath: dir + "/one.png"))
    }
}
