/// The preview an Olympus ORF keeps in its MakerNote, as exiftool (`Olympus::CameraSettings`) and
/// dcraw read it: an ORF's IFD1 holds only a 160x120 thumbnail.
///
/// The EXIF IFD's MakerNote (37500) begins "OLYMPUS\0", a byte order ("II" or "MM") and a version;
/// its IFD is at byte 12 and every offset in it counts from the MakerNote's start. Older ones begin
/// "OLYMP\0", their IFD at byte 8 in the file's byte order, offsets counted from the TIFF header.
/// The IFD's CameraSettings (0x2020: an IFD, or its data inline) has PreviewImageStart (0x101) and
/// PreviewImageLength (0x102). Every offset is checked as `TIFFContainer`'s are.
enum OlympusMakerNote {
    enum Tag {
        static let makerNote: UInt16 = 0x927C
        static let cameraSettings: UInt16 = 0x2020
        static let previewStart: UInt16 = 0x0101
        static let previewLength: UInt16 = 0x0102
    }

    /// Adds the MakerNote's preview, when `exif` (the EXIF IFD) has an Olympus MakerNote with one.
    static func previews(_ container: TIFFContainer, exif: TIFFDirectory, into search: inout RAWPreview.Search) throws(DecodeError) {
        guard let entry = exif.entries[Tag.makerNote], let note = container.dataRange(entry), note.length >= 16,
              let head = try container.bytes.read(note.offset, 12) else { return }
        let order: ByteOrder
        let directory: UInt64
        let base: UInt64
        if head.starts(with: Array("OLYMPUS\0".utf8)) {
            switch (head[8], head[9]) {
            case (0x49, 0x49): order = ByteOrder(littleEndian: true)
            case (0x4D, 0x4D): order = .big
            default: return
            }
            (directory, base) = (note.offset + 12, note.offset)
        } else if head.starts(with: Array("OLYMP\0".utf8)) {
            (order, directory, base) = (container.order, note.offset + 8, 0)
        } else {
            return
        }
        // CameraSettings: an IFD (type 13 or LONG) at the offset its value holds, or its bytes
        // (UNDEFINED) at that offset: either way, there.
        guard let main = try TIFFContainer.entries(container.bytes, order, at: directory)?.entries,
              let settings = main[Tag.cameraSettings], [4, 7, 13].contains(settings.type), settings.count >= 1,
              let sub = try TIFFContainer.entries(container.bytes, order, at: base + UInt64(order.u32(settings.field, 0)))?.entries,
              let start = sub[Tag.previewStart], let length = sub[Tag.previewLength],
              start.type == 4, start.count == 1, length.type == 4, length.count == 1 else { return }
        try search.add(offset: base + UInt64(order.u32(start.field, 0)), length: UInt64(order.u32(length.field, 0)),
                       origin: "Olympus MakerNote")
    }
}
