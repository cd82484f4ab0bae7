/// Limits a decoder enforces against hostile files, all checked before large allocations.
///
/// Defaults: 250 megapixels (a 200 MP phone photo passes), width and height at most 2^24,
/// one ancillary chunk (or its decompressed profile) at most 8 MiB, at most 1,000 ancillary chunks
/// kept, and no limit on file size. Zero means "no limit" for `maxPixels` and `maxFileBytes`.
public struct DecodeLimits: Sendable, Hashable {
    /// Largest `width * height` accepted (`--max-pixels`); 0 = none.
    public var maxPixels: UInt64
    /// Largest width and height accepted (libpng's user limits).
    public var maxDimension: UInt32
    /// Largest single ancillary chunk, and largest decompressed iCCP/zTXt, in bytes.
    public var maxChunkBytes: UInt64
    /// How many ancillary chunks are kept before further ones are an error.
    public var maxAncillaryChunks: UInt32
    /// Largest number of bytes read from one file (`--max-file-bytes`); 0 = none.
    public var maxFileBytes: UInt64
    /// Bytes one thumbnail job may plan to hold (`--max-memory`): an image whose decode and
    /// outputs would need more is refused from its header, before anything large is allocated;
    /// libjpeg is held to it too. 0 = none.
    public var maxMemory: UInt64

    /// Limits with thumbgen's defaults unless given.
    public init(maxPixels: UInt64 = 250_000_000, maxDimension: UInt32 = 1 << 24,
                maxChunkBytes: UInt64 = 8 << 20, maxAncillaryChunks: UInt32 = 1000,
                maxFileBytes: UInt64 = 0, maxMemory: UInt64 = 0) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxChunkBytes = maxChunkBytes
        self.maxAncillaryChunks = maxAncillaryChunks
        self.maxFileBytes = maxFileBytes
        self.maxMemory = maxMemory
    }

    /// The command line's defaults.
    public static let `default` = DecodeLimits()
}
