import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI
import ThumbKit

/// `thumbgen icons`: every file in the manifest, incremental runs, `check`, `--prune`, and the
/// command line's mistakes.
@Suite struct IconsCommandTests {
    let fileManager = FileManager.default

    static func fixture(_ name: String) -> String { Fixtures.path("icons/" + name) }


    @Test func everyFileIsInTheManifestAndARerunWritesNothing() throws {
        let out = Fixtures.temporaryDirectory("icons")
        let master = Self.fixture("master.png")
        let run = CLIRun(["icons", master, "-o", out, "--dark", Self.fixture("dark.png"), "--size-source", "16=" + Self.fixture("small16.png")])
        #expect(run.status == .success && run.err.isEmpty, "\(run.err)")
        let manifest = try Manifest.load(path: out + "/thumbgen-manifest.json")
        let listed = manifest.sortedEntries.map { $0.output.description }.sorted()
        #expect(listed == Fixtures.files(under: out).filter { $0 != "thumbgen-manifest.json" })
        #expect(listed.count == 59)
        let formats = Set(manifest.sortedEntries.map(\.format))
        #expect(formats == ["png", "ico", "icns", "json", "xml", "html", "webmanifest"])
        for entry in manifest.sortedEntries { #expect(entry.iconFile == entry.output.description) }

        let stamps = try Fixtures.files(under: out).map { try fileManager.attributesOfItem(atPath: out + "/" + $0)[.modificationDate] as! Date }
        let again = CLIRun(["icons", master, "-o", out, "--dark", Self.fixture("dark.png"), "--size-source", "16=" + Self.fixture("small16.png"), "--summary"])
        #expect(again.err.hasPrefix("0 written, 1 up to date, 0 skipped, 0 failed in "), "\(again.err)")
        #expect(try Fixtures.files(under: out).map { try fileManager.attributesOfItem(atPath: out + "/" + $0)[.modificationDate] as! Date } == stamps)
        #expect(CLIRun(["check", out]).status == .success)
    }

    @Test func editingAStandInRebuildsAndCheckFindsAChangedFile() throws {
        let work = Fixtures.temporaryDirectory("icons-edit")
        let out = work + "/out"
        try fileManager.copyItem(atPath: Self.fixture("dark.png"), toPath: work + "/dark.png")
        let arguments = ["icons", Self.fixture("master.png"), "-o", out, "--platforms", "ios", "--dark", work + "/dark.png", "--summary"]
        #expect(CLIRun(arguments).status == .success)
        try fileManager.removeItem(atPath: work + "/dark.png")
        try fileManager.copyItem(atPath: Self.fixture("logo.png"), toPath: work + "/dark.png")
        #expect(CLIRun(arguments).err.hasPrefix("1 written, 0 up to date"))
        // check regenerates from the recorded settings and reads the stand-in again.
        #expect(CLIRun(["check", out]).status == .success)
        let favicon = out + "/ios/AppIcon.appiconset/Contents.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: favicon))
        let check = CLIRun(["check", out])
        #expect(check.status == .failure && check.err.contains("Contents.json"), "\(check.err)")
    }

    @Test func pruneRemovesWhatTheSetNoLongerMakes() throws {
        let out = Fixtures.temporaryDirectory("icons-prune")
        let master = Self.fixture("logo.png")
        #expect(CLIRun(["icons", master, "-o", out, "--platforms", "web,windows,linux", "--name", "shop"]).status == .success)
        let run = CLIRun(["icons", master, "-o", out, "--platforms", "web", "--name", "shop", "--prune", "-v"])
        #expect(run.status == .success, "\(run.err)")
        #expect(run.err.contains("pruned: \(out)/windows/app.ico\n") && run.err.contains("pruned: \(out)/linux/hicolor/16x16/apps/shop.png\n"))
        #expect(Fixtures.files(under: out).allSatisfy { $0.hasPrefix("web/") || $0 == "thumbgen-manifest.json" }, "\(Fixtures.files(under: out))")
        #expect(!fileManager.fileExists(atPath: out + "/linux"))
        #expect(CLIRun(["check", out]).status == .success)
    }

    @Test func transparentMasterForIOSFailsWithOneLineNamingITMS90717() throws {
        let out = Fixtures.temporaryDirectory("icons-alpha")
        let master = Self.fixture("logo.png")
        let run = CLIRun(["icons", master, "-o", out, "--platforms", "ios"])
        #expect(run.status == .failure)
        #expect(run.err == "thumbgen: \(master): ios/AppIcon.appiconset/AppIcon-1024.png would have transparent pixels, and App Store Connect rejects an app icon with an alpha channel (ITMS-90717): give the icons a background to be drawn on (--icon-background)\n", "\(run.err)")
        #expect(Fixtures.files(under: out).isEmpty, "nothing half-written")
        #expect(CLIRun(["icons", master, "-o", out, "--platforms", "ios", "--icon-background", "ffffff"]).status == .success)
    }

    @Test func mistakesAreUsageErrorsNamingTheOption() {
        let master = Self.fixture("master.png")
        let cases: [([String], String)] = [
            (["icons"], "thumbgen: no master image given"),
            (["icons", master, "--platforms", "ios,tv"], "thumbgen: invalid value 'ios,tv' for --platforms: expected a list of ios, macos, android, web, windows, linux"),
            (["icons", master, "--platforms", "web", "--dark", master], "thumbgen: --dark applies to the ios icons, which --platforms leaves out"),
            (["icons", master, "--padding", "45"], "thumbgen: invalid value '45' for --padding: expected a percentage from 0 to 40"),
            (["icons", master, "--icon-background", "ff000080"], "thumbgen: invalid value 'ff000080' for --icon-background: expected an opaque RRGGBB colour"),
            (["icons", master, "--dark", "/nonexistent/dark.png"], "thumbgen: --dark: cannot read /nonexistent/dark.png: no such file or directory"),
            (["icons", master, "--size-source", "16"], "thumbgen: invalid value '16' for --size-source: expected SIZE=FILE pairs such as 16=icon16.png,32=icon32.png (sizes 1 to 1024, each once)"),
            (["icons", master, "--ios-layout", "old"], "thumbgen: invalid value 'old' for --ios-layout: expected single, all-sizes or legacy"),
        ]
        for (arguments, line) in cases {
            let run = CLIRun(arguments)
            #expect(run.status == .usage, "\(arguments)")
            #expect(run.err.hasPrefix(line + "\n"), "\(arguments): \(run.err)")
        }
        #expect(CLIRun(["icons", "--help"]).out.contains("--macos-style"))
    }
}

/// Icon sets in a `thumbgen.json` project, beside thumbnails: one manifest, `build --prune`, `check`.
@Suite struct IconProjectTests {
    @Test func projectMakesIconsWithItsThumbnails() throws {
        let fileManager = FileManager.default
        let folder = Fixtures.temporaryDirectory("icon-project")
        try fileManager.createDirectory(atPath: folder + "/art", withIntermediateDirectories: true)
        try fileManager.copyItem(atPath: Fixtures.path("icons/logo.png"), toPath: folder + "/art/logo.png")
        try fileManager.copyItem(atPath: Fixtures.path("icons/dark.png"), toPath: folder + "/dark.png")
        func write(_ icons: String) throws {
            try Data(#"{ "thumbnails": [{ "source": "art", "output": "thumbs", "size": "64" }], "icons": [\#(icons)] }"#.utf8)
                .write(to: URL(fileURLWithPath: folder + "/thumbgen.json"))
        }
        try write(#"{ "source": "art/logo.png", "output": "public/icons", "platforms": ["ios", "web"], "iconBackground": "1e88e5", "dark": "dark.png" }"#)
        let run = CLIRun(["build", folder + "/thumbgen.json", "--summary"])
        #expect(run.status == .success && run.err.hasPrefix("1 written, 0 up to date"), "\(run.err)")
        #expect(fileManager.fileExists(atPath: folder + "/public/icons/ios/AppIcon.appiconset/AppIcon-dark-1024.png"))
        #expect(fileManager.fileExists(atPath: folder + "/thumbs/logo.png"))
        let manifest = try Manifest.load(path: folder + "/thumbgen-manifest.json")
        #expect(manifest.entries.count == 1 + 4 + 9, "one thumbnail, the iOS set's 4 files, the web's 9")
        #expect(CLIRun(["check", folder + "/thumbgen.json"]).status == .success)
        // Dropping a platform and pruning removes its files, and only them.
        try write(#"{ "source": "art/logo.png", "output": "public/icons", "platforms": ["web"] }"#)
        let pruned = CLIRun(["build", folder + "/thumbgen.json", "--prune", "-v"])
        #expect(pruned.status == .success, "\(pruned.err)")
        #expect(!fileManager.fileExists(atPath: folder + "/public/icons/ios") && fileManager.fileExists(atPath: folder + "/public/icons/web/favicon.ico"))
        #expect(fileManager.fileExists(atPath: folder + "/thumbs/logo.png"))
        // A mistake is one line naming the member, as the plugins word it.
        try write(#"{ "source": "art/logo.png", "padding": "5" }"#)
        let bad = CLIRun(["build", folder + "/thumbgen.json"])
        #expect(bad.status == .failure && bad.err == "thumbgen: \(folder)/thumbgen.json: icons[0].padding: expected a number, got a string\n", "\(bad.err)")
    }
}
