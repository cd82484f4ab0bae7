import Glibc

/// The few POSIX calls the batch makes, taking paths as raw bytes so that names which are not
/// valid UTF-8 can still be walked and reported exactly. Reading is package for the command-line
/// tool, so it reads files the same careful way (regular files only) without Foundation.
package enum FileSystem {
    /// What `stat` (following symlinks) says about a path.
    struct Status: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var isDirectory: Bool
        var isRegular: Bool
        var size: Int64
        var modificationNanoseconds: Int64
        var changeNanoseconds: Int64
    }

    static func withCPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// `stat(2)`, following symlinks; on failure the system's reason.
    static func status(_ path: [UInt8]) -> Result<Status, SystemFailure> {
        var st = stat()
        let rc = withCPath(path) { stat($0, &st) }
        return rc == 0 ? .success(Status(st)) : .failure(SystemFailure.current())
    }

    static func status(_ path: String) -> Result<Status, SystemFailure> { status(Array(path.utf8)) }

    static func status(_ path: FilePath) -> Result<Status, SystemFailure> { status(path.bytes) }

    /// `fstat(2)` of an open descriptor.
    static func status(descriptor: Int32) -> Result<Status, SystemFailure> {
        var st = stat()
        return fstat(descriptor, &st) == 0 ? .success(Status(st)) : .failure(SystemFailure.current())
    }

    /// The names in a directory (without `.` and `..`), sorted byte-wise so walks are
    /// deterministic whatever order the file system returns.
    static func entries(_ directory: [UInt8]) -> Result<[[UInt8]], SystemFailure> {
        withDirectory(directory) { $0.names }
    }

    /// An open directory: its names, and what `stat` says of each, looked up from the directory
    /// itself rather than by walking the whole path from the root again for every entry (a
    /// third of the time a walk of a deep tree spent in the kernel).
    struct OpenDirectory {
        fileprivate let stream: OpaquePointer
        /// The names (without `.` and `..`), sorted byte-wise.
        let names: [[UInt8]]

        /// `stat(2)` of an entry, following symlinks.
        func status(of name: [UInt8]) -> Result<Status, SystemFailure> {
            var st = stat()
            let rc = FileSystem.withCPath(name) { fstatat(dirfd(stream), $0, &st, 0) }
            return rc == 0 ? .success(Status(st)) : .failure(SystemFailure.current())
        }
    }

    /// Opens and lists a directory, hands it to `body`, and closes it when `body` returns.
    static func withDirectory<T>(_ directory: [UInt8], _ body: (OpenDirectory) -> T) -> Result<T, SystemFailure> {
        guard let stream = withCPath(directory, { opendir($0) }) else { return .failure(SystemFailure.current()) }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        return .success(body(OpenDirectory(stream: stream, names: names)))
    }

    /// Opens a regular file for reading. `O_NONBLOCK` keeps a FIFO (or a file swapped for one since
    /// it was walked) from blocking the open, and `fstat` on the open descriptor refuses anything
    /// but a regular file, so a device such as `/dev/zero` is never read without end. The flag is
    /// left set: it has no effect on regular files (open(2)), and clearing it cost two more system
    /// calls for every file planned and every file read.
    /// Returns the descriptor and the size `fstat` gave.
    static func openRegular(_ path: [UInt8]) -> Result<(fd: Int32, size: Int), SystemFailure> {
        let fd = withCPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(SystemFailure.current()) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let failure = SystemFailure.current()
            close(fd)
            return .failure(failure)
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure(SystemFailure(reason: (st.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : "not a regular file"))
        }
        return .success((fd, max(Int(st.st_size), 0)))
    }

    /// Up to `count` leading bytes of a regular file.
    package static func head(_ path: [UInt8], count: Int) -> Result<[UInt8], SystemFailure> {
        let fd: Int32
        switch openRegular(path) {
        case .failure(let failure): return .failure(failure)
        case .success(let opened): fd = opened.fd
        }
        defer { close(fd) }
        return head(descriptor: fd, count: count)
    }

    /// Up to `count` leading bytes of an open file, read by offset (`pread`: the descriptor's own
    /// offset does not move, so others may read it too).
    static func head(descriptor fd: Int32, count: Int) -> Result<[UInt8], SystemFailure> {
        read(descriptor: fd, at: 0, count: count)
    }

    /// Up to `count` bytes of an open file from `offset` (fewer at its end), read by offset as `head` is.
    static func read(descriptor fd: Int32, at offset: UInt64, count: Int) -> Result<[UInt8], SystemFailure> {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(SystemFailure.current())
            }
            if n == 0 { break }
            filled += n
        }
        return .success(Array(buffer[0..<filled]))
    }

    /// A whole regular file's bytes; with `maxBytes` > 0, a file that holds more (one that grew
    /// after it was checked with `stat`) is a failure rather than an unbounded read.
    ///
    /// The buffer is sized from `fstat`, one byte over so the end shows without another buffer,
    /// and read into directly; a file that grows while read is read on in further pieces.
    package static func read(_ path: String, maxBytes: UInt64 = 0) -> Result<[UInt8], SystemFailure> {
        read(FilePath(path), maxBytes: maxBytes)
    }

    /// `read(_:maxBytes:)` for a path held as bytes.
    package static func read(_ path: FilePath, maxBytes: UInt64 = 0) -> Result<[UInt8], SystemFailure> {
        let fd: Int32, expected: Int
        switch openRegular(path.bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let opened): (fd, expected) = (opened.fd, opened.size)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var pieceSize = expected + 1
        while true {
            let piece: Piece
            switch readPiece(fd, upTo: pieceSize) {
            case .failure(let failure): return .failure(failure)
            case .success(let read): piece = read
            }
            if bytes.isEmpty { bytes = piece.bytes } else { bytes += piece.bytes }
            if maxBytes > 0 && UInt64(bytes.count) > maxBytes {
                return .failure(SystemFailure(reason: LimitExceeded(limit: .fileBytes, actual: UInt64(bytes.count), allowed: maxBytes).message))
            }
            if piece.reachedEnd { return .success(bytes) }
            pieceSize = max(bytes.count, 1 << 16)
        }
    }

    struct Piece {
        var bytes: [UInt8]
        var reachedEnd: Bool
    }

    /// Up to `count` bytes from `fd`, read into uninitialised storage (no zeroing pass).
    static func readPiece(_ fd: Int32, upTo count: Int) -> Result<Piece, SystemFailure> {
        var failure: SystemFailure?
        var reachedEnd = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = SystemFailure.current()
                    break
                }
                if n == 0 { reachedEnd = true; break }
                filled += n
            }
        }
        if let failure { return .failure(failure) }
        return .success(Piece(bytes: bytes, reachedEnd: reachedEnd))
    }

    /// True when something exists at `path` and is a regular file.
    static func isRegularFile(_ path: String) -> Bool { isRegularFile(FilePath(path)) }

    static func isRegularFile(_ path: FilePath) -> Bool {
        if case .success(let st) = status(path) { return st.isRegular }
        return false
    }
}

extension FileSystem.Status {
    init(_ st: stat) {
        let kind = st.st_mode & S_IFMT
        self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino),
                  isDirectory: kind == S_IFDIR, isRegular: kind == S_IFREG, size: Int64(st.st_size),
                  modificationNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                  changeNanoseconds: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec))
    }
}

/// A failed system call's reason, as `strerror` words it, lower-cased for one-line messages.
package struct SystemFailure: Error, Sendable, Equatable {
    package let reason: String

    init(reason: String) { self.reason = reason }

    /// The failure an error number stands for (pthread calls return one instead of setting `errno`).
    init(code: Int32) {
        reason = String(cString: strerror(code)).lowercasedFirst
    }

    static func current() -> SystemFailure { SystemFailure(code: errno) }
}
