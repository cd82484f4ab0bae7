/// Names the output files of a source: its path below the input (or `--base`) keeps its folders,
/// and its name is the name format with `%s` (the source's name without its extension), `%e` (its
/// extension, as spelt) and `%w` (the output's width at @1x, for a set of widths) filled in, then the scale suffix (`@2x`,
/// `@1.5x`; none at @1x), then the format's extension: `a/b/photo.png` with `%s-%w` at widths 320
/// and 640 in WebP gives `a/b/photo-320.webp` and `a/b/photo-640.webp`.
package struct OutputNaming: Sendable, Equatable {
    /// The name format: `%s` the source's base name without its extension, `%e` its extension
    /// without the dot (as spelt: `CR2`; empty when it has none), which tells the twins of a shot
    /// apart (`SourcePairing.both`), `%w` the width at @1x, `%%` a percent sign; everything else is literal. It names a file, so it cannot contain `/`.
    package let format: String
    /// The extension every output gets, as `--name` spelt it (`JPG`); nil: each format's own
    /// (`png`, `jpg`, `webp`).
    package let fileExtension: String?

    /// Validates the format. `%w` must stand between characters that are not digits (or at
    /// either end of the name), so that a name tells its width apart from the rest: with `%s%w`,
    /// `a1` at 320 and `a` at 1320 would both be `a1320`.
    package init(format: String = "%s", fileExtension: String? = nil) throws(BatchError) {
        if format.isEmpty { throw .invalidNameFormat(format: format, reason: "it is empty") }
        if format.contains("/") { throw .invalidNameFormat(format: format, reason: "it contains '/'") }
        let tokens = Self.tokens(format)
        for (index, token) in tokens.enumerated() {
            switch token {
            case .invalid(let reason): throw .invalidNameFormat(format: format, reason: reason)
            case .width:
                let before = index > 0 ? tokens[index - 1] : nil, after = index + 1 < tokens.count ? tokens[index + 1] : nil
                if let before, !before.endsWithNonDigit {
                    throw .invalidNameFormat(format: format, reason: "'%w' needs a character that is not a digit before it, such as '-'")
                }
                if let after, !after.startsWithNonDigit {
                    throw .invalidNameFormat(format: format, reason: "'%w' needs a character that is not a digit after it, such as '-'")
                }
            default: continue
            }
        }
        self.format = format
        self.fileExtension = fileExtension
    }

    /// True when names hold the output's width (`%w`): a set of widths needs it.
    package var namesWidths: Bool { Self.tokens(format).contains(.width) }

    /// A name format that ends in an image extension (`%s_t.jpg`, any case), split into the
    /// format before it and the extension as written; nil when it ends in none, e.g. `%s_t`.
    package static func splitImageExtension(_ format: String) -> (format: String, fileExtension: String)? {
        guard let dot = format.lastIndex(of: "."), dot != format.startIndex else { return nil }
        let ending = String(format[format.index(after: dot)...])
        guard OutputFormat.extensions[ending.lowercased()] != nil else { return nil }
        return (String(format[..<dot]), ending)
    }

    /// The longest name a file may have (Linux's NAME_MAX, in bytes).
    package static let maxNameBytes = 255
    /// The longest scale suffix and extension a name can get, `@0.125x.webp` (12 bytes): names are
    /// fitted to it whatever the scales and formats of this run, so a name does not change when a
    /// scale or a format is added.
    static let longestEnding = "@0.125x.".utf8.count + 4
    /// The most digits `%w` can write (`ThumbnailSize.maximumSide` has 7).
    static let longestWidth = 7
    /// What replaces the cut end of a long stem: `~` and 8 hex digits of the stem's SHA-256.
    static let shortenedMarkBytes = 9

    /// The output path of one variant, relative to the output directory. Names are bytes: a
    /// source name that is not UTF-8 gives an output name with the same bytes.
    ///
    /// A stem too long for the longest name the format can make from it (with 7 digits for `%w`
    /// and `longestEnding`) to fit 255 bytes is shortened deterministically: it is cut at a
    /// character boundary (a byte that is not valid UTF-8 counts as one character) so that it
    /// fits with `~` plus the first 8 hex digits of the SHA-256 of the whole stem appended, so two
    /// long names that share their beginning still get different outputs (with `%s` alone, the
    /// stem keeps at most 234 bytes).
    package func output(forSource relative: FilePath, variant: ThumbnailVariant) -> FilePath {
        let name = expand(stem: fittedStem(relative), fileExtension: Self.fileExtension(relative.lastComponent.bytes),
                          width: variant.width.map { Array(String($0).utf8) } ?? [])
            + Array(variant.scale.suffix.utf8) + Array(".\(fileExtension(for: variant.format))".utf8)
        let directory = relative.directory
        return directory.isEmpty ? FilePath(name) : directory.appending(FilePath(name))
    }

    /// The output paths of every variant, in order.
    package func outputs(forSource relative: FilePath, variants: [ThumbnailVariant]) -> [FilePath] {
        variants.map { output(forSource: relative, variant: $0) }
    }

    /// What an output's name is when its width is not yet known: `%w` left as a NUL byte, which no
    /// file name holds. Two sources whose templates agree would write the same files; two whose
    /// templates differ never do (the rule on `%w`'s neighbours).
    package func template(forSource relative: FilePath, scale: Scale, format: OutputFormat) -> FilePath {
        let name = expand(stem: fittedStem(relative), fileExtension: Self.fileExtension(relative.lastComponent.bytes),
                          width: namesWidths ? [0] : [])
            + Array(scale.suffix.utf8) + Array(".\(fileExtension(for: format))".utf8)
        let directory = relative.directory
        return directory.isEmpty ? FilePath(name) : directory.appending(FilePath(name))
    }

    /// The extension of a format's outputs: `--name`'s, or the format's own.
    package func fileExtension(for format: OutputFormat) -> String { fileExtension ?? format.fileExtension }

    /// The base name without its extension; a leading dot (hidden file) is not an extension.
    static func stem(_ name: [UInt8]) -> [UInt8] {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return name }
        return Array(name[..<dot])
    }

    /// The extension without its dot (`%e`): empty for a name without one or a hidden file's
    /// leading dot.
    static func fileExtension(_ name: [UInt8]) -> [UInt8] {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return [] }
        return Array(name[name.index(after: dot)...])
    }

    /// The source's stem, shortened as `output(forSource:variant:)` describes when the longest name
    /// made from it would not fit.
    func fittedStem(_ relative: FilePath) -> [UInt8] {
        let stem = Self.stem(relative.lastComponent.bytes)
        let tokens = Self.tokens(format)
        let stems = tokens.filter { $0 == .stem }.count
        guard stems > 0 else { return stem }
        let fixed = tokens.reduce(0) { total, token in
            switch token {
            case .literal(let bytes): return total + bytes.count
            case .width: return total + Self.longestWidth
            case .sourceExtension: return total + Self.fileExtension(relative.lastComponent.bytes).count
            default: return total
            }
        }
        guard fixed + stems * stem.count + Self.longestEnding > Self.maxNameBytes else { return stem }
        let budget = max(0, (Self.maxNameBytes - Self.longestEnding - fixed) / stems - Self.shortenedMarkBytes)
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

    private func expand(stem: [UInt8], fileExtension: [UInt8], width: [UInt8]) -> [UInt8] {
        Self.tokens(format).reduce(into: [UInt8]()) { out, token in
            switch token {
            case .stem: out += stem
            case .sourceExtension: out += fileExtension
            case .width: out += width
            case .literal(let bytes): out += bytes
            case .invalid: break   // init refused it
            }
        }
    }

    /// A piece of a name format.
    enum Token: Equatable {
        case literal([UInt8])
        case stem
        case sourceExtension
        case width
        case invalid(String)

        var endsWithNonDigit: Bool {
            if case .literal(let bytes) = self, let last = bytes.last { return !(0x30...0x39).contains(last) }
            return false
        }

        var startsWithNonDigit: Bool {
            if case .literal(let bytes) = self, let first = bytes.first { return !(0x30...0x39).contains(first) }
            return false
        }
    }

    /// The format split into literals (with `%%` as `%`), `%s`, `%e` and `%w`.
    static func tokens(_ format: String) -> [Token] {
        var tokens: [Token] = []
        var literal: [UInt8] = []
        var chars = format.makeIterator()
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = []
        }
        while let c = chars.next() {
            guard c == "%" else {
                literal += Array(String(c).utf8)
                continue
            }
            switch chars.next() {
            case "%": literal.append(UInt8(ascii: "%"))
            case "s": flush(); tokens.append(.stem)
            case "e": flush(); tokens.append(.sourceExtension)
            case "w": flush(); tokens.append(.width)
            case nil: return [.invalid("it ends with a lone '%'")]
            case let other?: return [.invalid("unknown directive '%\(other)' (use %s, %e, %w or %%)")]
            }
        }
        flush()
        return tokens
    }
}
