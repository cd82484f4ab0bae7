import ThumbKit

/// `thumbgen [options] INPUT...`: the main job, thumbnails of files.
struct ThumbnailCommand: Command {
    let name = ""

    static let options: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "DIR", help: "Write thumbnails under DIR (default thumbnails/)."),
        OptionSpec("size", short: "s", value: "SIZE", help: "The box: N or WxH, optionally with > < ! ^ (default 128)."),
        OptionSpec("enlarge", help: "Allow output larger than the source."),
        OptionSpec("color-type", value: "TYPE", help: "PNG colour type: auto (smallest lossless) or rgba (always 8-bit RGBA)."),
        CommonOptions.maxPixels,
        CommonOptions.maxFileBytes,
    ]

    var help: HelpText {
        HelpText(
            overview: "Make PNG thumbnails of images.",
            usage: ["thumbgen [options] INPUT..."],
            arguments: [("INPUT", "PNG files.")],
            options: Self.options + [OptionSpec("version", help: "Show the version.")],
            footer: """
            Output is always PNG, 8 bits per channel, with the smallest lossless colour type;
            use --color-type rgba to force 8-bit RGBA. Same input and options give the same bytes.
            """)
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no input files given") }
        let outputDirectory = arguments.value("output") ?? "thumbnails"
        let box = try arguments.value("size", default: 128, expected: "N or WxH") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let encoder = PNGEncoder(colorType: try arguments.value("color-type", default: .automatic,
                                                                expected: "auto or rgba") { PNGEncoder.ColorTypeChoice(rawValue: $0) })
        let limits = try CommonOptions.limits(arguments)
        var status = ExitCode.success
        for path in arguments.positionals {
            do {
                let image = try PNGDecoder.decode(path: path, limits: limits)
                guard image.width <= box && image.height <= box else {
                    console.fail(path, "scaling is not available yet")
                    status = .failure
                    continue
                }
                let bytes = try encoder.encode(image.converted8())
                try AtomicFile.write(bytes, to: outputDirectory + "/" + OutputName.baseName(path) + ".png")
            } catch let error as any ThumbKitError {
                console.fail(path, error.message)
                status = .failure
            } catch {
                console.fail(path, "\(error)")
                status = .failure
            }
        }
        return status
    }
}

enum OutputName {
    /// The file name without directories and without its last extension.
    static func baseName(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
