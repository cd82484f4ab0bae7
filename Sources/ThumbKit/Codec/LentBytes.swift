/// Encoded bytes a C reader reads in place. A Swift array's storage may move between calls, so
/// it is lent to the reader for the length of each call that reads (`rebase` points the reader at
/// it, then back at nil) instead of being copied into C memory.
struct LentBytes {
    /// The bytes, or nil when the reader reads a file.
    let bytes: [UInt8]?

    /// Runs a call that may read, with the bytes (if any) lent through `rebase`.
    func lend(via rebase: (UnsafePointer<UInt8>?) -> Void, _ body: () -> Int32) -> Int32 {
        guard let bytes else { return body() }
        return bytes.withUnsafeBufferPointer { source in
            rebase(source.baseAddress)
            defer { rebase(nil) }
            return body()
        }
    }
}
