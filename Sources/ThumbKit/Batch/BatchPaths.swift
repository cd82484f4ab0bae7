/// Joining and splitting `/`-separated paths, without Foundation's URL normalisation (which
/// would resolve symlinks and `..` differently from the system calls that open the files).
enum BatchPaths {
    /// `base/relative`, with exactly one slash between them.
    static func join(_ base: String, _ relative: String) -> String {
        if base.isEmpty { return relative }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// Everything before the last slash (`""` when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == path.startIndex ? "/" : String(Substring(path.utf8[..<slash]))
    }
}
