/// Lists the files under one input, recursively, in a deterministic order.
///
/// Directory entries are visited in byte-wise order of their names, depth first, so the same tree
/// always yields the same sequence whatever the file system's own order. Symlinks are followed
/// (the user linked something in on purpose); a link back to a directory already on the current
/// path would recurse forever, so directories are tracked by device and inode and such a link is
/// reported and not entered. Hidden names (leading `.`) are skipped unless asked for, and the
/// output directory is never entered, so thumbnails are not re-thumbnailed on the next run.
struct SourceWalker {
    /// One thing the walk found.
    struct Entry: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// A regular file (or a link to one), with its size when walked.
            case file(size: Int64)
            /// Not walked or not a file; `reason` is listed in verbose summaries.
            case skipped(reason: String)
            /// Could not be examined; counted as a failure.
            case failed(reason: String)
        }
        /// The path to open: the input path joined with `relative`.
        var path: [UInt8]
        /// The path below the input directory; for a file input, its base name.
        var relative: [UInt8]
        var kind: Kind
    }

    /// A directory's identity; equal identities are the same directory whatever the path.
    struct DirectoryID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    var includeHidden: Bool
    /// The output directories' identities (those that already exist): never walked.
    var outputDirectories: Set<DirectoryID> = []

    /// Walks one input (file or directory).
    func walk(input: FilePath) throws(BatchError) -> [Entry] {
        let path = input.bytes
        switch FileSystem.status(path) {
        case .failure(let failure):
            return [Entry(path: path, relative: Self.baseName(path), kind: .failed(reason: "cannot read: \(failure.reason)"))]
        case .success(let st) where st.isDirectory:
            let id = DirectoryID(device: st.device, inode: st.inode)
            if outputDirectories.contains(id) { throw .inputIsOutputDirectory(input) }
            var entries: [Entry] = []
            walkDirectory(path: path, relative: [], ancestors: [id], into: &entries)
            return entries
        case .success(let st):
            // Named explicitly, so the user meant it: a FIFO or device given as input fails.
            let kind: Entry.Kind = st.isRegular ? .file(size: st.size) : .failed(reason: "not a regular file")
            return [Entry(path: path, relative: Self.baseName(path), kind: kind)]
        }
    }

    private func walkDirectory(path: [UInt8], relative: [UInt8], ancestors: Set<DirectoryID>, into entries: inout [Entry]) {
        // Each entry is examined while its directory is open; subdirectories are entered after
        // it is closed, so a deep tree holds no more than one directory open.
        let listing: [(name: [UInt8], status: Result<FileSystem.Status, SystemFailure>?)]
        switch FileSystem.withDirectory(path, { directory in
            directory.names.map { name in (name, !includeHidden && name.first == 0x2E ? nil : directory.status(of: name)) }
        }) {
        case .failure(let failure):
            entries.append(Entry(path: path, relative: relative, kind: .failed(reason: "cannot list directory: \(failure.reason)")))
            return
        case .success(let list):
            listing = list
        }
        let separated = path.last == 0x2F ? path : path + [0x2F]
        for (name, status) in listing {
            let childPath = separated + name
            let childRelative = relative.isEmpty ? name : relative + [0x2F] + name
            guard let status else {
                entries.append(Entry(path: childPath, relative: childRelative, kind: .skipped(reason: "hidden")))
                continue
            }
            switch status {
            case .failure(let failure):
                // Most often a dangling symlink; only worth a failure if it promised an image.
                let kind: Entry.Kind = Self.hasImageExtension(name)
                    ? .failed(reason: "cannot read: \(failure.reason)")
                    : .skipped(reason: "cannot read: \(failure.reason)")
                entries.append(Entry(path: childPath, relative: childRelative, kind: kind))
            case .success(let st) where st.isDirectory:
                let id = DirectoryID(device: st.device, inode: st.inode)
                if outputDirectories.contains(id) {
                    entries.append(Entry(path: childPath, relative: childRelative, kind: .skipped(reason: "output directory")))
                } else if ancestors.contains(id) {
                    entries.append(Entry(path: childPath, relative: childRelative, kind: .skipped(reason: "symlink loop (directory already being walked)")))
                } else {
                    walkDirectory(path: childPath, relative: childRelative, ancestors: ancestors.union([id]), into: &entries)
                }
            case .success(let st):
                // A FIFO or device is never opened (it could block or never end); named like an
                // image it is a failure, as a non-image so named is.
                let kind: Entry.Kind = st.isRegular ? .file(size: st.size)
                    : Self.hasImageExtension(name) ? .failed(reason: "not a regular file") : .skipped(reason: "not a regular file")
                entries.append(Entry(path: childPath, relative: childRelative, kind: kind))
            }
        }
    }

    /// The last path component, ignoring trailing slashes.
    static func baseName(_ path: [UInt8]) -> [UInt8] {
        var trimmed = path[...]
        while trimmed.count > 1 && trimmed.last == 0x2F { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: 0x2F), slash != trimmed.indices.last {
            return Array(trimmed[(slash + 1)...])
        }
        return Array(trimmed)
    }

    /// True for names ending in an extension of a format thumbgen reads (`ImageFormat.fileExtensions`:
    /// `.png`, `.jpg`, `.heic`, …), in any case.
    static func hasImageExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: 0x2E) else { return false }
        let ext = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        return ImageFormat.fileExtensions.contains(ext)
    }
}
