import Foundation
import Testing
@testable import ThumbgenCLI
import ThumbKit
import TestSupport

/// `--format`, `--name` extensions and the encoder flags on the command line: what files come
/// out, what the manifest records, that `check` and incremental runs follow the format, and that
/// a flag for another format is refused rather than ignored.
@Suite struct OutputFormatCommandTests {
    let fileManager = FileManager.default
    static let photo = Fixtures.path("photos/cat-rgba8.png")

    func manifest(_ directory: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/thumbgen-manifest.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(json["outputs"] as? [[String: Any]])
    }

    @Test func formatNamesTheFilesAndTheManifestRecordsItsSettings() throws {
        let out = Fixtures.temporaryDirectory("format-jpeg")
        let run = CLIRun([Self.photo, "-o", out, "--format", "jpeg", "--quality", "90", "--chroma", "444", "--scales", "1,2"])
        #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        let bytes = try #require(fileManager.contents(atPath: out + "/cat-rgba8.jpg"))
        #expect(try ImageSource.bytes([UInt8](bytes)).header().format == .jpeg)
        #expect(fileManager.fileExists(atPath: out + "/cat-rgba8@2x.jpg"))
        let entries = try manifest(out)
        #expect(entries.count == 2)
        let settings = try #require(entries.first?["settings"] as? String)
        #expect(settings.hasSuffix(";format=jpeg;quality=90;chroma=444;progressive=off;scales=1,2"), "\(settings)")
        // Up to date on a rerun; a changed quality rebuilds.
        #expect(CLIRun([Self.photo, "-o", out, "--format", "jpeg", "--quality", "90", "--chroma", "444", "--scales", "1,2", "-v"])
            .err.hasPrefix("up to date: "))
        let rebuilt = CLIRun([Self.photo, "-o", out, "--format", "jpeg", "--quality", "60", "--chroma", "444", "--scales", "1,2", "--summary"])
        #expect(rebuilt.err.hasPrefix("1 written, 0 up to date"), "\(rebuilt.err)")
        #expect(try #require(fileManager.contents(atPath: out + "/cat-rgba8.jpg")) != bytes)
        // check regenerates with the recorded settings.
        let check = CLIRun(["check", out, "--summary"])
        #expect(check.status == .success && check.err == "2 outputs checked, 0 differ\n", "\(check.err)")
    }

    @Test func aNameEndingInAnImageExtensionSetsTheFormat() throws {
        let out = Fixtures.temporaryDirectory("format-name")
        #expect(CLIRun([Self.photo, "-o", out, "--name", "%s-thumb.WebP", "--lossless", "--scales", "1,3"]).status == .success)
        let bytes = try #require(fileManager.contents(atPath: out + "/cat-rgba8-thumb@3x.WebP"))
        #expect(try ImageSource.bytes([UInt8](bytes)).header().details == .webp(lossless: true, frames: 1))
        #expect(CLIRun([Self.photo, "-o", out, "--name", "%s.jpeg"]).status == .success)
        #expect(fileManager.fileExists(atPath: out + "/cat-rgba8.jpeg"))
        // A name ending in .png keeps PNG and no longer doubles the extension.
        #expect(CLIRun([Self.photo, "-o", out, "--name", "small-%s.png"]).status == .success)
        #expect(fileManager.fileExists(atPath: out + "/small-cat-rgba8.png") && !fileManager.fileExists(atPath: out + "/small-cat-rgba8.png.png"))
        // An extension that is not an image's stays part of the name.
        #expect(CLIRun([Self.photo, "-o", out, "--name", "%s.thumb", "--format", "webp"]).status == .success)
        #expect(fileManager.fileExists(atPath: out + "/cat-rgba8.thumb.webp"))
    }

    @Test func checkFindsAChangedLossyFileAndAChangedLosslessOne() throws {
        let out = Fixtures.temporaryDirectory("format-check")
        #expect(CLIRun([Self.photo, "-o", out, "--format", "webp"]).status == .success)
        #expect(CLIRun(["check", out]).status == .success)
        // Another valid WebP of the same size in its place: only the file hash can tell.
        let other = try WebPEncoder(quality: 10).encode(try ImageSource.file(out + "/cat-rgba8.webp").decodeAsStored())
        #expect(fileManager.createFile(atPath: out + "/cat-rgba8.webp", contents: Data(other)))
        let changed = CLIRun(["check", out])
        #expect(changed.status == .failure && changed.err.contains("file hash differs on disk") && !changed.err.contains("pixel hash"),
                "\(changed.err)")
        let lossless = Fixtures.temporaryDirectory("format-check-lossless")
        #expect(CLIRun([Self.photo, "-o", lossless, "--format", "webp", "--lossless"]).status == .success)
        var image = try ImageSource.file(lossless + "/cat-rgba8.webp").decodeAsStored().rgba8
        image[0] ^= 1
        let decoded = try ImageSource.file(lossless + "/cat-rgba8.webp").decodeAsStored()
        let edited = try WebPEncoder(lossless: true).encode(Image(width: decoded.width, height: decoded.height, rgba8: image))
        #expect(fileManager.createFile(atPath: lossless + "/cat-rgba8.webp", contents: Data(edited)))
        #expect(CLIRun(["check", lossless]).err.contains("pixel hash differs on disk"))
    }

    @Test func flagsForAnotherFormatAreRefused() {
        let out = Fixtures.temporaryDirectory("format-refused")
        let cases: [([String], String)] = [
            (["--quality", "80"], "thumbgen: --quality applies to JPEG, WebP and AVIF output, not PNG (see --format)\n"),
            (["--format", "jpeg", "--lossless"], "thumbgen: --lossless applies to WebP output, not JPEG (see --format)\n"),
            (["--format", "webp", "--progressive"], "thumbgen: --progressive applies to JPEG output, not WebP (see --format)\n"),
            (["--format", "webp", "--chroma", "444"], "thumbgen: --chroma applies to JPEG and AVIF output, not WebP (see --format)\n"),
            (["--name", "%s.jpg", "--color-type", "rgba"], "thumbgen: --color-type applies to PNG output, not JPEG (see --format)\n"),
            (["--format", "gif"], "thumbgen: invalid value 'gif' for --format: expected png, jpeg, webp or avif, or a list of them (avif,webp,jpeg)\n"),
            (["--format", "jpeg", "--quality", "0"],
             "thumbgen: invalid value '0' for --quality: expected a number from 1 to 100, or FORMAT=Q pairs such as avif=45,webp=75,jpeg=82\n"),
            (["--format", "webp,webp"], "thumbgen: --format webp,webp names webp twice\n"),
            (["--format", "webp,jpeg", "--name", "%s.jpg"], "thumbgen: --name %s.jpg ends in .jpg, which is not --format webp,jpeg\n"),
            (["--format", "webp", "--quality", "jpeg=80"], "thumbgen: --quality jpeg=80 sets JPEG, which --format does not write\n"),
            (["--format", "png,webp", "--progressive"], "thumbgen: --progressive applies to JPEG output, not PNG, WebP (see --format)\n"),
            (["--format", "jpeg", "--chroma", "411"], "thumbgen: invalid value '411' for --chroma: expected 420 or 444\n"),
            (["--format", "webp", "--name", "%s.jpg"], "thumbgen: --name %s.jpg ends in .jpg, which is not --format webp\n"),
            (["--format", "jpeg", "--background", "ff000080"],
             "thumbgen: --background must be opaque for JPEG output, which has no alpha\n"),
        ]
        for (flags, message) in cases {
            let run = CLIRun([Self.photo, "-o", out] + flags)
            #expect(run.status == .usage, "\(flags)")
            #expect(run.err.hasPrefix(message), "\(flags): \(run.err)")
        }
        #expect(!fileManager.fileExists(atPath: out + "/thumbgen-manifest.json"))
    }
}
