import ThumbKit

/// `--metadata`, `--html`, `--sizes` and `--url-prefix`: per-source metadata and `<picture>`
/// markup for the outputs of a run, written from its manifest after the run (so outputs that were
/// already up to date are listed too). The library makes the documents; this only asks and writes.
struct WebSettings: Equatable {
    static let options: [OptionSpec] = [
        OptionSpec("metadata", value: "FILE", help: "Write per-source metadata to FILE.json: size, each format's variants (path, url, width, height, bytes) and srcset, placeholders."),
        OptionSpec("html", value: "FILE", help: "Write one <picture> per source to FILE: <source> per AVIF/WebP set, <img> fallback with width/height, lazy, async."),
        OptionSpec("sizes", value: "SIZES", help: "The sizes attribute of --html's <source> and <img> (default 100vw)."),
        OptionSpec("url-prefix", value: "PREFIX", help: "Prepended to each output's path below -o DIR in URLs and srcset, e.g. /img/ (default none: relative)."),
    ]

    var metadata: FilePath?
    var html: FilePath?
    var sizes: String
    var urlPrefix: String
    /// The settings of the group whose outputs are listed.
    var settings: Set<String> = []
    /// The group's output folder: URLs are paths below it.
    var outputDirectory: FilePath = "."

    /// Whether anything is to be written.
    var isEmpty: Bool { metadata == nil && html == nil }

    init(metadata: FilePath? = nil, html: FilePath? = nil, sizes: String = "100vw", urlPrefix: String = "") {
        self.metadata = metadata
        self.html = html
        self.sizes = sizes
        self.urlPrefix = urlPrefix
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(metadata: arguments.path("metadata"), html: arguments.path("html"),
                  sizes: arguments.value("sizes") ?? "100vw", urlPrefix: arguments.value("url-prefix") ?? "")
        if isEmpty {
            for option in ["sizes", "url-prefix"] where arguments.value(option) != nil {
                throw UsageError("--\(option) applies to --html and --metadata, and neither is given")
            }
        }
        if let sizes = arguments.value("sizes"), sizes.allSatisfy({ $0 == " " }) || sizes.contains("\"") {
            throw .invalidValue("sizes", sizes, expected: "a sizes list such as 100vw or (min-width: 800px) 50vw, 100vw")
        }
    }

    /// Writes the files (each atomically) from the manifest at `manifest`; a failure is one line
    /// naming the file.
    func write(manifest: FilePath) -> String? {
        guard !isEmpty else { return nil }
        let set: WebImageSet
        do { set = try WebImageSet.load(manifest: manifest, outputDirectory: outputDirectory, settings: settings, urlPrefix: urlPrefix) } catch { return error.message }
        for (path, bytes) in [(metadata, set.metadataJSON()), (html, PictureHTML(sizes: sizes).render(set))] {
            guard let path else { continue }
            do { try AtomicFile.write(bytes, to: path) } catch { return error.message }
        }
        return nil
    }
}
