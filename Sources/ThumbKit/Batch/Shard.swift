/// One deterministic slice of a batch, so that N machines (or N processes) can split the work.
///
/// An item belongs to shard K of N when the first 8 bytes of the SHA-256 of its path below its
/// input, read as a big-endian integer, are `K - 1` modulo N. The hash depends only on that
/// relative path, so the split is the same on every machine and every run, and every item is in
/// exactly one shard. Each shard writes its own manifest (`manifestName`); `Batch.check` reads
/// them all together.
package struct Shard: Sendable, Hashable {
    /// 1-based: the shard this run processes, in 1...count.
    package let index: Int
    /// How many shards the batch is split into; at least 1.
    package let count: Int

    /// Shard `index` of `count`; throws `BatchError.invalidShard` unless 1 <= index <= count.
    package init(index: Int, count: Int) throws(BatchError) {
        guard count >= 1, (1...count).contains(index) else { throw .invalidShard(index: index, count: count) }
        self.index = index
        self.count = count
    }

    /// The manifest file this shard writes: `thumbgen-manifest.K-of-N.json`.
    package var manifestName: String { "thumbgen-manifest.\(index)-of-\(count).json" }

    /// True when the item at `relativePath` (below its input) belongs to this shard.
    package func contains(relativePath: [UInt8]) -> Bool {
        Self.bucket(of: relativePath, count: count) == index - 1
    }

    /// The 0-based shard an item falls in.
    static func bucket(of relativePath: [UInt8], count: Int) -> Int {
        var hasher = SHA256()
        hasher.update(relativePath)
        let digest = hasher.finalize()
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count))
    }
}
