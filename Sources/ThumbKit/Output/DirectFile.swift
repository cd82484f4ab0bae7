import Glibc

/// Writes a file once, sequentially, under its final name: no temporary file, no rename.
///
/// For object-store mounts (Mountpoint for Amazon S3 refuses `rename`; FUSE file systems such as
/// gcsfuse reject writes out of order or to a file opened twice). A reader may see the file
/// while it is being written, and a killed process may leave it short, so completion is what the
/// manifest records, not the file's existence: an output the manifest does not list with its
/// hash is rebuilt by the next run. On a failed write the partial file is removed (if it can be).
package enum DirectFile {
    /// Writes `bytes` to `path`, creating missing parent directories; with `sync`, flushed to disk
    /// before it returns.
    package static func write(_ bytes: [UInt8], to path: FilePath, sync: Bool) throws(FileWriteError) {
        var st = stat()
        if path.withCString({ stat($0, &st) }) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw .destinationIsDirectory }
        try AtomicFile.createDirectories(path.directory)
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw failure("create \(path)") }
        var written = 0
        var error: FileWriteError?
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                error = failure("write \(path)")
                break
            }
            written += n
        }
        if error == nil && sync && fsync(fd) != 0 && errno != EINVAL { error = failure("sync \(path)") }
        if close(fd) != 0 && error == nil { error = failure("close \(path)") }
        if let error {
            _ = path.withCString { unlink($0) }
            throw error
        }
    }

    private static func failure(_ operation: String) -> FileWriteError {
        .failed(operation: operation, reason: String(cString: strerror(errno)), code: errno)
    }
}
