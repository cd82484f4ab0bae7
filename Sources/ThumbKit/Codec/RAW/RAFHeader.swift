/// A Fujifilm RAF file's header: "FUJIFILMCCD-RAW", then at bytes 84 and 88 the offset and length
/// of the embedded JPEG (big-endian u32), the camera's full EXIF inside it (as LibRaw and exiftool
/// read it).
enum RAFHeader {
    static func previews(_ bytes: RAWBytes) throws(DecodeError) -> RAWPreview.Search {
        guard let fields = try bytes.read(84, 8) else { throw .truncated }
        var search = RAWPreview.Search(bytes)
        try search.add(offset: UInt64(ByteOrder.big.u32(fields, 0)), length: UInt64(ByteOrder.big.u32(fields, 4)), origin: "RAF header")
        return search
    }
}
