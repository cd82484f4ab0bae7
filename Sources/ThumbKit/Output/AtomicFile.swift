import CFileSync
import Glibc
import Synchronization

/// Why an output file could not be written.
public enum FileWriteError: ThumbKitError, Equatable {
    /// A system call failed; `operation` is what was being done, `reason` the system's text,
    /// `code` its errno (0 when no call failed: a file in the way).
    case failed(operation: String, reason: String, code: Int32 = 0)
    /// The destination exists and is a directory.
    case destinationIsDirectory

    /// One line: what was being done and the system's reason.
    public var message: String {
        switch self {
        case .failed(let operation, let reason, _): return "cannot \(operation): \(reason.lowercasedFirst)"
        case .destinationIsDirectory: return "output path is an existing directory"
        }
    }

    /// True when the failure is the machine's, not the input's: no space, an I/O error, a
    /// read-only, unwritable or vanished output folder, a mount that refuses rename. Every other output would fail alike, so
    /// a batch stops at the first (and a scheduler may retry elsewhere: exit 75, EX_TEMPFAIL).
    public var isMachineFailure: Bool {
        guard case .failed(_, _, let code) = self else { return false }
        return [ENOSPC, EDQUOT, EIO, EROFS, EACCES, EPERM, ENOENT, ENOTDIR, ENXIO, ENODEV, ESTALE,
                // A mount that refuses rename (object stores): see `--write-mode direct`.
                EXDEV, EOPNOTSUPP, ENOSYS].contains(code)
    }
}

