/// A platform an icon set is made for, with its own folder in the output.
public enum IconPlatform: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `ios/AppIcon.appiconset`: Xcode's asset catalog of iOS app icons.
    case ios
    /// `macos/AppIcon.appiconset` and `macos/AppIcon.icns`.
    case macos
    /// `android/res/mipmap-*`, the adaptive icon's XML and layers, and `android/playstore-icon.png`.
    case android
    /// `web/`: favicon.ico, PNG favicons and app icons, site.webmanifest, icons.html.
    case web
    /// `windows/app.ico`.
    case windows
    /// `linux/hicolor/NxN/apps/NAME.png`.
    case linux

    /// Platforms in the order their files are planned and listed (the order of `allCases`).
    public static func < (a: IconPlatform, b: IconPlatform) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension IconSet {
    /// Which `Contents.json` layout the iOS app icon set has.
    public enum IOSLayout: String, Sendable, Hashable, CaseIterable {
        /// Xcode 14 and later's single size: one 1024×1024 image per appearance (any, dark, tinted),
        /// from which Xcode makes every other size.
        case single
        /// Xcode 14 and later's "All Sizes": every size iOS shows, universal, per appearance.
        case allSizes = "all-sizes"
        /// Xcode 13 and earlier: the iPhone, iPad and App Store (`ios-marketing`) slots, no appearances.
        case legacy
    }
}

extension IconSet {
    /// How the macOS icon is drawn.
    public enum MacStyle: String, Sendable, Hashable, CaseIterable {
        /// macOS 11 and later's icon grid: the art on a rounded body of 824×824 in 1024×1024 (corner
        /// radius 185.4, continuous corners), with a drop shadow in the gutter.
        case grid
        /// The art full bleed, as given (for art that already has its own shape and shadow).
        case full
    }
}
