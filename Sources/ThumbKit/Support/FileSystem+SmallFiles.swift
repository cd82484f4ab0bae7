import Glibc

extension FileSystem {
    /// What reading a small file found.
    enum SmallFile: Equatable {
        /// Its bytes.
        case bytes([UInt8])
        /// Nothing (or no regular file) is there.
        case absent
        /// It holds more than was allowed; `size` is what `fstat` said, or the bytes seen so far.
        case tooLarge(size: Int)
    }

    /// A regular file of at most `maxBytes` bytes (a sidecar, a ratings file). Its size is
    /// checked on the open descriptor before anything is allocated, and no more than
    /// `maxBytes + 1` bytes are ever read, so a file that grows meanwhile cannot make the read
    /// unbounded. A missing path is `.absent`; other failures (permissions, a directory, a
    /// device) are the system's reason.
    static func readSmallFile(_ path: FilePath, maxBytes: Int) -> Result<SmallFile, SystemFailure> {
        let fd: Int32, size: Int
        switch openRegular(path.bytes) {
        case .failure(let failure):
            let missing = failure == SystemFailure(code: ENOENT) || failure == SystemFailure(code: ENOTDIR)
            return missing ? .success(.absent) : .failure(failure)
        case .success(let opened): (fd, size) = (opened.fd, opened.size)
        }
        defer { close(fd) }
        guard size <= maxBytes else { return .success(.tooLarge(size: size)) }
        let capacity = min(maxBytes, size) + 1
        let bytes: [UInt8]
        switch readPiece(fd, upTo: capacity) {
        case .failure(let failure): return .failure(failure)
        case .success(let piece): bytes = piece.bytes
        }
        return .success(bytes.count > maxBytes ? .tooLarge(size: bytes.count) : .bytes(bytes))
    }
}
