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
        FilePath(joining: normalizedComponents, absolute: isAbsolute)
    }

    /// The components `normalized` keeps, as slices of `bytes` (a planner normalizes two paths a
    /// source, and a new array for each component was most of the time it took).
    var normalizedComponents: [ArraySlice<UInt8>] {
        var kept: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: FilePath.slash) ?? bytes.endIndex
            let component = bytes[start..<end]
            start = end + 1
            if component.isEmpty || component.elementsEqual([0x2E]) { continue }
            if component.elementsEqual([0x2E, 0x2E]) {
                if let last = kept.last, !last.elementsEqual([0x2E, 0x2E]) {
                    kept.removeLast()
                    continue
                }
                if isAbsolute { continue }
            }
            kept.append(component)
        }
        return kept
    }

    /// `components` joined by slashes, after a leading one when `absolute`.
    init<Components: Collection>(joining components: Components, absolute: Bool) where Components.Element: Collection<UInt8> {
        var bytes: [UInt8] = absolute ? [FilePath.slash] : []
        for (index, component) in components.enumerated() {
            if index > 0 { bytes.append(FilePath.slash) }
            bytes.append(contentsOf: component)
        }
        self.init(bytes)
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
        RelativePaths(from: directory).path(of: self)
    }

    /// `relative` resolved from this directory: itself when absolute, else joined and normalized
    /// (`thumbs` + `../photos/a.jpg` is `photos/a.jpg`). A relative result stays relative.
    package func resolving(_ relative: FilePath) -> FilePath {
        if relative.isAbsolute { return relative }
        let joined = appending(relative).normalized
        return joined.isEmpty ? FilePath(".") : joined
    }
}

/// Many paths made relative to one directory (`FilePath.relative(from:)`), with the directory's
/// components and the working directory worked out once: a batch names each source's manifest key
/// and each output's this way, and asking the kernel for the working directory per path had been
/// three system calls a file.
package struct RelativePaths {
    /// What relative paths are taken from: the working directory when this was made.
    let workingDirectory: FilePath
    /// The directory's components, absolute and normalized (slices of its bytes).
    private let base: [ArraySlice<UInt8>]

    package init(from directory: FilePath, workingDirectory: FilePath = FilePath.workingDirectory) {
        self.workingDirectory = workingDirectory
        base = (directory.isAbsolute ? directory : workingDirectory.appending(directory)).normalizedComponents
    }

    /// `path` as seen from the directory: `..` for each of the directory's components it does not
    /// share, then the rest of its own.
    package func path(of path: FilePath) -> FilePath {
        let absolute = path.isAbsolute ? path : workingDirectory.appending(path)
        let target = absolute.normalizedComponents
        var common = 0
        while common < target.count && common < base.count && target[common].elementsEqual(base[common]) { common += 1 }
        let up = repeatElement([UInt8(0x2E), 0x2E][...], count: base.count - common)
        return FilePath(joining: up + target[common...], absolute: false)
    }
}
