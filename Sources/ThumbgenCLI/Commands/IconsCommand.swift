import ThumbKit

/// `thumbgen icons MASTER -o DIR`: app and web icon sets for iOS, macOS, Android, the web, Windows
/// and Linux from one master image, every file recorded in the manifest like thumbnails are
/// (incremental, `check`, `--prune`).
struct IconsCommand: Command {
    let name = "icons"
    let summary = "Make app and web icon sets from one master image."

    static let runOptions: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "DIR", help: "Write the platforms' folders into DIR (default icons/)."),
        OptionSpec("manifest", value: "FILE", help: "Keep the manifest in FILE instead of DIR/thumbgen-manifest.json."),
        OptionSpec("prune", help: "Remove the files the manifest lists that this set no longer makes (only files thumbgen wrote)."),
        OptionSpec("verbose", short: "v", help: "Print a line per master, and the summary."),
    ] + BuildCommand.options.filter { ["force", "no-fsync", "progress", "quiet", "summary"].contains($0.long) } + limitOptions

    /// The limits, which a project's icon groups take too.
    static let limitOptions = [CommonOptions.maxPixels, CommonOptions.maxFileBytes, CommonOptions.maxMemory]

    var help: HelpText {
        HelpText(
            overview: "Make app and web icon sets for iOS, macOS, Android, the web, Windows and Linux from one master image.",
            usage: ["thumbgen icons [options] MASTER [-o DIR]"],
            arguments: [("MASTER", "The icon's art: a square image of 1024 px or more (PNG, JPEG, WebP, GIF, TIFF, HEIF).")],
            options: IconSettings.options + Self.runOptions,
            footer: """
            Files, below DIR: ios/AppIcon.appiconset (Contents.json; the App Store icon is PNG colour type 2,
            never alpha: a transparent master needs --icon-background), macos/AppIcon.appiconset and
            macos/AppIcon.icns (PNG entries icp4 to ic10), android/res/mipmap-*/ic_launcher*.png with the
            adaptive icon's layers and XML and android/playstore-icon.png, web/ favicon.ico (48, 32, 16 as
            32-bit BMP), favicon-96x96.png, apple-touch-icon.png, icon-192/512.png (any) and
            icon-maskable-192/512.png, site.webmanifest (created, or its icons replaced), icons.html (the
            <link> tags), windows/app.ico (BMP 16-64, PNG 128 and 256), linux/hicolor/NxN/apps/NAME.png.
            The manifest records every file: a rerun makes only what changed, thumbgen check DIR verifies
            them, --prune removes what the set no longer makes. Exit status: 0 done, 1 the master
            failed, 64 usage error.
            """,
            examples: [("thumbgen icons logo.png -o icons", "Every platform's icon set from one master."), ("thumbgen icons logo.png --platforms ios,web -o icons", "Only the iOS and web sets.")])
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "no master image given" : "icons takes one master image")
        }
        let master = arguments.positionalPaths[0]
        let outputDirectory = arguments.path("output") ?? "icons"
        let manifestPath = arguments.path("manifest") ?? outputDirectory.appending(FilePath("thumbgen-manifest.json"))
        var set = try IconSettings.iconSet(arguments, master: master, manifestDirectory: manifestPath.directory)
        set.limits = try CommonOptions.limits(arguments, jobs: 1)
        var group = OutputGroup(iconsOf: master, set: set, outputDirectory: outputDirectory)
        // The batch's renderer takes its limits from the group's thumbnail options.
        group.thumbnailSet.options.limits = set.limits
        var configuration = BatchConfiguration(groups: [group], manifestPath: manifestPath, jobs: 1)
        configuration.limits = set.limits
        configuration.force = arguments.has("force")
        configuration.sync = !arguments.has("no-fsync")
        configuration.prune = arguments.has("prune") ? .notPlanned : nil
        return try ThumbnailCommand.run(configuration, arguments: arguments, console: console)
    }
}
