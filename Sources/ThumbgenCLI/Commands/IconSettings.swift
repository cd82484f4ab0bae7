import ThumbKit

/// The options of `thumbgen icons` that describe the set (what a project's `icons` group gives
/// too), and how they become an `IconSet`.
enum IconSettings {
    static let options: [OptionSpec] = [
        OptionSpec("platforms", value: "LIST", help: "ios, macos, android, web, windows and/or linux (default all)."),
        OptionSpec("ios-layout", value: "LAYOUT",
                   help: "single (Xcode 14+: one 1024 image per appearance, default), all-sizes (Xcode 14+'s All Sizes) or legacy (Xcode 13's iPhone/iPad slots)."),
        OptionSpec("macos-style", value: "STYLE",
                   help: "grid (macOS 11+: the art on Apple's 824/1024 rounded body with its shadow, default) or full (the art full bleed)."),
        OptionSpec("dark", value: "FILE", help: "The iOS dark appearance (transparency allowed); without it the slot stays empty."),
        OptionSpec("tinted", value: "FILE", help: "The iOS tinted appearance (default: the master in grey, in linear light)."),
        OptionSpec("foreground", value: "FILE", help: "Android's adaptive foreground layer, 108 dp full bleed (default: the master inside the 66 dp safe circle)."),
        OptionSpec("background", value: "FILE|COLOR", help: "Android's adaptive background: a 108 dp layer, or RRGGBB (default: --icon-background, else white)."),
        OptionSpec("monochrome", value: "FILE", help: "Android 13's themed-icon layer, 108 dp (default: the foreground's shape)."),
        OptionSpec("maskable", value: "FILE", help: "The web's maskable icon, full bleed (default: the master inside the circle of radius 0.4)."),
        OptionSpec("icon-background", value: "COLOR",
                   help: "RRGGBB that transparent art is drawn on where a platform forbids alpha (default white; the iOS icons need it then)."),
        OptionSpec("padding", value: "PERCENT", help: "Space around the art inside each platform's content area, per side (0 to 40, default 0)."),
        OptionSpec("fit-content", help: "Trim the art to its visible pixels and fit that into each platform's content area and safe zone."),
        OptionSpec("size-source", value: "LIST", help: "Hand-drawn art for small sizes, e.g. 16=icon16.png,32=icon32.png: an icon of N px or less takes the smallest that fits."),
        OptionSpec("name", value: "NAME", help: "The icon's name: Linux's NAME.png, a new site.webmanifest's name (default: the master's name)."),
        OptionSpec("web-prefix", value: "URL", help: "What the web files' URLs start with in site.webmanifest and icons.html (default /)."),
    ]

    /// Options that only mean something for one platform.
    static let platformOptions: [(option: String, platform: IconPlatform)] = [
        ("ios-layout", .ios), ("dark", .ios), ("tinted", .ios), ("macos-style", .macos), ("foreground", .android),
        ("background", .android), ("monochrome", .android), ("maskable", .web), ("web-prefix", .web),
    ]

    /// The set the options describe for `master`. Extra sources are read and hashed here (a file
    /// that cannot be read is a usage error naming its option); `resolve` maps a path as given to
    /// one to open (a project's are relative to its file), and paths are recorded relative to
    /// `manifestDirectory`.
    static func iconSet(_ arguments: ParsedArguments, master: FilePath, manifestDirectory: FilePath,
                        resolve: (FilePath) -> FilePath = { $0 }) throws(UsageError) -> IconSet {
        let platforms = try arguments.value("platforms", default: IconPlatform.allCases,
                                            expected: "a list of ios, macos, android, web, windows, linux") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { IconPlatform(rawValue: String($0)) }
            return parts.allSatisfy { $0 != nil } ? parts.compactMap { $0 } : nil
        }
        var set = IconSet(platforms: platforms)
        for (option, platform) in platformOptions where !set.platforms.contains(platform) && arguments.value(option) != nil {
            throw UsageError("--\(option) applies to the \(platform.rawValue) icons, which --platforms leaves out")
        }
        set.iosLayout = try arguments.value("ios-layout", default: .single, expected: "single, all-sizes or legacy") { IconSet.IOSLayout(rawValue: $0) }
        set.macosStyle = try arguments.value("macos-style", default: .grid, expected: "grid or full") { IconSet.MacStyle(rawValue: $0) }
        set.iconBackground = try arguments.optionalValue("icon-background", expected: "an opaque RRGGBB colour") { opaqueColor($0) }
        set.padding = try arguments.value("padding", default: 0, expected: "a percentage from 0 to 40") { text in
            Double(text.hasSuffix("%") ? String(text.dropLast()) : text).flatMap { $0.isFinite && (0...IconSet.maximumPadding).contains($0) ? $0 : nil }
        }
        set.fitContent = arguments.has("fit-content")
        let stem = master.lastComponent.string.map { name in name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name } ?? ""
        set.name = try arguments.value("name", default: IconSet.isValidName(stem) ? stem : "app",
                                       expected: "letters, digits, '.', '_' and '-', not starting with '.'") { IconSet.isValidName($0) ? $0 : nil }
        set.webPrefix = try arguments.value("web-prefix", default: "/", expected: "a URL path ending in '/', e.g. / or /static/icons/") {
            IconSet.isValidWebPrefix($0) ? $0 : nil
        }
        func source(_ option: String, _ path: FilePath) throws(UsageError) -> IconSet.Source {
            switch IconSet.Source.read(resolve(path), manifestDirectory: manifestDirectory) {
            case .success(let source): return source
            case .failure(let failure): throw UsageError("--\(option): cannot read \(path): \(failure.reason)")
            }
        }
        for role in IconSet.SourceRole.allCases {
            guard let path = arguments.path(role.rawValue), let text = arguments.value(role.rawValue) else { continue }
            if role == .background, let color = opaqueColor(text) {
                set.androidBackgroundColor = color
            } else {
                set.sources[role] = try source(role.rawValue, path)
            }
        }
        if let text = arguments.value("size-source") {
            let expected = "SIZE=FILE pairs such as 16=icon16.png,32=icon32.png (sizes 1 to 1024, each once)"
            for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let equals = pair.firstIndex(of: "="), let size = Int(pair[..<equals]), (1...1024).contains(size),
                      set.sizeSources[size] == nil, pair.index(after: equals) != pair.endIndex else {
                    throw .invalidValue("size-source", text, expected: expected)
                }
                set.sizeSources[size] = try source("size-source", FilePath(String(pair[pair.index(after: equals)...])))
            }
        }
        return set
    }

    /// `RRGGBB` (or `#RRGGBB`, or `RRGGBBff`), opaque; nil otherwise.
    static func opaqueColor(_ text: String) -> Color? {
        guard let color = try? Color(hex: text), color.alpha == 255 else { return nil }
        return color
    }
}
