/// Per-source web metadata and `<picture>` HTML, made from a manifest's entries: what a page needs
/// to show a set of widths in several formats (eleventy-img's metadata is the model).
///
/// Deterministic: sources sorted by path (byte-wise), each format's variants by width, formats in
/// a fixed order (avif, webp, jpeg, png); nothing depends on the run's job count or on time.
package struct WebImageSet: Sendable, Equatable {
    /// One output file of a source.
    package struct Variant: Sendable, Equatable {
        /// Path relative to the manifest's folder.
        package var path: String
        /// `urlPrefix` + the path below the output folder, percent-encoded where a URL or a
        /// `srcset` needs it.
        package var url: String
        package var width: Int
        package var height: Int
        /// The file's size in bytes.
        package var bytes: Int
    }

    /// Everything made of one source.
    package struct Source: Sendable, Equatable {
        /// The source's path relative to the manifest's folder.
        package var path: String
        /// The source's upright size, when the manifest recorded it (sets named by width).
        package var width: Int?
        package var height: Int?
        /// Variants by format name, each ascending by width, one per width.
        package var formats: [String: [Variant]]
        /// Placeholders by kind.
        package var placeholders: [String: String]
    }

    /// The order formats are offered in: the smallest files first, the fallback last.
    package static let formatOrder = ["avif", "webp", "jpeg", "png"]
    /// The formats a browser may lack, each a `<source>`; the others are `<img>` fallbacks.
    package static let modernFormats: Set<String> = ["avif", "webp"]

    package var sources: [Source]
    /// Prepended to every path to make its URL (`/img/`, `https://cdn.example/`).
    package var urlPrefix: String

    /// The set of the entries recorded with one of `settings` (the groups of this run; older
    /// entries of other settings are left out), image outputs only. URLs are `urlPrefix` and the
    /// path below `urlBase` (the output folder, relative to the manifest's). `fileSize` gives a
    /// file's bytes from its path relative to the manifest's folder (nil: the file is gone, left out).
    package init(entries: [ManifestEntry], settings: Set<String>, urlPrefix: String, urlBase: FilePath, fileSize: (FilePath) -> Int?) {
        self.urlPrefix = urlPrefix
        var bySource: [FilePath: Source] = [:]
        for entry in entries where settings.contains(entry.settings) && entry.iconFile == nil {
            guard let bytes = fileSize(entry.output) else { continue }
            let path = entry.output.description
            let below = entry.output.relative(from: urlBase).description
            let variant = Variant(path: path, url: urlPrefix + Self.urlEncoded(below), width: entry.width, height: entry.height, bytes: bytes)
            var source = bySource[entry.source] ?? Source(path: entry.source.description, width: entry.sourceWidth, height: entry.sourceHeight,
                                                          formats: [:], placeholders: [:])
            if !source.formats[entry.format, default: []].contains(where: { $0.width == variant.width }) {
                source.formats[entry.format, default: []].append(variant)
            }
            for (key, value) in entry.placeholders ?? [:] { source.placeholders[key] = value }
            bySource[entry.source] = source
        }
        sources = bySource.keys.sorted().map { key in
            var source = bySource[key]!
            for name in source.formats.keys {
                source.formats[name]!.sort { ($0.width, $0.path) < ($1.width, $1.path) }
            }
            return source
        }
    }

    /// A format's `srcset`: each variant's URL and width descriptor, narrowest first.
    package static func srcset(_ variants: [Variant]) -> String {
        variants.map { "\($0.url) \($0.width)w" }.joined(separator: ", ")
    }

    /// The MIME type of a format name.
    package static func mimeType(_ format: String) -> String {
        switch format {
        case "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        default: return "application/octet-stream"
        }
    }

    /// A path as a URL path: bytes other than unreserved characters (RFC 3986 §2.3) and `/` are
    /// percent-encoded, so spaces, commas (which would split a `srcset`) and non-ASCII names work.
    package static func urlEncoded(_ path: String) -> String {
        var out = ""
        let hex = Array("0123456789ABCDEF")
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// The formats a source has, in `formatOrder`.
    package static func orderedFormats(_ source: Source) -> [String] {
        formatOrder.filter { source.formats[$0] != nil } + source.formats.keys.filter { !formatOrder.contains($0) }.sorted()
    }

    /// The metadata document: `{"sources": [{"source", "width", "height", "formats": {name:
    /// {"type", "srcset", "variants": [{"path", "url", "width", "height", "bytes"}]}},
    /// "placeholders": {…}}]}`, written with sorted keys and a final newline.
    package func metadataJSON() -> [UInt8] {
        let sources: [JSONValue] = sources.map { source in
            var members: [String: JSONValue] = ["source": .string(source.path)]
            if let width = source.width, let height = source.height {
                members["width"] = .integer(Int64(width))
                members["height"] = .integer(Int64(height))
            }
            var formats: [String: JSONValue] = [:]
            for (name, variants) in source.formats {
                formats[name] = .object([
                    "type": .string(Self.mimeType(name)),
                    "srcset": .string(Self.srcset(variants)),
                    "variants": .array(variants.map { variant in
                        .object(["path": .string(variant.path), "url": .string(variant.url), "width": .integer(Int64(variant.width)),
                                 "height": .integer(Int64(variant.height)), "bytes": .integer(Int64(variant.bytes))])
                    }),
                ])
            }
            members["formats"] = .object(formats)
            if !source.placeholders.isEmpty { members["placeholders"] = .object(source.placeholders.mapValues { .string($0) }) }
            return .object(members)
        }
        var out: [UInt8] = []
        JSONWriter.write(.object(["sources": .array(sources)]), indent: 0, into: &out)
        out.append(0x0A)
        return out
    }
}

extension WebImageSet {
    /// The set a run's manifest records for `settings`, file sizes read from the disk (paths
    /// beside the manifest), URLs below `outputDirectory` (as seen from the working directory).
    package static func load(manifest path: FilePath, outputDirectory: FilePath, settings: Set<String>,
                             urlPrefix: String) throws(BatchError) -> WebImageSet {
        let manifest = try Manifest.load(path: path)
        let directory = path.directory
        return WebImageSet(entries: manifest.sortedEntries, settings: settings, urlPrefix: urlPrefix,
                           urlBase: outputDirectory.relative(from: directory)) { output in
            guard case .success(let status) = FileSystem.status(directory.isEmpty ? output : directory.appending(output)), status.isRegular else { return nil }
            return Int(status.size)
        }
    }
}