/// A complete temporary file beside its destination, waiting to be renamed over it
/// (`AtomicFile.stage`, then `AtomicFile.commit` or `AtomicFile.discard`).
package struct StagedFile: Sendable, Equatable {
    /// Where the bytes are now: a short hidden name in the destination's directory.
    package let temporaryPath: FilePath
    /// Where `commit` puts them.
    package let path: FilePath
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
/// killed mid-write leaves at most a temporary file named `.thumbgen-tmp-PID-N`;
/// `removeStaleTemporaries(in:)` clears them on the next run (not those of a process still
/// running: shards writing into one tree at once).
///
/// The temporary name does not contain the destination's: a destination of 240 bytes or more
/// would otherwise give a temporary name over NAME_MAX (255 bytes), and the file could not be
/// written at all. Process id and a per-process counter keep names unique.
///
/// Paths are `FilePath`s (bytes), so any name can be written; messages name them escaped.
package enum AtomicFile {
    /// Part of every temporary file's name (its start).
    package static let temporaryMarker = ".thumbgen-tmp-"

    /// Numbers the temporary files this process makes, so two workers never pick the same name.
    private static let counter = Atomic<UInt64>(0)

    /// Writes `bytes` to `path` atomically, creating missing parent directories; the data and the
    /// rename are synced to disk before it returns.
    package static func write(_ bytes: [UInt8], to path: FilePath) throws(FileWriteError) {
        let staged = try stage(bytes, to: path)
        if let error = commit([staged], syncData: true)[0] { throw error }
        syncDirectory(directory(of: path))
    }

    /// `write(_:to:)` for a path given as text.
    package static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        try write(bytes, to: FilePath(path))
    }

    /// Writes `bytes` to a new temporary file beside `path` (creating missing parent directories),
    /// unsynced; the destination is untouched until `commit`.
    package static func stage(_ bytes: [UInt8], to path: FilePath) throws(FileWriteError) -> StagedFile {
        var st = stat()
        if path.withCString({ stat($0, &st) }) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw .destinationIsDirectory }
        let directory = path.directory
        try createDirectories(directory)
        let name = FilePath(temporaryMarker + String(getpid()) + "-" + String(nextCounter()))
        let temporary = directory.isEmpty ? name : directory.appending(name)
        let fd = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
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

    /// `stage(_:to:)` for a path given as text.
    package static func stage(_ bytes: [UInt8], to path: String) throws(FileWriteError) -> StagedFile {
        try stage(bytes, to: FilePath(path))
    }

    /// Makes the staged files' data durable (unless `syncData` is false), then renames each over
    /// its destination, in order. Returns one entry per file: nil when it is in place, or why it
    /// is not (its temporary file is then removed). The renames themselves become durable with
    /// the next `syncDirectory` of their directories.
    package static func commit(_ files: [StagedFile], syncData: Bool) -> [FileWriteError?] {
        var errors = [FileWriteError?](repeating: nil, count: files.count)
        if syncData { syncContents(files, into: &errors) }
        for (index, file) in files.enumerated() where errors[index] == nil {
            let renamed = file.temporaryPath.withCString { from in file.path.withCString { to in rename(from, to) } }
            if renamed != 0 {
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

    /// Removes `path` if it is a regular file holding exactly `bytes`' SHA-256 `sha256`, so that a
    /// file someone replaced or edited since it was written is kept. Returns whether it was
    /// removed, or the reason it was kept.
    package static func removeIfUnchanged(_ path: FilePath, sha256: String) -> Result<Bool, SystemFailure> {
        let source: SourceFile
        switch SourceFile.open(path) {
        case .failure(let failure): return .failure(failure)
        case .success(let opened): source = opened
        }
        switch source.sha256() {
        case .failure(let failure): return .failure(failure)
        case .success(let hash) where hash != sha256: return .success(false)
        case .success: break
        }
        if path.withCString({ Glibc.unlink($0) }) != 0 { return .failure(SystemFailure.current()) }
        return .success(true)
    }

    /// One file: `fsync`. Several: one `syncfs` per file system they are on, which flushes them
    /// all in one wait; if that fails, an `fsync` each, so an error names the file it belongs to.
    private static func syncContents(_ files: [StagedFile], into errors: inout [FileWriteError?]) {
        var pending = Array(files.indices)
        if files.count > 1 {
            // A new file is on its directory's file system, so one `stat` per directory will do
            // (a batch stages hundreds of files into a handful of directories).
            var deviceOfDirectory: [FilePath: UInt64?] = [:]
            var devices: [UInt64: [Int]] = [:]
            for index in files.indices {
                let directory = directory(of: files[index].temporaryPath)
                let device = deviceOfDirectory[directory] ?? {
                    var st = stat()
                    let device: UInt64? = directory.withCString { stat($0, &st) } == 0 ? UInt64(st.st_dev) : nil
                    deviceOfDirectory[directory] = device
                    return device
                }()
                if let device { devices[device, default: []].append(index) }
            }
            var synced = Set<Int>()
            for indexes in devices.values {
                let fd = directory(of: files[indexes[0]].path).withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
                guard fd >= 0 else { continue }
                if tg_syncfs(fd) == 0 { synced.formUnion(indexes) }
                close(fd)
            }
            pending.removeAll { synced.contains($0) }
        }
        for index in pending {
            let file = files[index]
            let fd = file.temporaryPath.withCString { open($0, O_RDONLY | O_CLOEXEC) }
            if fd < 0 || fsync(fd) != 0 {
                errors[index] = systemError("sync \(file.path)")
                unlink(file.temporaryPath)
            }
            if fd >= 0 { close(fd) }
        }
    }

    /// Removes temporary files left by killed runs directly inside `directory`; returns how many.
    /// Both the present short names and the older `.NAME.thumbgen-tmp-PID-N` ones are removed,
    /// unless PID is a process that is still running: shards started together into one output
    /// tree (GNU parallel, a Slurm array on one node) each clear the tree as they start, and one
    /// must not remove a file another is about to rename into place.
    @discardableResult
    package static func removeStaleTemporaries(in directory: FilePath) -> Int {
        guard case .success(let names) = FileSystem.entries(directory.bytes) else { return 0 }
        let marker = Array(temporaryMarker.utf8)
        var removed = 0
        for name in names where name.first == UInt8(ascii: ".") {
            guard let found = name.firstRange(of: marker) else { continue }
            if let pid = writerProcess(name[found.upperBound...]), isRunning(pid) { continue }
            if unlink(directory.appending(FilePath(name))) { removed += 1 }
        }
        return removed
    }

    /// The PID in "PID-N", the part of a temporary name after the marker.
    private static func writerProcess(_ rest: ArraySlice<UInt8>) -> pid_t? {
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return pid_t(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
    }

    /// Whether a process with this id exists (signal 0 checks without sending; EPERM means it
    /// exists under another user).
    private static func isRunning(_ pid: pid_t) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// `removeStaleTemporaries(in:)` for a directory given as text.
    @discardableResult
    package static func removeStaleTemporaries(in directory: String) -> Int {
        removeStaleTemporaries(in: FilePath(directory))
    }

    /// Creates `directory` and its missing parents (like `mkdir -p`).
    package static func createDirectories(_ directory: FilePath) throws(FileWriteError) {
        guard !directory.isEmpty else { return }
        var st = stat()
        if directory.withCString({ stat($0, &st) }) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { return }
            throw .failed(operation: "create directory \(directory)", reason: "a file is in the way")
        }
        let parent = directory.directory
        if parent != directory { try createDirectories(parent) }
        if directory.withCString({ mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw systemError("create directory \(directory)")
        }
    }

    /// `createDirectories(_:)` for a directory given as text.
    package static func createDirectories(_ directory: String) throws(FileWriteError) {
        try createDirectories(FilePath(directory))
    }

    /// The directory `path` is in, "." for a bare name.
    static func directory(of path: FilePath) -> FilePath {
        let directory = path.directory
        return directory.isEmpty ? "." : directory
    }

    /// Flushes a directory's entries (renames into it) to disk; errors are ignored, as some file
    /// systems cannot sync directories.
    package static func syncDirectory(_ directory: FilePath) {
        let fd = directory.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Unlinks `path`; true when it was removed.
    @discardableResult
    private static func unlink(_ path: FilePath) -> Bool {
        path.withCString { Glibc.unlink($0) } == 0
    }

    private static func nextCounter() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// `operation` names its path escaped (`FilePath.description`), so the message is one line.
    private static func systemError(_ operation: String) -> FileWriteError {
        .failed(operation: operation, reason: String(cString: strerror(errno)), code: errno)
    }
}
