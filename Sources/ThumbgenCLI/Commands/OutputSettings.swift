import ThumbKit

/// The output format options of the thumbnail command, and the name format and extension they
/// give: `--format`, or else the extension `--name` ends in, or else PNG.
struct OutputSettings: Equatable {
    static let options: [OptionSpec] = [
        OptionSpec("format", value: "FMT",
                   help: "png (default), jpeg or webp; a --name ending in .png, .jpg, .jpeg or .webp also sets it."),
        OptionSpec("quality", value: "Q", help: "JPEG or WebP quality 1-100 (defaults: jpeg 85, webp 80; lossless WebP: effort)."),
        OptionSpec("lossless", help: "Lossless WebP."),
        OptionSpec("progressive", help: "Progressive JPEG."),
        OptionSpec("chroma", value: "420|444", help: "JPEG chroma subsampling: 420 (default) or 444 (sharper colour edges)."),
    ]

    /// The format with its settings.
    var format: OutputFormat
    /// The name format without its extension (`--name`, default `%s`).
    var nameFormat: String
    /// The extension outputs get, as `--name` spelt it or the format's own.
    var fileExtension: String

    /// The settings `--format` and the extension of `nameOption`'s value (`--name`; the sheet
    /// command's `--output`) give.
    init(_ arguments: ParsedArguments, nameOption: String = "name", defaultName: String = "%s") throws(UsageError) {
        var nameFormat = arguments.value(nameOption) ?? defaultName
        var namedExtension: String?
        if let split = OutputNaming.splitImageExtension(nameFormat) {
            (nameFormat, namedExtension) = (split.format, split.fileExtension)
        }
        let namedFormat = namedExtension.flatMap { OutputFormat.extensions[$0.lowercased()] }
        var format = OutputFormat.png
        if let text = arguments.value("format") {
            guard let given = OutputFormat(name: text.lowercased()) else { throw .invalidValue("format", text, expected: "png, jpeg or webp") }
            if let namedFormat, namedFormat != given.name {
                throw UsageError("--\(nameOption) \(arguments.value(nameOption)!) ends in .\(namedExtension!), which is not --format \(text)")
            }
            format = given
        } else if let namedFormat {
            format = OutputFormat(name: namedFormat)!
        }
        format = try Self.applySettings(arguments, to: format)
        self.format = format
        self.nameFormat = nameFormat
        self.fileExtension = namedExtension ?? format.fileExtension
    }

    /// `--quality`, `--lossless`, `--progressive`, `--chroma`, each refused for a format it does
    /// not apply to, so a mistyped command line does not silently make something else.
    private static func applySettings(_ arguments: ParsedArguments, to format: OutputFormat) throws(UsageError) -> OutputFormat {
        var quality: Int?
        if let text = arguments.value("quality") {
            guard let value = Int(text), (1...100).contains(value) else { throw .invalidValue("quality", text, expected: "a number from 1 to 100") }
            quality = value
        }
        let formatName = format.displayName
        func refuse(_ option: String, _ applies: String) throws(UsageError) {
            if arguments.has(option) || arguments.value(option) != nil {
                throw UsageError("--\(option) applies to \(applies) output, not \(formatName) (see --format)")
            }
        }
        switch format {
        case .png:
            try refuse("quality", "JPEG and WebP")
            try refuse("lossless", "WebP")
            try refuse("progressive", "JPEG")
            try refuse("chroma", "JPEG")
            return format
        case .jpeg(var jpeg):
            try refuse("lossless", "WebP")
            try refuse("color-type", "PNG")
            jpeg.quality = quality ?? jpeg.quality
            jpeg.progressive = arguments.has("progressive")
            jpeg.chroma = try arguments.value("chroma", default: .halved, expected: "420 or 444") {
                JPEGEncoder.Chroma(rawValue: String($0.filter { $0 != ":" }))
            }
            return .jpeg(jpeg)
        case .webp(var webp):
            try refuse("progressive", "JPEG")
            try refuse("chroma", "JPEG")
            try refuse("color-type", "PNG")
            webp.quality = quality ?? webp.quality
            webp.lossless = arguments.has("lossless")
            return .webp(webp)
        }
    }
}
