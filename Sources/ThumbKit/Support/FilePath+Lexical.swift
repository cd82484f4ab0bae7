import Glibc

/// Paths worked out as text, without asking the file system: what a manifest records so that it
/// can be read from any working directory (its outputs and sources relative to its own folder).
///
/// Lexical: `a/../b` is `b` even when `a` is a symbolic link to somewhere else, as a shell's `cd`
/// sees it. Relative paths are made absolute with the working directory the kernel reports.
extension FilePath {
    /// True for `/…`.
    package var isAbsolute: Bool { bytes.first == FilePath.slash }

    /// The components, without empty ones and `.`; `..` is kept (it is resolved by `normalized`).
    var components: [[UInt8]] {
        bytes.split(separator: FilePath.slash, omittingEmptySubsequences: true).map(Array.init).filter { $0 != [0x2E] }
    }

    /// Without `.`, repeated slashes, a trailing slash, and `x/..` pairs; `..` at the start of a
    /// relative path stays, above `/` it is dropped. Empty for `.`.
    package var normalized: FilePath {
        var kept: [[UInt8]] = []
        for component in components {
            if component == [0x2E, 0x2E] {
                if let last = kept.last, last != [0x2E, 0x2E] {
                    kept.removeLast()
                    continue
                }
                if isAbsolute { continue }
            }
            kept.append(component)
        }
        let joined = kept.joined(separator: [FilePath.slash])
        return FilePath((isAbsolute ? [FilePath.slash] : []) + Array(joined))
    }

    /// The path made absolute against the working directory, normalized.
    package var absolute: FilePath {
        if isAbsolute { return normalized }
        return FilePath.workingDirectory.appending(self).normalized
    }

    /// The working directory, as the kernel reports it (`/` if it cannot be told).
    package static var workingDirectory: FilePath {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return FilePath("/") }
        return FilePath(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// This path as seen from `directory`: `../photos/a.jpg` for `photos/a.jpg` from `thumbs`. Both
    /// are made absolute and normalized first; the result is empty when they are the same.
    package func relative(from directory: FilePath) -> FilePath {
        let target = absolute.components, base = directory.absolute.components
        var common = 0
        while common < target.count && common < base.count && target[common] == base[common] { common += 1 }
        let up = [[UInt8]](repeating: [0x2E, 0x2E], count: base.count - common)
        return FilePath(Array((up + target[common...]).joined(separator: [FilePath.slash])))
    }

    /// `relative` resolved from this directory: itself when absolute, else joined and normalized
    /// (`thumbs` + `../photos/a.jpg` is `photos/a.jpg`). A relative result stays relative.
    package func resolving(_ relative: FilePath) -> FilePath {
        if relative.isAbsolute { return relative }
        let joined = appending(relative).normalized
        return joined.isEmpty ? FilePath(".") : joined
    }
}
