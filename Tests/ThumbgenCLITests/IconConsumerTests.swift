import Foundation
import Testing
import TestSupport
@testable import ThumbgenCLI
import ThumbKit

/// Every kind of file `thumbgen icons` writes, read back by an independent consumer: Pillow's ICO
/// and ICNS readers (Debian's python3-pil), `icns2png -l` (icnsutils), `pngcheck`, Android's
/// `aapt` compiling the resources against the framework's (android-framework-res), and Foundation's
/// JSON reader for Contents.json and site.webmanifest. `make deps` installs the tools.
@Suite(.serialized) struct IconConsumerTests {
    static let out: String = {
        let out = Fixtures.temporaryDirectory("icons-consumers")
        let run = CLIRun(["icons", Fixtures.path("icons/logo.png"), "-o", out, "--icon-background", "1e88e5",
                          "--dark", Fixtures.path("icons/dark.png"), "--name", "shop"])
        precondition(run.status == .success, run.err)
        return out
    }()

    /// Pillow, run by Debian's own Python (python3-pil).
    static func pillow(_ script: String) throws -> String {
        let result = try ExternalTool.run("/usr/bin/python3", ["-c", script])
        #expect(result.status == 0, "\(result.out)")
        return result.out
    }

    @Test func pillowReadsEveryIcoEntryAtItsSizeAndPixels() throws {
        let out = Self.out
        let script = """
            import sys
            from PIL import Image, IcoImagePlugin
            for name in ["web/favicon.ico", "windows/app.ico"]:
                with open("\(out)/" + name, "rb") as f:
                    ico = IcoImagePlugin.IcoFile(f)
                    for e in ico.entry:
                        f.seek(e["offset"])
                        kind = "png" if f.read(4) == b"\\x89PNG" else "bmp"
                        im = ico.getimage((e["width"], e["height"])).convert("RGBA")
                        ref = Image.open("\(out)/linux/hicolor/%dx%d/apps/shop.png" % (e["width"], e["height"])).convert("RGBA")
                        print(name, e["width"], e["height"], e["bpp"], kind, "same" if im.tobytes() == ref.tobytes() else "differs")
            """
        let lines = try Self.pillow(script).split(separator: "\n").map(String.init)
        #expect(lines == [
            "web/favicon.ico 48 48 32 bmp same", "web/favicon.ico 32 32 32 bmp same", "web/favicon.ico 16 16 32 bmp same",
            "windows/app.ico 256 256 32 png same", "windows/app.ico 128 128 32 png same", "windows/app.ico 64 64 32 bmp same",
            "windows/app.ico 48 48 32 bmp same", "windows/app.ico 32 32 32 bmp same", "windows/app.ico 24 24 32 bmp same",
            "windows/app.ico 16 16 32 bmp same",
        ], "\(lines)")
    }

    @Test func pillowAndIcns2pngReadEveryIcnsEntry() throws {
        let out = Self.out
        let script = """
            from PIL import Image, IcnsImagePlugin
            with open("\(out)/macos/AppIcon.icns", "rb") as f:
                icns = IcnsImagePlugin.IcnsFile(f)
                for size in sorted(icns.itersizes()):
                    w, h, scale = size
                    im = icns.getimage(size).convert("RGBA")
                    name = "icon_%dx%d%s.png" % (w, h, "@2x" if scale == 2 else "")
                    ref = Image.open("\(out)/macos/AppIcon.appiconset/" + name).convert("RGBA")
                    print(w, h, scale, im.size[0], "same" if im.tobytes() == ref.tobytes() else "differs")
            """
        let lines = try Self.pillow(script).split(separator: "\n").map(String.init)
        #expect(lines == ["16 16 1 16 same", "16 16 2 32 same", "32 32 1 32 same", "32 32 2 64 same", "128 128 1 128 same",
                          "128 128 2 256 same", "256 256 1 256 same", "256 256 2 512 same", "512 512 1 512 same", "512 512 2 1024 same"], "\(lines)")
        // libicns 0.8.1 lists every element by type and length; it knows the sizes of ic08 to ic10
        // only (it predates the other PNG types), which Pillow read above.
        let listing = try ExternalTool.run("/usr/bin/icns2png", ["-l", out + "/macos/AppIcon.icns"])
        let types = listing.out.split(separator: "\n").compactMap { line -> String? in
            guard let quote = line.firstIndex(of: "'"), line.hasPrefix("  '") else { return nil }
            return String(line[line.index(after: quote)...].prefix(4))
        }
        #expect(types == ["icp4", "icp5", "ic11", "ic12", "ic07", "ic13", "ic08", "ic14", "ic09", "ic10"], "\(listing.out)")
        #expect(listing.out.contains("'ic10' 1024x1024 32-bit icon") && listing.out.contains("10 elements total"), "\(listing.out)")
    }

    @Test func pngcheckShowsColourTypeTwoForTheAppStoreIcon() throws {
        let result = try ExternalTool.run("/usr/bin/pngcheck", ["-v", Self.out + "/ios/AppIcon.appiconset/AppIcon-1024.png"])
        #expect(result.status == 0 && result.out.contains("1024 x 1024 image, 24-bit RGB, non-interlaced"), "\(result.out)")
        #expect(!result.out.contains("tRNS"))
        let touch = try ExternalTool.run("/usr/bin/pngcheck", ["-v", Self.out + "/web/apple-touch-icon.png"])
        #expect(touch.out.contains("180 x 180 image, 24-bit RGB"), "\(touch.out)")
    }

    /// aapt compiles the resources against the framework's, so every `@mipmap`/`@color` reference
    /// in the XML must resolve and every attribute must exist; a broken reference fails it.
    @Test func aaptCompilesTheAndroidResources() throws {
        let project = Fixtures.temporaryDirectory("icons-aapt")
        try FileManager.default.copyItem(atPath: Self.out + "/android/res", toPath: project + "/res")
        try Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">
                <application android:icon="@mipmap/ic_launcher" android:roundIcon="@mipmap/ic_launcher_round"/>
            </manifest>
            """.utf8).write(to: URL(fileURLWithPath: project + "/AndroidManifest.xml"))
        let framework = "/usr/share/android-framework-res/framework-res.apk"
        #expect(FileManager.default.fileExists(atPath: framework), "android-framework-res is missing: make deps installs it")
        func compile() throws -> (status: Int32, out: String) {
            try ExternalTool.run("/usr/bin/aapt", ["package", "-f", "-M", project + "/AndroidManifest.xml", "-S", project + "/res",
                                            "-I", framework, "-F", project + "/icons.apk"])
        }
        let built = try compile()
        #expect(built.status == 0, "\(built.out)")
        let tree = try ExternalTool.run("/usr/bin/aapt", ["dump", "xmltree", project + "/icons.apk", "res/mipmap-anydpi-v26/ic_launcher.xml"])
        for element in ["E: adaptive-icon", "E: background", "E: foreground", "E: monochrome"] { #expect(tree.out.contains(element), "\(tree.out)") }
        let resources = try ExternalTool.run("/usr/bin/aapt", ["dump", "resources", project + "/icons.apk"])
        for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi", "anydpi-v26"] { #expect(resources.out.contains("config \(density)"), "\(density)") }
        #expect(resources.out.contains("color/ic_launcher_background: t=0x1d d=0xff1e88e5"), "\(resources.out)")
        // The check has teeth: a reference to a missing layer does not compile.
        let xml = project + "/res/mipmap-anydpi-v26/ic_launcher.xml"
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        try text.replacingOccurrences(of: "ic_launcher_foreground", with: "ic_launcher_missing").write(toFile: xml, atomically: true, encoding: .utf8)
        #expect(try compile().status != 0)
    }

    /// Contents.json and site.webmanifest parse, and name only files that exist at the sizes they
    /// state.
    @Test func catalogsAndManifestNameExistingFilesAtTheirSizes() throws {
        let out = Self.out
        func size(_ path: String) throws -> Int {
            let header = try ImageSource.file(path).header()
            #expect(header.width == header.height, "\(path)")
            return header.width
        }
        for folder in ["ios/AppIcon.appiconset", "macos/AppIcon.appiconset"] {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/\(folder)/Contents.json"))) as! [String: Any]
            let images = json["images"] as! [[String: Any]]
            #expect(!images.isEmpty)
            var named = 0
            for image in images {
                guard let file = image["filename"] as? String else { continue }
                named += 1
                let points = Double((image["size"] as! String).split(separator: "x")[0])!
                let scale = Double((image["scale"] as? String ?? "1x").dropLast())!
                #expect(try size("\(out)/\(folder)/\(file)") == Int(points * scale), "\(folder)/\(file)")
            }
            let pngs = try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(folder)").filter { $0.hasSuffix(".png") }
            #expect(named >= pngs.count && Set(images.compactMap { $0["filename"] as? String }) == Set(pngs), "\(folder)")
        }
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/web/site.webmanifest"))) as! [String: Any]
        let icons = manifest["icons"] as! [[String: String]]
        #expect(icons.count == 4 && manifest["name"] as? String == "shop")
        for icon in icons {
            let side = Int(icon["sizes"]!.split(separator: "x")[0])!
            #expect(icon["src"]!.hasPrefix("/") && icon["type"] == "image/png")
            #expect(try size(out + "/web" + icon["src"]!) == side, "\(icon)")
        }
        let html = try String(contentsOfFile: out + "/web/icons.html", encoding: .utf8)
        for href in ["/favicon.ico", "/favicon-96x96.png", "/apple-touch-icon.png", "/site.webmanifest"] {
            #expect(html.contains("href=\"\(href)\"") && FileManager.default.fileExists(atPath: out + "/web" + href), "\(href)")
        }
    }
}
