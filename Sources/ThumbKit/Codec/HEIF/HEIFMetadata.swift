import CLibHEIF

/// The XMP and EXIF blocks of a HEIF file's primary image, read with the header.
enum HEIFMetadata {
    /// Both blocks, each nil when absent or larger than `EmbeddedMetadata.maximumBytes`. libheif
    /// may read an item's data through the reader, so the bytes are lent for each call.
    static func read(_ reader: CodecReader) -> EmbeddedMetadata {
        EmbeddedMetadata(xmp: block(reader, kind: Int32(TG_HEIF_METADATA_XMP)), exif: block(reader, kind: Int32(TG_HEIF_METADATA_EXIF)))
    }

    private static func block(_ reader: CodecReader, kind: Int32) -> [UInt8]? {
        var buffer = tg_buffer()
        defer { tg_buffer_free(&buffer) }
        let found = reader.lending { tg_heif_metadata($0, kind, EmbeddedMetadata.maximumBytes, &buffer) }
        guard found != 0, let data = buffer.data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
