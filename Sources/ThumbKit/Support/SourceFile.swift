import Glibc

/// A source opened once for one job: its stat data and its content hash come from this open
/// descriptor, and the decoder reads the same file through it. So the hash the manifest records
/// describes the file that was rendered even when the path is renamed over meanwhile, and a name
/// that is not UTF-8 (which no `String` path can reach) is decoded like any other.
package final class SourceFile: Sendable {
    /// The path it was opened at.
    package let path: FilePath
    /// The open file, which readers read by offset (`pread`), so none moves it for another.
    let descriptor: Int32
    /// What `fstat` said when it was opened.
    let status: FileSystem.Status

    /// Bytes hashed per read: large enough that system calls cost nothing next to hashing, small
    /// enough that a job's memory does not depend on the file's size.
    static let hashChunkBytes = 1 << 20

    private init(path: FilePath, descriptor: Int32, status: FileSystem.Status) {
        self.path = path
        self.descriptor = descriptor
        self.status = status
    }

    deinit { close(descriptor) }

    /// Opens a regular file (`FileSystem.openRegular`: a FIFO or device is refused, never read).
    package static func open(_ path: FilePath) -> Result<SourceFile, SystemFailure> {
        let fd: Int32
        switch FileSystem.openRegular(path.bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let opened): fd = opened.fd
        }
        switch FileSystem.status(descriptor: fd) {
        case .failure(let failure):
            close(fd)
            return .failure(failure)
        case .success(let status):
            return .success(SourceFile(path: path, descriptor: fd, status: status))
        }
    }

    /// SHA-256 of the whole file as lower-case hex, read from the start in `hashChunkBytes`
    /// pieces (`pread`, so no shared offset moves). With `maxBytes` > 0, a file holding more
    /// than that (one that grew since it was planned) is a failure, not an unbounded read.
    package func sha256(maxBytes: UInt64 = 0) -> Result<String, SystemFailure> {
        var hasher = SHA256()
        // No bigger than the file as opened (a larger one only takes more reads): a megabyte
        // zeroed and faulted in for every icon of a few kilobytes cost 5% of a batch of them.
        var buffer = [UInt8](repeating: 0, count: Int(min(UInt64(Self.hashChunkBytes), max(UInt64(status.size), 1))))
        var offset: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(SystemFailure.current())
            }
            if n == 0 { return .success(hasher.finalize().hexString) }
            offset += Int64(n)
            if maxBytes > 0 && UInt64(offset) > maxBytes {
                return .failure(SystemFailure(reason: "file grew past the limit of \(maxBytes) bytes"))
            }
            buffer.withUnsafeBufferPointer { hasher.update(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    /// True when `fstat` now gives another size, modification or change time than at `open`:
    /// the file was written to in place while it was hashed or decoded.
    package var changedSinceOpened: Bool {
        guard case .success(let now) = FileSystem.status(descriptor: descriptor) else { return true }
        return now.size != status.size || now.modificationNanoseconds != status.modificationNanoseconds
            || now.changeNanoseconds != status.changeNanoseconds
    }
}

extension SourceFile: Hashable {
    /// An open file is the same source only as itself: two opens of one path may read different files.
    package static func == (a: SourceFile, b: SourceFile) -> Bool { a === b }

    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
