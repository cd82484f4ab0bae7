/// The iOS and macOS files of an icon set: asset catalogs of app icons, and the macOS `.icns`.
enum AppleIconFiles {
    static let iosFolder = "ios/AppIcon.appiconset/"
    static let macFolder = "macos/AppIcon.appiconset/"

    /// An iOS icon size in points, as Xcode writes it (`83.5`), and its scale.
    struct PointSize: Hashable {
        let points: String
        let scale: Int
        /// Pixels a side: 83.5 points at @2x are 167.
        var pixels: Int { Int((Double(points)! * Double(scale)).rounded()) }
        var scaleText: String { "\(scale)x" }
        var sizeText: String { "\(points)x\(points)" }
        /// `20@2x`, `1024`.
        var fileStem: String { points + (scale == 1 ? "" : "@\(scale)x") }
    }

    /// Xcode 14+'s "All Sizes" list (universal, iOS).
    static let allSizes: [PointSize] = [
        ("20", 2), ("20", 3), ("29", 2), ("29", 3), ("38", 2), ("38", 3), ("40", 2), ("40", 3), ("60", 2), ("60", 3),
        ("64", 2), ("64", 3), ("68", 2), ("76", 2), ("83.5", 2), ("1024", 1),
    ].map { PointSize(points: $0.0, scale: $0.1) }

    /// Xcode 13's slots: iPhone, iPad, and the App Store's `ios-marketing`.
    static let legacySlots: [(idiom: String, size: PointSize)] = [
        ("iphone", "20", 2), ("iphone", "20", 3), ("iphone", "29", 2), ("iphone", "29", 3), ("iphone", "40", 2),
        ("iphone", "40", 3), ("iphone", "60", 2), ("iphone", "60", 3),
        ("ipad", "20", 1), ("ipad", "20", 2), ("ipad", "29", 1), ("ipad", "29", 2), ("ipad", "40", 1), ("ipad", "40", 2),
        ("ipad", "76", 1), ("ipad", "76", 2), ("ipad", "83.5", 2),
        ("ios-marketing", "1024", 1),
    ].map { ($0.0, PointSize(points: $0.1, scale: $0.2)) }

    /// The appearances of the single-size and all-sizes layouts: any (nil), dark, tinted. The
    /// dark slot stays empty without `--dark` (the system then uses the light icon), as Xcode
    /// lists an empty slot; the tinted one is the master in grey without `--tinted`.
    static func appearances(_ set: IconSet) -> [(name: String?, role: IconArtRole, filled: Bool)] {
        [(nil, .light, true), ("dark", .dark, set.sources[.dark] != nil), ("tinted", .tinted, true)]
    }

    static func ios(_ set: IconSet) -> [IconFile] {
        var files: [IconFile] = []
        var slots: [AssetCatalogIcons.Slot] = []
        func picture(_ size: PointSize, _ role: IconArtRole) -> IconFile.Content {
            // Every iOS icon of the light appearance is opaque RGB: App Store Connect refuses an
            // alpha channel in the App Store icon (ITMS-90717), and iOS draws any transparency
            // black. Dark and tinted icons may be transparent: iOS draws them on its own
            // background.
            role == .light ? .png(IconPicture(size: size.pixels, look: .art(.light, opaque: true)), storage: .rgb)
                : .png(IconPicture(size: size.pixels, look: .art(role, opaque: false)), storage: .smallest)
        }
        switch set.iosLayout {
        case .single, .allSizes:
            let sizes = set.iosLayout == .single ? [PointSize(points: "1024", scale: 1)] : allSizes
            for size in sizes {
                for appearance in appearances(set) {
                    let name = "AppIcon" + (appearance.name.map { "-" + $0 } ?? "") + "-\(size.fileStem).png"
                    if appearance.filled { files.append(IconFile(path: iosFolder + name, content: picture(size, appearance.role))) }
                    slots.append(.init(appearance: appearance.name, filename: appearance.filled ? name : nil, idiom: "universal",
                                       platform: "ios", scale: set.iosLayout == .single ? nil : size.scaleText, size: size.sizeText))
                }
            }
        case .legacy:
            for slot in legacySlots {
                let name = "AppIcon-\(slot.size.fileStem).png"
                // iPhone and iPad slots of one size and scale share a file.
                if !files.contains(where: { $0.path == iosFolder + name }) {
                    files.append(IconFile(path: iosFolder + name, content: picture(slot.size, .light)))
                }
                slots.append(.init(filename: name, idiom: slot.idiom, scale: slot.size.scaleText, size: slot.size.sizeText))
            }
        }
        files.append(IconFile(path: iosFolder + "Contents.json", content: .text(AssetCatalogIcons.contents(slots), format: "json")))
        return files
    }

    /// macOS sizes in points; each at @1x and @2x.
    static let macSizes = [16, 32, 128, 256, 512]

    /// The `.icns` entries: PNG data under the OSTypes of macOS 10.8 and later, in this order.
    static let icnsTypes: [(type: String, pixels: Int)] = [
        ("icp4", 16), ("icp5", 32), ("ic11", 32), ("ic12", 64), ("ic07", 128),
        ("ic13", 256), ("ic08", 256), ("ic14", 512), ("ic09", 512), ("ic10", 1024),
    ]

    static func macPicture(_ set: IconSet, pixels: Int) -> IconPicture {
        IconPicture(size: pixels, look: set.macosStyle == .grid ? .macGrid : .art(.light, opaque: false))
    }

    static func macos(_ set: IconSet) -> [IconFile] {
        var files: [IconFile] = []
        var slots: [AssetCatalogIcons.Slot] = []
        for points in macSizes {
            for scale in [1, 2] {
                // iconutil's names, which Xcode also accepts.
                let name = "icon_\(points)x\(points)" + (scale == 2 ? "@2x" : "") + ".png"
                files.append(IconFile(path: macFolder + name, content: .png(macPicture(set, pixels: points * scale), storage: .smallest)))
                slots.append(.init(filename: name, idiom: "mac", scale: "\(scale)x", size: "\(points)x\(points)"))
            }
        }
        files.append(IconFile(path: macFolder + "Contents.json", content: .text(AssetCatalogIcons.contents(slots), format: "json")))
        files.append(IconFile(path: "macos/AppIcon.icns",
                              content: .icns(icnsTypes.map { ICNSEntry(type: $0.type, picture: macPicture(set, pixels: $0.pixels)) })))
        return files
    }
}
