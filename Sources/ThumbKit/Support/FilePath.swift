/// A path as the kernel sees it: bytes, any but NUL, with `/` between components.
///
/// Linux names need not be UTF-8, and a `String` made from such a name replaces the bad bytes with
/// U+FFFD, so the file could never be opened again under that `String`. The batch keeps every
/// path it walks, plans, opens and writes as a `FilePath`, and turns it into text only to print it
/// or to store it in the manifest, both through `PathEscaping`, which maps back to the same bytes.
package struct FilePath: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    package var bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The path whose bytes are the string's UTF-8.
    package init(_ string: String) { self.bytes = Array(string.utf8) }

    package init(stringLiteral value: String) { self.init(value) }

    /// The path as text when its bytes are valid UTF-8, else nil.
    package var string: String? { PathEscaping.validString(bytes) }

    /// The path escaped to print on one line (`PathEscaping.escape`).
    package var description: String { PathEscaping.escape(bytes: bytes) }

    package var isEmpty: Bool { bytes.isEmpty }

    /// The bytes hashed as one block: an array's own hashing feeds the hasher a byte at a time,
    /// and planning a batch hashes every source and output path several times (0.5% of
    /// thumbnailing 406 small icons).
    /// The length goes first so that paths hashed one after another (a pair's) stay apart.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Byte-wise order, the order of every walk, plan and manifest.
    package static func < (a: FilePath, b: FilePath) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    /// `self/relative`, with exactly one slash between them.
    package func appending(_ relative: FilePath) -> FilePath {
        if bytes.isEmpty { return relative }
        return FilePath(bytes.last == FilePath.slash ? bytes + relative.bytes : bytes + [FilePath.slash] + relative.bytes)
    }

    /// Everything before the last slash (empty when there is none; `/` for a path in the root).
    package var directory: FilePath {
        guard let slash = bytes.lastIndex(of: FilePath.slash) else { return FilePath([UInt8]()) }
        return slash == 0 ? FilePath([FilePath.slash]) : FilePath(Array(bytes[..<slash]))
    }

    /// The last component: everything after the last slash.
    package var lastComponent: FilePath {
        guard let slash = bytes.lastIndex(of: FilePath.slash) else { return self }
        return FilePath(Array(bytes[(slash + 1)...]))
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    package func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    static let slash = UInt8(ascii: "/")
}
