/// Everything to make of one master image for app and web icons: which platforms, how each is
/// drawn, and the extra images that stand in for the master (a dark variant, Android's layers,
/// hand-drawn small sizes). `files` names every file before anything is drawn, so a batch can plan
/// them, find them up to date in its manifest and prune what a set no longer makes.
///
/// ```swift
/// var set = IconSet(platforms: [.ios, .web])
/// set.iconBackground = Color(red: 0x1e, green: 0x88, blue: 0xe5)
/// let files = try IconRenderer(set: set).render(master: .file("icon.png"))
/// ```
///
/// The art is the master (or a stand-in), trimmed to the bounds of its visible pixels with
/// `fitContent`, fitted inside each platform's content area less `padding`, and drawn with
/// thumbgen's own resampler in linear light. Where a platform forbids transparency (the iOS icons,
/// apple-touch-icon, maskable web icons, Android's legacy icons and Play Store icon), it is drawn
/// on `iconBackground` (white unless given; the iOS icon has no default: see `IconError`).
public struct IconSet: Sendable, Hashable {
    /// The platforms, each once, in `IconPlatform`'s order.
    public var platforms: [IconPlatform]
    /// The iOS asset catalog's layout.
    public var iosLayout: IconSet.IOSLayout = .single
    /// How the macOS icon is drawn.
    public var macosStyle: IconSet.MacStyle = .grid
    /// What transparent art is drawn on where a platform forbids alpha (opaque). Nil: white,
    /// except for the iOS App Store icon, where art with transparency is then an error.
    public var iconBackground: Color?
    /// Space left around the art inside each platform's content area, in percent of that area's
    /// side on each side (0 up to 40).
    public var padding: Double = 0
    /// Trim the art to the bounds of its visible pixels (alpha above 0) before fitting it, and fit
    /// round safe zones (Android's adaptive layers, maskable web icons) by the art's own extent
    /// from its centre rather than by its corners.
    public var fitContent: Bool = false
    /// The icon's name: Linux's `NAME.png`, and `name`/`short_name` of a site.webmanifest thumbgen
    /// creates. Letters, digits, `.`, `_` and `-`.
    public var name: String = "app"
    /// What the web files' URLs start with in site.webmanifest and icons.html (default `/`, the
    /// site's root): the folder the `web/` files are served from.
    public var webPrefix: String = "/"
    /// Stand-ins for the master, by role.
    public var sources: [IconSet.SourceRole: IconSet.Source] = [:]
    /// Android's adaptive icon background as a colour (`--background RRGGBB`): written as a colour
    /// resource instead of a picture. Ignored when `sources[.background]` is given.
    public var androidBackgroundColor: Color?
    /// Hand-drawn art for small sizes: an output of S pixels takes the source of the smallest
    /// size at or above S, if any, in place of the master.
    public var sizeSources: [Int: IconSet.Source] = [:]
    /// Decoder limits for the master and every stand-in; not part of the description.
    public var limits: DecodeLimits = .default

    /// A set for `platforms` with the defaults: single-size iOS icons, the macOS grid, no padding.
    public init(platforms: [IconPlatform] = IconPlatform.allCases) {
        self.platforms = Array(Set(platforms)).sorted()
    }

    /// The most padding a set may have, in percent of each side.
    public static let maximumPadding = 40.0

    /// Every file the set makes, in a fixed order: by platform, then as each platform lists them.
    package var files: [IconFile] {
        platforms.flatMap { platform -> [IconFile] in
            switch platform {
            case .ios: return AppleIconFiles.ios(self)
            case .macos: return AppleIconFiles.macos(self)
            case .android: return AndroidIconFiles.files(self)
            case .web: return WebIconFiles.files(self)
            case .windows: return DesktopIconFiles.windows(self)
            case .linux: return DesktopIconFiles.linux(self)
            }
        }
    }

