import Foundation
import Testing
@testable import ThumbgenCLI
@testable import ThumbKit
import TestSupport

@Suite struct StarsCommandTests {
    let fileManager = FileManager.default

    @Test func writesTheFiveDefaultBadges() throws {
        let out = Fixtures.temporaryDirectory("stars")
        let run = CLIRun(["stars", "-o", out])
        #expect(run.status == .success, "\(run.err)")
        #expect(try fileManager.contentsOfDirectory(atPath: out).sorted()
                == ["1StarSmall.png", "2StarsSmall.png", "3StarsSmall.png", "4StarsSmall.png", "5StarsSmall.png"])
        let info = try PNGDecoder(path: out + "/3StarsSmall.png").header
        #expect((info.width, info.height) == (5 * 16 + 4, 16))
    }

    @Test func halfRatingsScalesAndAssetCatalog() throws {
        let out = Fixtures.temporaryDirectory("stars")
        let run = CLIRun(["stars", "-o", out + "/png", "--half", "--scales", "1,2,3", "--xcassets", out + "/R.xcassets"])
        #expect(run.status == .success, "\(run.err)")
        let names = try fileManager.contentsOfDirectory(atPath: out + "/png")
        #expect(names.count == 30)
        #expect(names.contains("4.5StarsSmall@3x.png") && names.contains("1StarSmall@2x.png") && names.contains("0.5StarsSmall.png"))
        let info = try PNGDecoder(path: out + "/png/2.5StarsSmall@3x.png").header
        #expect((info.width, info.height) == (84 * 3, 48))
        let contents = try String(contentsOfFile: out + "/R.xcassets/2StarsSmall.imageset/Contents.json", encoding: .utf8)
        #expect(contents.contains("\"filename\" : \"2StarsSmall@2x.png\"") && contents.contains("\"scale\" : \"3x\""))
        #expect(fileManager.fileExists(atPath: out + "/R.xcassets/Contents.json"))
        #expect(fileManager.fileExists(atPath: out + "/R.xcassets/2StarsSmall.imageset/2StarsSmall@3x.png"))
    }

    @Test func singleWhiteStarAlphaIsTheCoverage() throws {
        let out = Fixtures.temporaryDirectory("stars")
        let run = CLIRun(["stars", "-o", out, "--slots", "1", "--ratings", "1", "--fill", "ffffff", "--empty", "none",
                          "--outline", "none", "--spacing", "0", "--size", "32"])
        #expect(run.status == .success, "\(run.err)")
        let image = try PNGDecoder.decode(path: out + "/1StarSmall.png")
        let rgba = image.rgba8
        // The star's area: 10 triangles from the centre, R = 16, r = R·0.381966.
        let outer = 16.0, inner = outer * 0.381966
        let area = 10 * 0.5 * outer * inner * sin(36 * Double.pi / 180)
        let total = stride(from: 3, to: rgba.count, by: 4).reduce(0.0) { $0 + Double(rgba[$1]) / 255 }
        #expect(abs(total - area) < 0.5, "total alpha \(total) vs area \(area)")
        #expect(stride(from: 0, to: rgba.count, by: 4).allSatisfy { rgba[$0 + 3] == 0 || rgba[$0] == 255 })
    }

    @Test(arguments: [
        (["--ratings", "6"], "--ratings: rating 6 is above --slots 5"),
        (["--size", "0"], "--size: 0 is outside"),
        (["--fill", "orange"], "--fill: 'orange' is not a colour"),
        (["--scales", "1,4"], "--scales: '4' is not a scale"),
        (["--fill-mode", "most"], "--fill-mode"),
        (["--slots", "x"], "--slots"),
        (["--bogus"], "unknown option '--bogus'"),
    ])
    func badOptionsExit64AndWriteNothing(arguments: [String], message: String) {
        let out = Fixtures.temporaryDirectory("stars") + "/never"
        let run = CLIRun(["stars", "-o", out] + arguments)
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("thumbgen: ") && run.err.contains(message), "\(run.err)")
        #expect(!fileManager.fileExists(atPath: out))
    }

    @Test func specFileAndManifestMatchTheCommittedAssets() throws {
        let assets = Fixtures.path("../../Assets/stars")
        let out = Fixtures.temporaryDirectory("stars")
        let run = CLIRun(["stars", "--spec", assets + "/badge-spec.json", "-o", out, "--manifest", out + "/golden-manifest.json"])
        #expect(run.status == .success, "\(run.err)")
        #expect(fileManager.contents(atPath: out + "/golden-manifest.json") == fileManager.contents(atPath: assets + "/golden-manifest.json"))
    }

    /// The PNGs, the asset catalog and the manifest come from one render of each badge.
    @Test func everyBadgeIsRenderedOncePerRun() throws {
        let out = Fixtures.temporaryDirectory("stars")
        let log = StarRenderLog()
        let run = StarRenderLog.$current.withValue(log) {
            CLIRun(["stars", "-o", out + "/png", "--ratings", "1,2.5", "--fill-mode", "half", "--scales", "1,2,3",
                    "--xcassets", out + "/R.xcassets", "--manifest", out + "/manifest.json"])
        }
        #expect(run.status == .success, "\(run.err)")
        #expect(log.entries.map { "\($0.rating)@\($0.scale)" } == ["1.0@1", "1.0@2", "1.0@3", "2.5@1", "2.5@2", "2.5@3"])
        let manifest = try JSONParser.parse([UInt8](try #require(fileManager.contents(atPath: out + "/manifest.json"))))
        for base in ["1StarSmall", "2.5StarsSmall"] {
            for name in [base + ".png", base + "@2x.png", base + "@3x.png"] {
                let png = try #require(fileManager.contents(atPath: out + "/png/" + name))
                #expect(fileManager.contents(atPath: out + "/R.xcassets/\(base).imageset/" + name) == png)
                #expect(manifest[name]?.stringValue == SHA256.hex([UInt8](png)))
            }
        }
    }

    /// Names are JSON strings in the manifest, escaped by the JSON writer, whatever `--name` holds.
    @Test(arguments: ["a\"b%r", "back\\slash%r", "tab\tand\nnewline%r", "bell\u{7}%r%s", "é%r"])
    func manifestOfAnyNameIsValidJSON(name: String) throws {
        let out = Fixtures.temporaryDirectory("stars")
        let run = CLIRun(["stars", "-o", out + "/png", "--ratings", "1,4.5", "--scales", "1,2", "--name", name,
                          "--manifest", out + "/manifest.json"])
        #expect(run.status == .success, "\(run.err)")
        let text = try #require(fileManager.contents(atPath: out + "/manifest.json"))
        guard case .object(let members) = try JSONParser.parse([UInt8](text)) else {
            Issue.record("manifest is not a JSON object")
            return
        }
        let written = try fileManager.contentsOfDirectory(atPath: out + "/png")
        #expect(Set(members.keys) == Set(written) && members.count == 4)
        for file in written {
            let png = try #require(fileManager.contents(atPath: out + "/png/" + file))
            #expect(members[file]?.stringValue == SHA256.hex([UInt8](png)), "\(file)")
        }
    }

    @Test func repeatedScalesInASpecFileAreAUsageError() throws {
        let dir = Fixtures.temporaryDirectory("stars")
        #expect(fileManager.createFile(atPath: dir + "/twice.json", contents: Data(#"{"scales": [1, 2, 1]}"#.utf8)))
        let run = CLIRun(["stars", "--spec", dir + "/twice.json", "-o", dir + "/out", "--xcassets", dir + "/R.xcassets"])
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("thumbgen: --scales: 1 is listed twice\n"), "\(run.err)")
        #expect(!fileManager.fileExists(atPath: dir + "/out") && !fileManager.fileExists(atPath: dir + "/R.xcassets"))
    }

    @Test func unusableSpecFilesAreOneLineNamingFileAndReason() throws {
        let dir = Fixtures.temporaryDirectory("stars")
        let missing = CLIRun(["stars", "--spec", dir + "/none.json", "-o", dir + "/out"])
        #expect(missing.status == .usage)
        #expect(missing.err.hasPrefix("thumbgen: --spec: cannot read \(dir)/none.json: no such file or directory\n"), "\(missing.err)")
        let directory = CLIRun(["stars", "--spec", dir, "-o", dir + "/out"])
        #expect(directory.err.hasPrefix("thumbgen: --spec: cannot read \(dir): is a directory\n"), "\(directory.err)")
        #expect(fileManager.createFile(atPath: dir + "/bad.json", contents: Data(#"{"size": 16.5}"#.utf8)))
        let bad = CLIRun(["stars", "--spec", dir + "/bad.json", "-o", dir + "/out"])
        #expect(bad.status == .usage)
        #expect(bad.err.hasPrefix("thumbgen: badge spec: 'size' has the wrong type\n"), "\(bad.err)")
        #expect(!fileManager.fileExists(atPath: dir + "/out"))
    }
}
