/// Maps a source's path below its input to the output files it produces.
///
/// The output tree mirrors the input tree: `a/b/photo.png` with format `%s` and scales 1 and 2
/// gives `a/b/photo.png` and `a/b/photo@2x.png` below the output directory. The extension is the
/// output format's (`png`, `jpg`, `webp`) or the one the name format ends in, and the scale suffix
/// goes before it (Apple's `@2x` convention, which web tooling shares).
package struct OutputNaming: Sendable, Equatable {
    /// The name format: `%s` is the source's base name without its extension, `%%` a percent
    /// sign; everything else is literal. It names a file, so it cannot contain `/`.
    package let format: String
    /// Requested scales, ascending, each in 1...3.
    package let scales: [Int]
    /// The outputs' extension, without the dot.
    package let fileExtension: String

    /// Validates the format and scales.
    package init(format: String = "%s", scales: [Int] = [1], fileExtension: String = "png") throws(BatchError) {
        if format.isEmpty { throw .invalidNameFormat(format: format, reason: "it is empty") }
        if format.contains("/") { throw .invalidNameFormat(format: format, reason: "it contains '/'") }
        var chars = format.makeIterator()
        while let c = chars.next() {
            guard c == "%" else { continue }
            switch chars.next() {
            case "s", "%": continue
            case nil: throw .invalidNameFormat(format: format, reason: "it ends with a lone '%'")
            case let other?: throw .invalidNameFormat(format: format, reason: "unknown directive '%\(other)' (use %s or %%)")
            }
        }
        // An empty list would plan sources with no outputs; report it as the missing scale 0.
        if scales.isEmpty { throw .invalidScale(0) }
        var seen: Set<Int> = []
        for scale in scales {
            guard (1...3).contains(scale), seen.insert(scale).inserted else { throw .invalidScale(scale) }
        }
        self.format = format
        self.scales = scales.sorted()
        self.fileExtension = fileExtension
    }

    /// A name format that ends in an image extension (`%s_t.jpg`, any case), split into the
    /// format before it and the extension as written; nil when it ends in none, e.g. `%s_t`.
    package static func splitImageExtension(_ format: String) -> (format: String, fileExtension: String)? {
        guard let dot = format.lastIndex(of: "."), dot != format.startIndex else { return nil }
        let ending = String(format[format.index(after: dot)...])
        guard OutputFormat.extensions[ending.lowercased()] != nil else { return nil }
        return (String(format[..<dot]), ending)
    }

    /// The file-name suffix for a scale: `""` for 1, `"@2x"` for 2, `"@3x"` for 3.
    package static func suffix(forScale scale: Int) -> String { scale == 1 ? "" : "@\(scale)x" }

    /// The longest name a file may have (Linux's NAME_MAX, in bytes).
    package static let maxNameBytes = 255
    /// The longest scale suffix and extension a name gets, `@3x.png` (7 bytes) for PNG; names
    /// are fitted to it whatever the scales of this run, so a name does not change when a scale
    /// is added.
    var longestEnding: Int { "@3x.".utf8.count + fileExtension.utf8.count }
    /// What replaces the cut end of a long stem: `~` and 8 hex digits of the stem's SHA-256.
    static let shortenedMarkBytes = 9

    /// Output paths, relative to the output directory, one per scale in ascending scale order.
    /// Names are bytes: a source name that is not UTF-8 gives an output name with the same bytes.
    ///
    /// A name whose stem (after the format is applied) is too long for `NAME.@3x.png` to fit in
    /// 255 bytes is shortened deterministically: the stem is cut after at most 239 bytes (238
    /// for a four-letter extension), at a
    /// character boundary (a byte that is not valid UTF-8 counts as one character), and
    /// `~` plus the first 8 hex digits of the SHA-256 of the whole stem is appended, so two long
    /// names that share their first 239 bytes still get different outputs.
    package func outputs(forSource relative: FilePath) -> [(suffix: String, path: FilePath)] {
        let directory = relative.directory
        let stem = Self.stem(relative.lastComponent.bytes)
        let formatted = fitted(format == "%s" ? stem : expand(stem: stem))
        return scales.map { scale in
            let suffix = Self.suffix(forScale: scale)
            let name = FilePath(formatted + Array(suffix.utf8) + Array(".\(fileExtension)".utf8))
            return (suffix, directory.isEmpty ? name : directory.appending(name))
        }
    }

    /// The base name without its extension; a leading dot (hidden file) is not an extension.
    static func stem(_ name: [UInt8]) -> [UInt8] {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return name }
        return Array(name[..<dot])
    }

    /// `stem`, shortened as `outputs(forSource:)` describes when the longest name made from it
    /// would not fit.
    func fitted(_ stem: [UInt8]) -> [UInt8] {
        guard stem.count + longestEnding > Self.maxNameBytes else { return stem }
        let budget = Self.maxNameBytes - longestEnding - Self.shortenedMarkBytes
        var hasher = SHA256()
        hasher.update(stem)
        let mark = "~" + String(hasher.finalize().hexString.prefix(8))
        return Array(stem[..<Self.characterBoundary(in: stem, atMost: budget)]) + Array(mark.utf8)
    }

    /// The largest index at most `limit` that does not split a UTF-8 sequence.
    private static func characterBoundary(in bytes: [UInt8], atMost limit: Int) -> Int {
        var index = 0
        while index < bytes.count {
            let length = PathEscaping.sequenceLength(bytes, at: index)
            if index + length > limit { break }
            index += length
        }
        return index
    }

    private func expand(stem: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var chars = format.makeIterator()
        while let c = chars.next() {
            if c == "%" {
                // init validated that every % is followed by s or %.
                if chars.next() == "s" { out += stem } else { out.append(UInt8(ascii: "%")) }
            } else {
                out += Array(String(c).utf8)
            }
        }
        return out
    }
}
