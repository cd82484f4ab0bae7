/// What the manifest remembers about a source, to decide whether its outputs are up to date.
///
/// The authority is `sha256`, the SHA-256 of the source's bytes: only a content change forces a
/// rebuild, so copying, touching or restoring a tree from backup costs a re-hash but never a
/// re-render. Hashing every source on every run would make a no-op run as slow as reading the
/// whole tree, so the stat fields are a shortcut (git's index does the same): when size,
/// modification time, change time and inode all equal the recorded ones, the recorded hash is
/// trusted without reading the file. `ctime` cannot be set by `touch -m` or `utimes`, so a
/// rewrite that restores mtime is still noticed.
package struct SourceFingerprint: Sendable, Equatable {
    /// SHA-256 of the source file's bytes, lower-case hex.
    package var sha256: String
    /// Size in bytes.
    package var size: Int64
    /// Modification time, nanoseconds since the epoch.
    package var modifiedNanoseconds: Int64
    /// Status-change time, nanoseconds since the epoch.
    package var changedNanoseconds: Int64
    /// Inode number.
    package var inode: UInt64

    package init(sha256: String, size: Int64, modifiedNanoseconds: Int64, changedNanoseconds: Int64, inode: UInt64) {
        self.sha256 = sha256
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
        self.inode = inode
    }

    init(sha256: String, status: FileSystem.Status) {
        self.init(sha256: sha256, size: status.size, modifiedNanoseconds: status.modificationNanoseconds,
                  changedNanoseconds: status.changeNanoseconds, inode: status.inode)
    }

    /// True when the stat fields match, so `sha256` can be trusted without reading the file.
    func statMatches(_ status: FileSystem.Status) -> Bool {
        size == status.size && modifiedNanoseconds == status.modificationNanoseconds
            && changedNanoseconds == status.changeNanoseconds && inode == status.inode
    }
}
