import TestSupport
import Foundation
import Testing
@testable import ThumbKit

/// Each platform's rule, on the pixels and bytes the renderer makes.
@Suite struct IconRulesTests {
    typealias S = IconTestSupport

    // MARK: iOS

    @Test func appStoreIconIsColourTypeTwoWithoutTransparency() throws {
        for layout in IconSet.IOSLayout.allCases {
            var set = IconSet(platforms: [.ios])
            set.iosLayout = layout
            set.iconBackground = Color(red: 20, green: 40, blue: 60)
            for master in ["master.png", "logo.png"] {
                let files = try S.render(set, master: master)
                let light = files.filter { $0.key.hasSuffix(".png") && !$0.key.contains("-dark") && !$0.key.contains("-tinted") }
                #expect(!light.isEmpty)
                for (path, file) in light {
                    let png = S.colourType(file.bytes)
                    #expect(png.type == 2 && !png.hasTRNS, "\(layout) \(master) \(path): colour type \(png.type), tRNS \(png.hasTRNS)")
                }
            }
        }
    }

    @Test func transparentMasterWithoutBackgroundNamesITMS90717() throws {
        let set = IconSet(platforms: [.ios])
        #expect(throws: IconError.transparentIOSIcon(file: "ios/AppIcon.appiconset/AppIcon-1024.png")) {
            _ = try S.render(set, master: "logo.png")
        }
        #expect(IconError.transparentIOSIcon(file: "x.png").message.contains("ITMS-90717"))
        // Padding leaves transparent margins around even an opaque master.
        var padded = set
        padded.padding = 10
        #expect(throws: IconError.self) { _ = try S.render(padded, master: "master.png") }
        #expect(try S.render(set, master: "master.png").count == 3)
    }

    @Test func darkKeepsItsAlphaAndTintedIsTheMasterInGrey() throws {
        var set = IconSet(platforms: [.ios])
        set.sources[.dark] = try S.source("dark.png")
        let files = try S.render(set)
        let dark = try S.pixels(files["ios/AppIcon.appiconset/AppIcon-dark-1024.png"])
        #expect(S.alpha(dark, 10, 10) == 0 && S.alpha(dark, 512, 300) == 255)
        #expect(S.colourType(files["ios/AppIcon.appiconset/AppIcon-dark-1024.png"]!.bytes).type != 2)
        let tinted = try S.pixels(files["ios/AppIcon.appiconset/AppIcon-tinted-1024.png"])
        let master = try ImageSource.file(S.fixture("master.png")).decodeAsStored()
        for (x, y) in [(10, 10), (900, 100), (700, 700), (512, 300)] {
            let m = S.rgba(master, x, y), t = S.rgba(tinted, x, y)
            let luminance = 0.2126 * SRGB.decode(Double(m[0]) / 255) + 0.7152 * SRGB.decode(Double(m[1]) / 255)
                + 0.0722 * SRGB.decode(Double(m[2]) / 255)
            let expected = Int((SRGB.encode(luminance) * 255).rounded())
            #expect(t[0] == t[1] && t[1] == t[2] && abs(Int(t[0]) - expected) <= 1, "(\(x), \(y)): \(t) vs \(expected)")
        }
    }

    @Test func singleSizeContentsListsTheDarkSlotEmptyWithoutADarkIcon() throws {
        let files = try S.render(IconSet(platforms: [.ios]))
        let json = try JSONSerialization.jsonObject(with: Data(files["ios/AppIcon.appiconset/Contents.json"]!.bytes)) as! [String: Any]
        let images = json["images"] as! [[String: Any]]
        #expect(images.count == 3)
        let dark = images.first { (($0["appearances"] as? [[String: String]])?.first?["value"]) == "dark" }!
        #expect(dark["filename"] == nil && dark["size"] as? String == "1024x1024" && dark["platform"] as? String == "ios")
        #expect(files["ios/AppIcon.appiconset/AppIcon-dark-1024.png"] == nil)
    }

    // MARK: macOS

    /// The grid: the 824 px body 100 px in, transparent gutter, and below the body the shadow's
    /// exact profile — black at 77/255 times the straight edge's blur, Φ((934 − t)/5) averaged
    /// over each pixel (934: the body's bottom, 924, moved 10 px down).
    @Test func gridBodyAndShadowAtTheirPlaces() throws {
        let files = try S.render(IconSet(platforms: [.macos]))
        let icon = try S.pixels(files["macos/AppIcon.appiconset/icon_512x512@2x.png"])
        #expect(icon.width == 1024)
        #expect(S.alpha(icon, 512, 40) == 0 && S.alpha(icon, 40, 512) == 0 && S.alpha(icon, 5, 5) == 0)
        #expect(S.alpha(icon, 512, 512) == 255 && S.alpha(icon, 101, 512) == 255)
        // Beside the body, only the shadow: black, fainter than its 77/255.
        let beside = S.rgba(icon, 98, 512)
        #expect(beside[0] == 0 && beside[3] > 0 && beside[3] < 77, "\(beside)")
        func cdf(_ t: Double) -> Double { 0.5 * erfc(-t / 2.0.squareRoot()) }
        for y in 925..<960 {
            var integral = 0.0
            for k in 0..<1000 { integral += cdf((934 - (Double(y) + (Double(k) + 0.5) / 1000)) / 5) / 1000 }
            let expected = 77.0 * integral
            let pixel = S.rgba(icon, 512, y)
            #expect(pixel[0] == 0 && abs(Double(pixel[3]) - expected) <= 1, "row \(y): \(pixel) vs alpha \(expected)")
        }
    }

    @Test func fullStyleIsTheMasterAndIcnsHoldsTheSamePictures() throws {
        var set = IconSet(platforms: [.macos])
        set.macosStyle = .full
        let files = try S.render(set)
        let master = try ImageSource.file(S.fixture("master.png")).decodeAsStored()
        #expect(try S.pixels(files["macos/AppIcon.appiconset/icon_512x512@2x.png"]).rgba8 == master.rgba8)
        // The .icns's pixel hash is of its entries' pixels in order: the catalog's PNGs.
        let catalogNames = ["icp4": "16x16", "icp5": "32x32", "ic11": "16x16@2x", "ic12": "32x32@2x", "ic07": "128x128",
                            "ic13": "128x128@2x", "ic08": "256x256", "ic14": "256x256@2x", "ic09": "512x512", "ic10": "512x512@2x"]
        var all: [UInt8] = []
        for (type, _) in AppleIconFiles.icnsTypes {
            all += try S.pixels(files["macos/AppIcon.appiconset/icon_\(catalogNames[type]!).png"]).rgba8
        }
        #expect(files["macos/AppIcon.icns"]!.pixelSHA256 == SHA256.hex(all))
        let icns = files["macos/AppIcon.icns"]!.bytes
        #expect(Array(icns[0..<4]) == Array("icns".utf8))
        #expect(icns[4..<8].reduce(0) { $0 << 8 | Int($1) } == icns.count)
    }

    // MARK: Android

    /// The adaptive layers keep to the 66 dp safe circle: a pixel wholly outside it is transparent.
    @Test(arguments: ["master.png", "logo.png"])
    func adaptiveLayersLieWithinTheSafeCircle(master: String) throws {
        for fitContent in [false, true] {
            var set = IconSet(platforms: [.android])
            set.fitContent = fitContent
            set.sources[.monochrome] = try S.source("layer.png")
            let files = try S.render(set, master: master)
            for density in AndroidIconFiles.densities.map(\.name) {
                for layer in ["foreground", "monochrome"] {
                    let image = try S.pixels(files["android/res/mipmap-\(density)/ic_launcher_\(layer).png"])
                    let side = Double(image.width), r = side * 33 / 108, c = side / 2
                    var reach = 0.0
                    for y in 0..<image.width {
                        for x in 0..<image.width {
                            // The pixel's nearest point to the centre.
                            let dx = max(0, abs(Double(x) + 0.5 - c) - 0.5), dy = max(0, abs(Double(y) + 0.5 - c) - 0.5)
                            let alpha = S.alpha(image, x, y)
                            #expect(alpha == 0 || (dx * dx + dy * dy).squareRoot() < r, "\(density) \(layer) (\(x), \(y))")
                            if alpha > 0 { reach = max(reach, (dx * dx + dy * dy).squareRoot()) }
                        }
                    }
                    // Fitted to the visible pixels, the logo fills the safe circle.
                    if fitContent && master == "logo.png" && layer == "foreground" { #expect(reach > r - 2, "\(density): reaches \(reach) of \(r)") }
                }
            }
        }
    }

    @Test func adaptiveXMLAndBackgroundColourResource() throws {
        var set = IconSet(platforms: [.android])
        set.androidBackgroundColor = Color(red: 0x3d, green: 0xdc, blue: 0x84)
        let files = try S.render(set, master: "logo.png")
        let xml = String(decoding: files["android/res/mipmap-anydpi-v26/ic_launcher.xml"]!.bytes, as: UTF8.self)
        #expect(xml.contains("<background android:drawable=\"@color/ic_launcher_background\"/>"))
        #expect(xml.contains("<monochrome android:drawable=\"@mipmap/ic_launcher_monochrome\"/>"))
        #expect(String(decoding: files["android/res/values/ic_launcher_background.xml"]!.bytes, as: UTF8.self)
            .contains("<color name=\"ic_launcher_background\">#3DDC84</color>"))
        let store = try S.pixels(files["android/playstore-icon.png"])
        #expect(store.width == 512 && S.rgba(store, 3, 3) == [0x3d, 0xdc, 0x84, 255])
        #expect(S.colourType(files["android/playstore-icon.png"]!.bytes).type == 6)
        // The legacy icon: the art on the background inside a rounded square 2 dp in.
        let legacy = try S.pixels(files["android/res/mipmap-xxxhdpi/ic_launcher.png"])
        #expect(legacy.width == 192 && S.alpha(legacy, 3, 96) == 0 && S.alpha(legacy, 9, 96) == 255)
        // With a picture for the background: a layer per density, no colour resource.
        var pictured = set
        pictured.sources[.background] = try S.source("master.png")
        let withPicture = try S.render(pictured, master: "logo.png")
        #expect(withPicture["android/res/values/ic_launcher_background.xml"] == nil)
        #expect(try S.pixels(withPicture["android/res/mipmap-hdpi/ic_launcher_background.png"]).width == 162)
    }

    // MARK: Web, Windows, Linux

    /// Maskable: opaque, and every pixel wholly outside the circle of radius 0.4 is the background.
    @Test func maskableKeepsTheArtInsideRadiusFourTenths() throws {
        var set = IconSet(platforms: [.web])
        set.iconBackground = Color(red: 10, green: 20, blue: 30)
        let files = try S.render(set, master: "logo.png")
        for size in [192, 512] {
            let image = try S.pixels(files["web/icon-maskable-\(size).png"])
            let c = Double(size) / 2, r = 0.4 * Double(size)
            for y in 0..<size {
                for x in 0..<size {
                    let dx = max(0, abs(Double(x) + 0.5 - c) - 0.5), dy = max(0, abs(Double(y) + 0.5 - c) - 0.5)
                    let pixel = S.rgba(image, x, y)
                    #expect(pixel[3] == 255)
                    if (dx * dx + dy * dy).squareRoot() >= r { #expect(pixel == [10, 20, 30, 255], "\(size): (\(x), \(y))") }
                }
            }
            // The "any" icon is another file, full bleed with its transparency.
            let any = try S.pixels(files["web/icon-\(size).png"])
            #expect(S.alpha(any, 0, 0) == 0 && S.alpha(any, size / 2, size / 2) == 255)
        }
    }

    @Test func icoEntriesAreBMPWithANDMasksOrPNG() throws {
        let files = try S.render(IconSet(platforms: [.web, .windows, .linux]), master: "logo.png")
        func entries(_ bytes: [UInt8]) -> [(size: Int, png: Bool, bytes: ArraySlice<UInt8>)] {
            func le(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
            return (0..<le(4, 2)).map { i in
                let base = 6 + 16 * i, size = le(base + 8, 4), offset = le(base + 12, 4)
                return (bytes[base] == 0 ? 256 : Int(bytes[base]), Array(bytes[offset..<offset + 4]) == [0x89, 0x50, 0x4E, 0x47], bytes[offset..<offset + size])
            }
        }
        let favicon = entries(files["web/favicon.ico"]!.bytes)
        #expect(favicon.map(\.size) == [48, 32, 16] && favicon.allSatisfy { !$0.png })
        let app = entries(files["windows/app.ico"]!.bytes)
        #expect(app.map(\.size) == [256, 128, 64, 48, 32, 24, 16] && app.map(\.png) == [true, true, false, false, false, false, false])
        // Each BMP: a 40-byte header, bottom-up BGRA, and an AND mask set exactly where alpha is 0.
        for entry in favicon {
            let body = Array(entry.bytes), n = entry.size
            let linux = try S.pixels(files["linux/hicolor/\(n)x\(n)/apps/app.png"])
            #expect(body[0] == 40 && body[14] == 32)
            let maskRow = ((n + 31) / 32) * 4
            for y in 0..<n {
                for x in 0..<n {
                    let row = n - 1 - y, p = 40 + (row * n + x) * 4
                    let bit = body[40 + n * n * 4 + row * maskRow + x / 8] >> (7 - UInt8(x % 8)) & 1
                    let alpha = body[p + 3]
                    #expect((bit == 1) == (alpha == 0), "\(n): (\(x), \(y))")
                    #expect([body[p + 2], body[p + 1], body[p], alpha] == S.rgba(linux, x, y), "\(n): (\(x), \(y))")
                }
            }
        }
        #expect(files.keys.filter { $0.hasPrefix("linux/") }.sorted() == DesktopIconFiles.linuxSizes.map { "linux/hicolor/\($0)x\($0)/apps/app.png" }.sorted())
    }

    @Test func sizeSourceIsUsedPixelForPixelAtItsSize() throws {
        var set = IconSet(platforms: [.linux])
        set.sizeSources[16] = try S.source("small16.png")
        let files = try S.render(set)
        let small = try ImageSource.file(S.fixture("small16.png")).decodeAsStored()
        #expect(try S.pixels(files["linux/hicolor/16x16/apps/app.png"]).rgba8 == small.rgba8)
        // 22 px is above every size source: the master.
        #expect(try S.pixels(files["linux/hicolor/22x22/apps/app.png"]).rgba8 != small.rgba8)
    }

    @Test func paddingInsetsTheArt() throws {
        var set = IconSet(platforms: [.linux])
        set.padding = 12.5
        let files = try S.render(set)
        let image = try S.pixels(files["linux/hicolor/64x64/apps/app.png"])
        #expect(S.alpha(image, 7, 32) == 0 && S.alpha(image, 8, 32) == 255 && S.alpha(image, 55, 32) == 255 && S.alpha(image, 56, 32) == 0)
    }

    @Test func webManifestIsCreatedOrMergedKeepingOtherMembers() throws {
        var set = IconSet(platforms: [.web])
        set.webPrefix = "/static/"
        let created = try JSONSerialization.jsonObject(with: Data(try S.render(set)["web/site.webmanifest"]!.bytes)) as! [String: Any]
        #expect((created["icons"] as! [[String: String]]).map { $0["src"]! }
            == ["/static/icon-192.png", "/static/icon-512.png", "/static/icon-maskable-192.png", "/static/icon-maskable-512.png"])
        #expect((created["icons"] as! [[String: String]]).map { $0["purpose"]! } == ["any", "any", "maskable", "maskable"])
        let existing = Array(##"{"name": "Shop", "theme_color": "#123456", "icons": [{"src": "old.png"}]}"##.utf8)
        let once = try IconRenderer(set: set).render(master: .file(S.fixture("master.png"))) { _ in .success(existing) }.files
        let merged = once.first { $0.path == "web/site.webmanifest" }!
        let json = try JSONSerialization.jsonObject(with: Data(merged.bytes)) as! [String: Any]
        #expect(json["name"] as? String == "Shop" && json["theme_color"] as? String == "#123456")
        #expect((json["icons"] as! [[String: String]]).count == 4)
        let twice = try IconRenderer(set: set).render(master: .file(S.fixture("master.png"))) { _ in .success(merged.bytes) }.files
        #expect(twice.first { $0.path == "web/site.webmanifest" }!.bytes == merged.bytes, "merging into its own output changes nothing")
        #expect(throws: IconError.self) {
            _ = try IconRenderer(set: set).render(master: .file(S.fixture("master.png"))) { _ in .success(Array("[1]".utf8)) }
        }
    }

    @Test func descriptionReadsBack() throws {
        var set = IconSet(platforms: [.ios, .android, .web])
        set.iosLayout = .legacy
        set.macosStyle = .full
        set.iconBackground = Color(red: 1, green: 2, blue: 3)
        set.padding = 7.5
        set.fitContent = true
        set.name = "org.example.App"
        set.webPrefix = "./"
        set.androidBackgroundColor = Color(red: 9, green: 9, blue: 9)
        set.sources[.dark] = try S.source("dark.png")
        set.sizeSources[16] = try S.source("small16.png")
        let text = set.canonicalDescription
        #expect(IconSet.describes(text))
        let read = try IconSet(canonicalDescription: text, relativeTo: FilePath(Fixtures.directory))
        #expect(read.canonicalDescription == text)
        #expect(read.sources[.dark]?.path == FilePath(Fixtures.directory).resolving(FilePath("icons/dark.png")))
    }
}
