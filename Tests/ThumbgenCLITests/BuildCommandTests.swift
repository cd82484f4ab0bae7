import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI
import ThumbKit

/// `thumbgen build`: a `thumbgen.json` project in one run — groups that share sources, one
/// manifest, incremental, `--prune` of what the project no longer makes, `check` of the project,
/// and one-line errors naming the file and the member, from the reader the SwiftPM plugins use.
@Suite struct BuildCommandTests {
    let fileManager = FileManager.default


    /// A project folder with `Photos/cat.png` (320×480) and `Photos/icons/b.png` (32×32).
    func project(_ json: String) throws -> String {
        let folder = Fixtures.temporaryDirectory("build")
        try fileManager.createDirectory(atPath: folder + "/Photos/icons", withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: Fixtures.path("photos/cat-rgba8.png"), toPath: folder + "/Photos/cat.png")
        try fileManager.copyItem(atPath: Fixtures.path("pngsuite/basn2c08.png"), toPath: folder + "/Photos/icons/b.png")
        try write(json, to: folder + "/thumbgen.json")
        return folder
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static let web = #"{ "source": "Photos", "output": "public/img", "widths": [100, 200], "formats": ["webp", "jpeg"] }"#
    static let app = #"{ "source": "Photos", "output": "App", "size": "16x16", "fit": "cover", "cornerRadius": 4, "scales": [1, 2] }"#

    @Test func buildsEveryGroupAndStarSetInOneRun() throws {
        let folder = try project(#"{ "thumbnails": [\#(Self.web), \#(Self.app)], "stars": [{ "scales": [1, 2], "output": "Ratings" }] }"#)
        let run = CLIRun(["build", folder + "/thumbgen.json", "-v"])
        #expect(run.status == .success, "\(run.err)")
        // Each source is one item, decoded once for both groups.
        #expect(run.err.hasPrefix("written: \(folder)/Photos/cat.png\nwritten: \(folder)/Photos/icons/b.png\n2 written, 0 up to date"), "\(run.err)")
        #expect(Fixtures.files(under: folder + "/public/img") == ["cat-100.jpg", "cat-100.webp", "cat-200.jpg", "cat-200.webp",
                                                          "icons/b-32.jpg", "icons/b-32.webp"])
        #expect(Fixtures.files(under: folder + "/App") == ["cat.png", "cat@2x.png", "icons/b.png", "icons/b@2x.png"])
        #expect(Fixtures.files(under: folder + "/Ratings").count == 10)
        // One manifest, beside the project; paths relative to it.
        let manifest = try Manifest.load(path: folder + "/thumbgen-manifest.json")
        #expect(manifest.entries.count == 10)
        #expect(manifest.entries["public/img/cat-200.webp"]?.source == "Photos/cat.png")
        // The same as two command lines make.
        let web = Fixtures.temporaryDirectory("build-web")
        #expect(CLIRun([folder + "/Photos", "-o", web, "--widths", "100,200", "--format", "webp,jpeg"]).status == .success)
        #expect(fileManager.contents(atPath: web + "/cat-200.jpg") == fileManager.contents(atPath: folder + "/public/img/cat-200.jpg"))
        // A rerun writes nothing: not an output, not a badge, not the manifest.
        let before = Fixtures.files(under: folder).map { (try? fileManager.attributesOfItem(atPath: folder + "/" + $0)[.modificationDate]) as? Date }
        let again = CLIRun(["build", folder + "/thumbgen.json", "--summary"])
        #expect(again.err.hasPrefix("0 written, 2 up to date"), "\(again.err)")
        #expect(Fixtures.files(under: folder).map { (try? fileManager.attributesOfItem(atPath: folder + "/" + $0)[.modificationDate]) as? Date } == before)
        // `check` takes the project.
        let check = CLIRun(["check", folder + "/thumbgen.json", "--summary"])
        #expect(check.status == .success && check.err == "10 outputs checked, 0 differ\n", "\(check.err)")
    }

