import Glibc

/// How a ratings file's paths and the photos' paths are compared: both made absolute (a relative
/// entry against the ratings file's own folder, a relative photo path against the working
/// directory) and lexically normal (no `.`, `..` or repeated slashes). Symbolic links are not
/// resolved: a photo reached through a link matches the entry that names the link.
enum RatingPath {
    /// The working directory, or `/` in the odd case it cannot be named (removed since).
    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `path` absolute and normal, relative paths taken from `base` (itself absolute).
    static func normalised(_ path: String, from base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            // `..` at the root stays at the root, as the kernel takes it.
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The folder a file is in: everything before its last slash (`.` when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
