/// Maps a source's path below its input to the output files it produces.
///
/// The output tree mirrors the input tree: `a/b/photo.png` with format `%s` and scales 1 and 2
/// gives `a/b/photo.png` and `a/b/photo@2x.png` below the output directory. Outputs are always
/// PNG, so the extension is always `.png`, and the scale suffix goes before it (Apple's `@2x`
/// convention, which web tooling shares).
package struct OutputNaming: Sendable, Equatable {
    /// The name format: `%s` is the source's base name without its extension, `%%` a percent
    /// sign; everything else is literal. It names a file, so it cannot contain `/`.
    package let format: String
    /// Requested scales, ascending, each in 1...3.
    package let scales: [Int]

    /// Validates the format and scales.
    package init(format: String = "%s", scales: [Int] = [1]) throws(BatchError) {
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
    }

    /// The file-name suffix for a scale: `""` for 1, `"@2x"` for 2, `"@3x"` for 3.
    package static func suffix(forScale scale: Int) -> String { scale == 1 ? "" : "@\(scale)x" }

    /// Output paths, relative to the output directory, one per scale in ascending scale order.
    package func outputs(forSource relative: String) -> [(suffix: String, path: String)] {
        // Split on bytes: a path's separators are bytes, whatever marks combine with them, and
        // walking UTF-8 is several times faster than walking characters (once per source when
        // planning, before any worker starts).
        let directory: Substring
        let name: Substring
        if let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) {
            let afterSlash = relative.utf8.index(after: slash)
            directory = Substring(relative.utf8[..<afterSlash])
            name = Substring(relative.utf8[afterSlash...])
        } else {
            directory = ""
            name = relative[...]
        }
        let stem = Self.stem(name)
        let formatted = format == "%s" ? String(stem) : expand(stem: stem)
        return scales.map { scale in
            let suffix = Self.suffix(forScale: scale)
            return (suffix, String(directory) + formatted + suffix + ".png")
        }
    }

    /// The base name without its extension; a leading dot (hidden file) is not an extension.
    static func stem(_ name: Substring) -> Substring {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return name }
        return Substring(name.utf8[..<dot])
    }

    private func expand(stem: Substring) -> String {
        var out = ""
        var chars = format.makeIterator()
        while let c = chars.next() {
            if c == "%" {
                // init validated that every % is followed by s or %.
                out += chars.next() == "s" ? String(stem) : "%"
            } else {
                out.append(c)
            }
        }
        return out
    }
}
