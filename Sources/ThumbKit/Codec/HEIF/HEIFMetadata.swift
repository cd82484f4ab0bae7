import CLibHEIF

/// The XMP and EXIF blocks of a HEIF file's primary image, read with the header.
enum HEIFMetadata {
    /// Both blocks, each nil when absent or larger than `EmbeddedMetadata.maximumBytes`. libheif
    /// may read an item's data through the reader, so the bytes are lent for each call.
    static func read(_ reader: OpaquePointer, lent: LentBytes) -> EmbeddedMetadata {
        EmbeddedMetadata(xmp: block(reader, kind: Int32(TG_HEIF_METADATA_XMP), lent: lent),
                         exif: block(reader, kind: Int32(TG_HEIF_METADATA_EXIF), lent: lent))
    }

    private static func block(_ reader: OpaquePointer, kind: Int32, lent: LentBytes) -> [UInt8]? {
        var buffer = tg_buffer()
        defer { tg_buffer_free(&buffer) }
        let found = lent.lend(via: { tg_heif_rebase_memory(reader, $0) }) {
            tg_heif_metadata(reader, kind, EmbeddedMetadata.maximumBytes, &buffer)
        }
        guard found != 0, let data = buffer.data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
