import CFileSync
import Glibc
import Synchronization

/// Why an output file could not be written.
public enum FileWriteError: ThumbKitError, Equatable {
    /// A system call failed; `operation` is what was being done, `reason` the system's text.
    case failed(operation: String, reason: String)
    /// The destination exists and is a directory.
    case destinationIsDirectory

    /// One line: what was being done and the system's reason.
    public var message: String {
        switch self {
        case .failed(let operation, let reason): return "cannot \(operation): \(reason.lowercasedFirst)"
        case .destinationIsDirectory: return "output path is an existing directory"
        }
    }
}

/// A complete temporary file beside its destination, waiting to be renamed over it
/// (`AtomicFile.stage`, then `AtomicFile.commit` or `AtomicFile.discard`).
package struct StagedFile: Sendable, Equatable {
    /// Where the bytes are now: a hidden name in the destination's directory.
    package let temporaryPath: String
    /// Where `commit` puts them.
    package let path: String
}

/// Writes files so that a final name only ever holds complete data.
///
/// The bytes go to a temporary file beside the destination (same directory, so the rename is
/// atomic), which is flushed to disk, renamed over the destination, and the directory is synced
/// so the rename survives a crash. Writing is split in two so a batch can stage many files and
/// make them durable together (`commit`: one `syncfs` per file system instead of an `fsync` per
/// file), off its worker threads; `write` does both for one file. With `syncData: false` nothing
/// is flushed at all (still atomic against a killed process, since the rename comes after the last
/// write, but not against power loss). On any failure the temporary file is removed. A process
/// killed mid-write leaves at most a temporary file whose name starts with `.` and contains
/// `temporaryMarker`; `removeStaleTemporaries(in:)` clears them on the next run.
package enum AtomicFile {
    /// Part of every temporary file's name.
    package static let temporaryMarker = ".thumbgen-tmp-"

    /// Numbers the temporary files this process makes, so two workers never pick the same name.
    private static let counter = Atomic<UInt64>(0)

    /// Writes `bytes` to `path` atomically, creating missing parent directories; the data and the
    /// rename are synced to disk before it returns.
    package static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        let staged = try stage(bytes, to: path)
        if let error = commit([staged], syncData: true)[0] { throw error }
        syncDirectory(directory(of: path))
    }

    /// Writes `bytes` to a new temporary file beside `path` (creating missing parent directories),
    /// unsynced; the destination is untouched until `commit`.
    package static func stage(_ bytes: [UInt8], to path: String) throws(FileWriteError) -> StagedFile {
        var st = stat()
        if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw .destinationIsDirectory }
        let (directory, name) = split(path)
        try createDirectories(directory)
        let temporary = (directory.isEmpty ? "" : directory + "/") + "." + name + temporaryMarker
            + String(getpid()) + "-" + String(nextCounter())
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw systemError("create \(temporary)") }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += n
            }
            return true
        }
        if !ok {
            let error = systemError("write \(path)")
            close(fd)
            unlink(temporary)
            throw error
        }
        if close(fd) != 0 {
            let error = systemError("close \(path)")
            unlink(temporary)
            throw error
        }
        return StagedFile(temporaryPath: temporary, path: path)
    }

    /// Makes the staged files' data durable (unless `syncData` is false), then renames each over
    /// its destination, in order. Returns one entry per file: nil when it is in place, or why it
    /// is not (its temporary file is then removed). The renames themselves become durable with
    /// the next `syncDirectory` of their directories.
    package static func commit(_ files: [StagedFile], syncData: Bool) -> [FileWriteError?] {
        var errors = [FileWriteError?](repeating: nil, count: files.count)
        if syncData { syncContents(files, into: &errors) }
        for (index, file) in files.enumerated() where errors[index] == nil {
            if rename(file.temporaryPath, file.path) != 0 {
                errors[index] = systemError("rename to \(file.path)")
                unlink(file.temporaryPath)
            }
        }
        return errors
    }

    /// Removes a staged file that will not be committed.
    package static func discard(_ file: StagedFile) {
        unlink(file.temporaryPath)
    }

    /// One file: `fsync`. Several: one `syncfs` per file system they are on, which flushes them
    /// all in one wait; if that fails, an `fsync` each, so an error names the file it belongs to.
    private static func syncContents(_ files: [StagedFile], into errors: inout [FileWriteError?]) {
        var pending = Array(files.indices)
        if files.count > 1 {
            // A new file is on its directory's file system, so one `stat` per directory will do
            // (a batch stages hundreds of files into a handful of directories).
            var deviceOfDirectory: [String: UInt64?] = [:]
            var devices: [UInt64: [Int]] = [:]
            for index in files.indices {
                let directory = directory(of: files[index].temporaryPath)
                let device = deviceOfDirectory[directory] ?? {
                    var st = stat()
                    let device: UInt64? = stat(directory, &st) == 0 ? UInt64(st.st_dev) : nil
                    deviceOfDirectory[directory] = device
                    return device
                }()
                if let device { devices[device, default: []].append(index) }
            }
            var synced = Set<Int>()
            for indexes in devices.values {
                let fd = open(directory(of: files[indexes[0]].path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                if tg_syncfs(fd) == 0 { synced.formUnion(indexes) }
                close(fd)
            }
            pending.removeAll { synced.contains($0) }
        }
        for index in pending {
            let file = files[index]
            let fd = open(file.temporaryPath, O_RDONLY | O_CLOEXEC)
            if fd < 0 || fsync(fd) != 0 {
                errors[index] = systemError("sync \(file.path)")
                unlink(file.temporaryPath)
            }
            if fd >= 0 { close(fd) }
        }
    }

    /// Removes temporary files left by killed runs directly inside `directory`; returns how many.
    @discardableResult
    package static func removeStaleTemporaries(in directory: String) -> Int {
        guard let dir = opendir(directory) else { return 0 }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") && name.contains(temporaryMarker) {
                if unlink(directory + "/" + name) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Creates `directory` and its missing parents (like `mkdir -p`).
    package static func createDirectories(_ directory: String) throws(FileWriteError) {
        guard !directory.isEmpty else { return }
        var st = stat()
        if stat(directory, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { return }
            throw .failed(operation: "create directory \(directory)", reason: "a file is in the way")
        }
        let (parent, _) = split(directory)
        try createDirectories(parent)
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw systemError("create directory \(directory)")
        }
    }

    /// The directory `path` is in, "." for a bare name.
    static func directory(of path: String) -> String {
        let directory = split(path).directory
        return directory.isEmpty ? "." : directory
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// Flushes a directory's entries (renames into it) to disk; errors are ignored, as some file
    /// systems cannot sync directories.
    package static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    private static func nextCounter() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    private static func systemError(_ operation: String) -> FileWriteError {
        .failed(operation: operation, reason: String(cString: strerror(errno)))
    }
}
