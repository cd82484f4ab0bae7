import Glibc

/// Files whose names are raw bytes (any Linux name, UTF-8 or not), made through the POSIX calls,
/// which take names as bytes where Foundation takes `String`s.
package enum RawName {
    /// `path` as the NUL-terminated C string the POSIX calls take.
    package static func cPath(_ path: [UInt8]) -> [CChar] { path.map { CChar(bitPattern: $0) } + [0] }

    /// Creates (or empties) the file named `path` and writes `contents` into it.
    package static func write(_ contents: [UInt8], at path: [UInt8]) {
        let fd = open(cPath(path), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create test file")
        _ = contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