    /// The default file is `thumbgen.json` in the current folder.
    @Test func theDefaultProjectIsInTheCurrentFolder() throws {
        let folder = try project(#"{ "thumbnails": [\#(Self.app)] }"#)
        let previous = fileManager.currentDirectoryPath
        #expect(fileManager.changeCurrentDirectoryPath(folder))
        defer { _ = fileManager.changeCurrentDirectoryPath(previous) }
        #expect(CLIRun(["build"]).status == .success)
        #expect(Fixtures.files(under: folder + "/App").count == 4)
        #expect(try Manifest.load(path: "thumbgen-manifest.json").entries["App/cat@2x.png"]?.width == 32)
    }

    /// `build --prune` after a width is removed: its files go, everything else stays.
    @Test func pruneRemovesWhatTheProjectNoLongerMakes() throws {
        let folder = try project(#"{ "thumbnails": [\#(Self.web), \#(Self.app)], "manifest": "build/state.json" }"#)
        #expect(CLIRun(["build", folder + "/thumbgen.json"]).status == .success)
        try write(#"{ "thumbnails": [\#(Self.web.replacingOccurrences(of: "[100, 200]", with: "[100]")), \#(Self.app)], "manifest": "build/state.json" }"#,
                  to: folder + "/thumbgen.json")
        let run = CLIRun(["build", folder + "/thumbgen.json", "--prune", "-v"])
        #expect(run.status == .success, "\(run.err)")
        #expect(run.err.contains("pruned: \(folder)/public/img/cat-200.webp\n") && run.err.contains("pruned: \(folder)/public/img/cat-200.jpg\n"))
        #expect(Fixtures.files(under: folder + "/public/img") == ["cat-100.jpg", "cat-100.webp", "icons/b-32.jpg", "icons/b-32.webp"])
        #expect(Fixtures.files(under: folder + "/App").count == 4, "the other group is untouched")
        #expect(try Manifest.load(path: folder + "/build/state.json").entries.count == 8)
        #expect(!fileManager.fileExists(atPath: folder + "/thumbgen-manifest.json"))
        // A removed group goes too.
        try write(#"{ "thumbnails": [\#(Self.app)], "manifest": "build/state.json" }"#, to: folder + "/thumbgen.json")
        #expect(CLIRun(["build", folder + "/thumbgen.json", "--prune"]).status == .success)
        #expect(Fixtures.files(under: folder + "/public/img").isEmpty)
        #expect(try Manifest.load(path: folder + "/build/state.json").entries.count == 4)
    }

    /// Mistakes are one line naming the file and the member, from the plugins' reader and from
    /// the command line's own option checks alike; nothing is written.
    @Test(arguments: [
        (#"{ "thumbnails": [{ "source": "Photos", "size": "40y" }] }"#,
         "thumbnails[0].size: expected N, WxH, Wx or xH with sides 1 to 1048576 (suffix >, <, ! or ^ allowed), got \"40y\""),
        (#"{ "thumbnails": [{ "source": "Nowhere" }] }"#, "thumbnails[0].source: no folder \"Nowhere\" next to thumbgen.json"),
        (#"{ "thumbnails": [{ "source": "Photos", "widths": [100, "big"] }] }"#,
         "thumbnails[0].widths[1]: expected a width from 1 to 1048576 or \"auto\", got \"big\""),
        (#"{ "thumbnails": [{ "source": "Photos", "formats": ["webp", "gif"] }] }"#, "thumbnails[0].formats[1]: expected png, jpeg, webp or avif, got \"gif\""),
        (#"{ "thumbnails": [{ "source": "Photos", "scales": [1, 0] }] }"#,
         "thumbnails[0].scales[1]: expected a scale above 0 and up to 8 with at most three decimals, got 0"),
        (#"{ "thumbnails": [{ "source": "Photos", "quality": 50 }] }"#, "thumbnails[0]: quality applies to JPEG, WebP and AVIF output, not PNG (see formats)"),
        (#"{ "thumbnails": [{ "source": "Photos", "noRotate": "yes" }] }"#, "thumbnails[0].noRotate: expected true or false, got \"yes\""),
        (#"{ "thumbnails": [{ "source": "Photos", "widths": [1, 2], "name": "%s" }] }"#,
         "thumbnails[0].name: \"%s\" has no %w, so the widths would share one name"),
        (#"{ "thumbnails": [{ "source": "Photos", "fit": "crop" }] }"#, "thumbnails[0].fit: expected one of inside, cover, contain, fill, got \"crop\""),
        (#"{ "thumbnails": [{ "source": "Photos", "output": "../out" }] }"#, "thumbnails[0].output: expected a path inside the project's folder, got \"../out\""),
        (#"{ "thumbnails": [{ "source": "Photos", "sizez": "40" }] }"#, "thumbnails[0].sizez: unknown member (known: "),
        (#"{ "thumbnails": [{ "source": "Photos" }"#, ""),
    ] as [(String, String)])
    func mistakesNameTheMember(_ json: String, _ message: String) throws {
        let folder = try project(json)
        let run = CLIRun(["build", folder + "/thumbgen.json"])
        #expect(run.status == .failure)
        #expect(run.err.hasPrefix("thumbgen: \(folder)/thumbgen.json: " + message), "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1)
        #expect(Fixtures.files(under: folder).allSatisfy { $0.hasPrefix("Photos/") || $0 == "thumbgen.json" }, "nothing written")
    }

    @Test func aMissingProjectIsOneLine() {
        let run = CLIRun(["build", "/nonexistent/thumbgen.json"])
        #expect(run.status == .failure && run.err == "thumbgen: /nonexistent/thumbgen.json: cannot read: no such file or directory\n")
        #expect(CLIRun(["build", "a.json", "b.json"]).status == .usage)
    }

    /// Every rendering option of the thumbnail command has a member, spelt as the option in
    /// camelCase, and every member stands for an option: the project and the command line cannot
    /// drift apart.
    @Test func everyThumbnailOptionHasAMember() {
        let options = Set(ThumbnailSettings.options.map(\.long) + ["name", "pairs"])
        let members = Set(ThumbgenConfig.optionMembers.map(\.option))
        #expect(options == members, "options without a member: \(options.subtracting(members).sorted()); members without an option: \(members.subtracting(options).sorted())")
        // Lists are plural: formats (--format), placeholders (--placeholder).
        for member in ThumbgenConfig.optionMembers where !["formats", "placeholders"].contains(member.member) {
            let camel = member.option.split(separator: "-").enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
            #expect(member.member == camel, "\(member.option)")
        }
    }
}