    /// True when `name` is a usable icon name.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// True when `prefix` can start the web files' URLs: `/`, `./`, `/static/icons/`, or an
    /// absolute URL, ending in `/`, without quotes, spaces, `<`, `>` or `;`.
    public static func isValidWebPrefix(_ prefix: String) -> Bool {
        prefix.hasSuffix("/") && prefix.utf8.count <= 500
            && prefix.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"\"'<>;\\`".unicodeScalars.contains($0) }
    }

    /// Every setting that affects any file, in a fixed order, with each extra source's path
    /// (relative to the manifest's folder) and SHA-256: what the manifest records for every file
    /// of the set, so editing a stand-in or an option rebuilds them. Starts with `icons=1`.
    public var canonicalDescription: String {
        var fields = [
            "icons=1",
            "platforms=" + platforms.map(\.rawValue).joined(separator: ","),
            "ios-layout=\(iosLayout.rawValue)",
            "macos-style=\(macosStyle.rawValue)",
            "icon-background=\(iconBackground?.description ?? "none")",
            "padding=\(padding)",
            "fit-content=\(fitContent ? "on" : "off")",
            "name=\(name)",
            "web-prefix=\(webPrefix)",
            "android-background=\(androidBackgroundColor?.description ?? "none")",
        ]
        for role in IconSet.SourceRole.allCases { if let source = sources[role] { fields.append("\(role.rawValue)=\(source.field)") } }
        for size in sizeSources.keys.sorted() { fields.append("size-\(size)=\(sizeSources[size]!.field)") }
        fields.append("libraries=\(CodecVersions.field)")
        return fields.joined(separator: ";")
    }

    /// True when a recorded settings description is an icon set's.
    package static func describes(_ text: String) -> Bool { text.hasPrefix("icons=1;") }

    /// Rebuilds a set from `canonicalDescription` (as a manifest records it), its sources' paths
    /// resolved against `directory` (the manifest's folder), so `thumbgen check` can make it again.
    package init(canonicalDescription text: String, relativeTo directory: FilePath) throws(ThumbnailSettingsError) {
        var fields: [String: String] = [:]
        for item in text.split(separator: ";") {
            guard let equals = item.firstIndex(of: "=") else { throw ThumbnailSettingsError(text: text, field: String(item)) }
            fields[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        func field<T>(_ name: String, _ convert: (String) -> T?) throws(ThumbnailSettingsError) -> T {
            guard let value = fields[name], let converted = convert(value) else { throw ThumbnailSettingsError(text: text, field: name) }
            return converted
        }
        func color(_ name: String) throws(ThumbnailSettingsError) -> Color? {
            let value: String = try field(name) { $0 }
            if value == "none" { return nil }
            guard let parsed = try? Color(hex: value) else { throw ThumbnailSettingsError(text: text, field: name) }
            return parsed
        }
        guard fields["icons"] == "1" else { throw ThumbnailSettingsError(text: text, field: "icons") }
        let platforms: [IconPlatform] = try field("platforms") { list in
            let parsed = list.split(separator: ",").map { IconPlatform(rawValue: String($0)) }
            return parsed.allSatisfy { $0 != nil } && !parsed.isEmpty ? parsed.compactMap { $0 } : nil
        }
        self.init(platforms: platforms)
        iosLayout = try field("ios-layout") { IconSet.IOSLayout(rawValue: $0) }
        macosStyle = try field("macos-style") { IconSet.MacStyle(rawValue: $0) }
        iconBackground = try color("icon-background")
        padding = try field("padding") { Double($0).flatMap { (0...Self.maximumPadding).contains($0) ? $0 : nil } }
        fitContent = try field("fit-content") { ["on": true, "off": false][$0] }
        name = try field("name") { Self.isValidName($0) ? $0 : nil }
        webPrefix = try field("web-prefix") { Self.isValidWebPrefix($0) ? $0 : nil }
        androidBackgroundColor = try color("android-background")
        for role in IconSet.SourceRole.allCases where fields[role.rawValue] != nil {
            sources[role] = try field(role.rawValue) { IconSet.Source(field: $0, relativeTo: directory) }
        }
        for (key, value) in fields where key.hasPrefix("size-") {
            guard let size = Int(key.dropFirst(5)), let source = IconSet.Source(field: value, relativeTo: directory) else {
                throw ThumbnailSettingsError(text: text, field: key)
            }
            sizeSources[size] = source
        }
    }
}

extension IconSet {
    /// What an extra source stands in for.
    public enum SourceRole: String, Sendable, Hashable, CaseIterable {
        /// The iOS dark appearance (`--dark`).
        case dark
        /// The iOS tinted appearance (`--tinted`); without it, the master in grey.
        case tinted
        /// Android's adaptive foreground layer (`--foreground`); without it, the master.
        case foreground
        /// Android's adaptive background layer as a picture (`--background FILE`).
        case background
        /// Android 13's themed-icon layer (`--monochrome`); without it, the foreground's shape.
        case monochrome
        /// The web's maskable icon, full bleed (`--maskable`); without it, the master in the safe zone.
        case maskable
    }
}
