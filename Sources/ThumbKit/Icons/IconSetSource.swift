extension IconSet {
    /// An extra image an icon set reads besides its master (`--dark`, `--foreground`, a size source):
    /// where to open it, how the manifest records it, and the SHA-256 of its bytes when the set was
    /// made, so that editing it rebuilds the icons that use it.
    public struct Source: Sendable, Hashable {
        /// The path to open, as given (relative to the working directory, or absolute).
        package var path: FilePath
        /// The path as the settings record it: relative to the manifest's folder, escaped.
        package var recorded: String
        /// SHA-256 of the file's bytes, lower-case hex.
        package var sha256: String

        package init(path: FilePath, recorded: String, sha256: String) {
            self.path = path
            self.recorded = recorded
            self.sha256 = sha256
        }

        /// Reads and hashes the file at `path`, recording it relative to `manifestDirectory`.
        package static func read(_ path: FilePath, manifestDirectory: FilePath, maxBytes: UInt64 = 0) -> Result<IconSet.Source, SystemFailure> {
            FileSystem.read(path, maxBytes: maxBytes).map { bytes in
                // `;` separates settings fields: written as the escape `PathEscaping.unescape` reads back.
                IconSet.Source(path: path, recorded: path.relative(from: manifestDirectory).description.replacingSemicolons,
                           sha256: SHA256.hex(bytes))
            }
        }

        /// `path@sha256`, as the settings record it.
        var field: String { recorded + "@" + sha256 }

        /// Reads back `field`; the path is resolved against `directory` (the manifest's folder).
        init?(field: String, relativeTo directory: FilePath) {
            guard let at = field.lastIndex(of: "@") else { return nil }
            let recorded = String(field[..<at]), hash = String(field[field.index(after: at)...])
            guard hash.count == 64, let bytes = PathEscaping.unescape(recorded) else { return nil }
            self.init(path: directory.resolving(FilePath(bytes)), recorded: recorded, sha256: hash)
        }
    }
}

private extension String {
    var replacingSemicolons: String {
        split(separator: ";", omittingEmptySubsequences: false).joined(separator: "\\x3b")
    }
}
