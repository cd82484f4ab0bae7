import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI
@testable import ThumbKit

/// The web workflow from the command line: AVIF output that does not depend on `-j`, placeholders
/// in the manifest (BlurHash's reference vectors from the command line), `--metadata` and `--html`.
@Suite struct WebCommandTests {
    static let photos = ["cat-rgba8.png", "cat-rgb16.png"]

    /// A folder with a few photos (and a name that needs escaping in a URL).
    static func sources() throws -> String {
        let folder = Fixtures.temporaryDirectory("web-src")
        for name in photos { try FileManager.default.copyItem(atPath: Fixtures.path("photos/" + name), toPath: folder + "/" + name) }
        try FileManager.default.copyItem(atPath: Fixtures.path("photos/cat-rgba8.png"), toPath: folder + "/dune, at dusk.png")
        return folder
    }

    static func files(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for file in Fixtures.files(under: folder) { out[file] = FileManager.default.contents(atPath: folder + "/" + file) }
        return out
    }

    @Test func avifOutputIsTheSameForAnyJobCount() throws {
        let sources = try Self.sources()
        let out = Fixtures.temporaryDirectory("web-avif")
        for jobs in ["1", "2"] {
            let run = CLIRun([sources, "-o", out + "/j" + jobs, "--widths", "64,160", "--format", "avif,jpeg", "-j", jobs,
                              "--placeholder", "thumbhash,blurhash,lqip,color", "--metadata", out + "/j\(jobs)/images.json",
                              "--html", out + "/j\(jobs)/images.html"])
            #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        }
        let one = Self.files(out + "/j1"), two = Self.files(out + "/j2")
        #expect(one.keys.filter { $0.hasSuffix(".avif") }.count == 6)
        #expect(one == two)
        let header = try ImageSource.file(out + "/j1/cat-rgba8-64.avif").header()
        #expect(header.format == .heif && header.width == 64 && header.height == 96)
    }

    @Test func avifOptionsAndUsageErrors() throws {
        let out = Fixtures.temporaryDirectory("web-avif-options")
        let cat = Fixtures.path("photos/cat-rgba8.png")
        #expect(CLIRun([cat, "-o", out + "/a", "--size", "64", "--name", "%s.avif"]).status == .success)
        #expect(FileManager.default.fileExists(atPath: out + "/a/cat-rgba8.avif"))
        #expect(CLIRun([cat, "-o", out + "/b", "--size", "64", "--format", "avif", "--quality", "avif=80", "--effort", "2", "--chroma", "444"]).status == .success)
        let manifest = try Manifest.load(path: out + "/b/thumbgen-manifest.json")
        let settings = try #require(manifest.entries["cat-rgba8.avif"]?.settings)
        #expect(settings.contains("format=avif;quality=80;effort=2;chroma=444"))
        #expect(settings.contains("libaom "))
        let effort = CLIRun([cat, "-o", out + "/c", "--effort", "3"])
        #expect(effort.status == .usage && effort.err.hasPrefix("thumbgen: --effort applies to AVIF output, not PNG (see --format)\n"), "\(effort.err)")
        #expect(CLIRun([cat, "-o", out + "/c", "--format", "avif", "--effort", "10"]).status == .usage)
        let sizes = CLIRun([cat, "-o", out + "/c", "--sizes", "50vw"])
        #expect(sizes.status == .usage && sizes.err.hasPrefix("thumbgen: --sizes applies to --html and --metadata, and neither is given\n"), "\(sizes.err)")
        #expect(CLIRun([cat, "-o", out + "/c", "--placeholder", "blurhash=0x3"]).status == .usage)
    }

    /// Every 4×3 row of woltapp/blurhash's vectors, from the command line (`--placeholder blurhash`).
    /// The reference hashes the stored samples (no colour management), which `--keep-profile`
    /// gives; without it thumbgen hashes what the page shows, in sRGB: the same for pic4 and pic6
    /// (tagged sRGB) and pic5 (an sRGB profile), not for the three whose profile changes their colours.
    @Test func blurHashVectorsFromTheCommandLine() throws {
        let folder = Fixtures.temporaryDirectory("web-blurhash")
        let out = folder + "/out"
        let rows = PlaceholderRows.rows.filter { $0.x == 4 && $0.y == 3 }
        try #require(rows.count == 6)
        for row in rows { try FileManager.default.copyItem(atPath: Fixtures.path("blurhash/Images/" + row.image), toPath: folder + "/" + row.image) }
        let run = CLIRun([folder, "-o", out, "--size", "32", "--placeholder", "blurhash,color", "--keep-profile"])
        #expect(run.status == .success, "\(run.err)")
        let manifest = try Manifest.load(path: out + "/thumbgen-manifest.json")
        for row in rows {
            let entry = try #require(manifest.entries[FilePath(row.image)])
            #expect(entry.placeholders?["blurhash"] == row.hash, "\(row.image)")
            #expect(entry.placeholders?["color"]?.count == 7)
        }
        #expect(CLIRun([folder, "-o", out + "/srgb", "--size", "32", "--placeholder", "blurhash"]).status == .success)
        let converted = try Manifest.load(path: out + "/srgb/thumbgen-manifest.json")
        for row in rows {
            let tagged = ["pic4.png", "pic5.png", "pic6.png"].contains(row.image)
            #expect((converted.entries[FilePath(row.image)]?.placeholders?["blurhash"] == row.hash) == tagged, "\(row.image)")
        }
    }

    @Test func metadataAndPictureHTML() throws {
        let sources = try Self.sources()
        let out = Fixtures.temporaryDirectory("web-html")
        let run = CLIRun([sources, "-o", out, "--widths", "64,160", "--format", "avif,webp,jpeg", "--placeholder", "lqip,color",
                          "--metadata", out + "/images.json", "--html", out + "/index.html", "--url-prefix", "/img/",
                          "--sizes", "(min-width: 600px) 50vw, 100vw"])
        #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/images.json"))) as? [String: Any])
        let list = try #require(json["sources"] as? [[String: Any]])
        let folderName: String = "../" + String(sources.split(separator: "/").last!)
        let expectedSources: [String] = ["cat-rgb16.png", "cat-rgba8.png", "dune, at dusk.png"].map { folderName + "/" + $0 }
        let listedSources: [String] = list.compactMap { $0["source"] as? String }
        #expect(listedSources == expectedSources)
        let cat = list[1]
        #expect(cat["width"] as? Int == 320 && cat["height"] as? Int == 480)
        let formats = try #require(cat["formats"] as? [String: [String: Any]])
        #expect(Set(formats.keys) == ["avif", "webp", "jpeg"])
        let avif = try #require(formats["avif"])
        #expect(avif["type"] as? String == "image/avif")
        #expect(avif["srcset"] as? String == "/img/cat-rgba8-64.avif 64w, /img/cat-rgba8-160.avif 160w")
        let variants = try #require(avif["variants"] as? [[String: Any]])
        let size = try FileManager.default.attributesOfItem(atPath: out + "/cat-rgba8-160.avif")[.size] as? Int
        #expect(variants.last?["bytes"] as? Int == size && variants.last?["height"] as? Int == 240)
        let placeholders = try #require(cat["placeholders"] as? [String: String])
        #expect(placeholders["lqip"]?.hasPrefix("data:image/webp;base64,") == true && placeholders["color"]?.hasPrefix("#") == true)
        // The comma and the space of "dune, at dusk" are escaped in URLs, so the srcset still parses.
        let dune = try #require((list[2]["formats"] as? [String: [String: Any]])?["webp"]?["srcset"] as? String)
        #expect(dune.hasPrefix("/img/dune%2C%20at%20dusk-64.webp 64w, "))

        let html = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<picture>").count == 4)
        #expect(html.contains("<source type=\"image/avif\" srcset=\"/img/cat-rgba8-64.avif 64w, /img/cat-rgba8-160.avif 160w\" sizes=\"(min-width: 600px) 50vw, 100vw\">"))
        #expect(html.contains("<img src=\"/img/cat-rgba8-160.jpg\" srcset=\"/img/cat-rgba8-64.jpg 64w, /img/cat-rgba8-160.jpg 160w\" sizes=\"(min-width: 600px) 50vw, 100vw\" width=\"160\" height=\"240\" loading=\"lazy\" decoding=\"async\" alt=\"\" data-source=\""))
        #expect(html.contains("style=\"background-size: cover; background-image: url(data:image/webp;base64,"))
        // AVIF before WebP in each picture.
        let first = html.range(of: "image/avif")!.lowerBound, second = html.range(of: "image/webp\"")!.lowerBound
        #expect(first < second)
    }
}

/// BlurHash's reference rows (shared with the library's tests, which read the same CSV).
enum PlaceholderRows {
    struct Row { let image: String, x: Int, y: Int, hash: String }
    static let rows: [Row] = String(decoding: Fixtures.bytes("blurhash/Hashes.csv"), as: UTF8.self)
        .split(separator: "\n").compactMap { line in
            // The hash is the rest of the line after the third comma: base 83 has commas of its own.
            let fields = line.split(separator: ",", maxSplits: 3).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r ")) }
            guard fields.count == 4, let x = Int(fields[1]), let y = Int(fields[2]) else { return nil }
            return Row(image: fields[0], x: x, y: y, hash: fields[3])
        }
}
