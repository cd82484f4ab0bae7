import ThumbKit

/// The output format options of the thumbnail command, and the name format and extension they
/// give: `--format` (one format or a list), or else the extension `--name` ends in, or else PNG.
struct OutputSettings: Equatable {
    static let options: [OptionSpec] = [
        OptionSpec("format", value: "LIST",
                   help: "png (default), jpeg, webp or avif, or a list (avif,webp,jpeg): every output in each; a --name ending in .png, .jpg, .webp or .avif also sets one."),
        OptionSpec("quality", value: "Q", help: "JPEG, WebP and AVIF quality 1-100 (defaults: jpeg 85, webp 80, avif 50; lossless WebP: effort), or per format: avif=45,webp=75,jpeg=82."),
        OptionSpec("effort", value: "0-9", help: "AVIF encoder effort: 0 fastest ... 9 smallest files (default 4, libaom speed 5)."),
        OptionSpec("lossless", help: "Lossless WebP."),
        OptionSpec("progressive", help: "Progressive JPEG."),
        OptionSpec("chroma", value: "420|444", choices: ["420", "444"], help: "JPEG and AVIF chroma subsampling: 420 (default) or 444 (sharper colour edges)."),
    ]

    /// The formats with their settings, in the order given, each once.
    var formats: [OutputFormat]
    /// The name format without its extension (`--name`, default `%s`).
    var nameFormat: String
    /// The extension `--name` spelt (`JPG`), which then is the one format's; nil: each format's own.
    var fileExtension: String?

    /// The first format (commands that write one: the sheet).
    var format: OutputFormat { formats[0] }

    /// The settings `--format` and the extension of `nameOption`'s value (`--name`; the sheet
    /// command's `--output`) give. `allowsList` false: one format only.
    init(_ arguments: ParsedArguments, nameOption: String = "name", defaultName: String = "%s",
         allowsList: Bool = false) throws(UsageError) {
        var nameFormat = arguments.value(nameOption) ?? defaultName
        var namedExtension: String?
        if let split = OutputNaming.splitImageExtension(nameFormat) {
            (nameFormat, namedExtension) = (split.format, split.fileExtension)
        }
        let namedFormat = namedExtension.flatMap { OutputFormat.extensions[$0.lowercased()] }
        var formats: [OutputFormat] = []
        if let text = arguments.value("format") {
            let names = text.lowercased().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let expected = allowsList ? "png, jpeg, webp or avif, or a list of them (avif,webp,jpeg)" : "png, jpeg, webp or avif"
            guard allowsList || names.count == 1 else { throw .invalidValue("format", text, expected: expected) }
            for name in names {
                guard let given = OutputFormat(name: name) else { throw .invalidValue("format", text, expected: expected) }
                guard !formats.contains(where: { $0.name == given.name }) else {
                    throw UsageError("--format \(text) names \(given.name) twice")
                }
                formats.append(given)
            }
            if let namedFormat {
                guard formats.count == 1, namedFormat == formats[0].name else {
                    throw UsageError("--\(nameOption) \(arguments.value(nameOption)!) ends in .\(namedExtension!), which is not --format \(text)")
                }
            }
        } else if let namedFormat {
            formats = [OutputFormat(name: namedFormat)!]
        } else {
            formats = [.png]
        }
        self.formats = try Self.applySettings(arguments, to: formats)
        self.nameFormat = nameFormat
        self.fileExtension = namedExtension
    }

    /// `--quality`, `--lossless`, `--progressive`, `--chroma`, `--color-type`, each refused when no
    /// format it applies to is written, so a mistyped command line does not silently make
    /// something else.
    private static func applySettings(_ arguments: ParsedArguments, to formats: [OutputFormat]) throws(UsageError) -> [OutputFormat] {
        let names = formats.map(\.name)
        let formatNames = formats.map(\.displayName).joined(separator: ", ")
        func refuse(_ option: String, unless format: String, _ applies: String) throws(UsageError) {
            if !names.contains(format) && (arguments.has(option) || arguments.value(option) != nil) {
                throw UsageError("--\(option) applies to \(applies) output, not \(formatNames) (see --format)")
            }
        }
        try refuse("lossless", unless: "webp", "WebP")
        try refuse("progressive", unless: "jpeg", "JPEG")
        if !names.contains("jpeg") && !names.contains("avif") && arguments.value("chroma") != nil {
            throw UsageError("--chroma applies to JPEG and AVIF output, not \(formatNames) (see --format)")
        }
        try refuse("effort", unless: "avif", "AVIF")
        try refuse("color-type", unless: "png", "PNG")
        let qualities = try quality(arguments, formats: names)
        if !qualities.isEmpty && !names.contains(where: { $0 == "jpeg" || $0 == "webp" || $0 == "avif" }) {
            throw UsageError("--quality applies to JPEG, WebP and AVIF output, not \(formatNames) (see --format)")
        }
        let chroma = try arguments.value("chroma", default: JPEGEncoder.Chroma.halved, expected: "420 or 444") {
            JPEGEncoder.Chroma(rawValue: String($0.filter { $0 != ":" }))
        }
        let effort = try arguments.value("effort", default: AVIFEncoder.defaultEffort, expected: "a number from 0 to 9") {
            Int($0).flatMap { (0...AVIFEncoder.maximumEffort).contains($0) ? $0 : nil }
        }
        return formats.map { format in
            switch format {
            case .png:
                return format
            case .jpeg(var jpeg):
                jpeg.quality = qualities["jpeg"] ?? jpeg.quality
                jpeg.progressive = arguments.has("progressive")
                jpeg.chroma = chroma
                return .jpeg(jpeg)
            case .webp(var webp):
                webp.quality = qualities["webp"] ?? webp.quality
                webp.lossless = arguments.has("lossless")
                return .webp(webp)
            case .avif(var avif):
                avif.quality = qualities["avif"] ?? avif.quality
                avif.effort = effort
                avif.chroma = chroma == .full ? .full : .halved
                return .avif(avif)
            }
        }
    }

    /// `--quality 80` (every lossy format written) or `--quality webp=75,jpeg=82`, by format name.
    private static func quality(_ arguments: ParsedArguments, formats: [String]) throws(UsageError) -> [String: Int] {
        guard let text = arguments.value("quality") else { return [:] }
        let expected = "a number from 1 to 100, or FORMAT=Q pairs such as avif=45,webp=75,jpeg=82"
        if let value = Int(text) {
            guard (1...100).contains(value) else { throw .invalidValue("quality", text, expected: expected) }
            return ["jpeg": value, "webp": value, "avif": value]
        }
        var qualities: [String: Int] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let format = OutputFormat(name: parts[0].lowercased()), format.name != "png",
                  let value = Int(parts[1]), (1...100).contains(value) else {
                throw .invalidValue("quality", text, expected: expected)
            }
            guard formats.contains(format.name) else {
                throw UsageError("--quality \(text) sets \(format.displayName), which --format does not write")
            }
            qualities[format.name] = value
        }
        return qualities
    }
}
