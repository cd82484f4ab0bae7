/// A Canon CR3 file (ISO/IEC 14496-12 boxes): its previews, its IFD0 and its XMP, found by walking
/// box headers only, every size checked against its parent's end.
///
/// Canon's layout (as exiftool and LibRaw read it): a top-level `uuid` box
/// eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16 holds, after its UUID and 8 bytes, the `PRVW` box (a
/// 1620×1080 JPEG: after its header, 4 + 2 bytes, width and height, 2 bytes, the JPEG's length
/// (u32), then the JPEG); `moov` holds the `uuid` box 85c0b687-820f-11e0-8111-f4ce462b6a48 whose
/// `THMB` box is a 160×120 thumbnail (version and flags, width, height, length (u32), 4 bytes, the
/// JPEG) and whose `CMT1` box is IFD0 as a TIFF structure. XMP is in the top-level `uuid` box
/// be7acfcb-97a9-42e8-9c71-999491e3afac. Integers are big-endian.
struct CR3Container {
    static let previewUUID: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]
    static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
    static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]
    /// Boxes read at most on one level.
    static let maximumBoxes = 1024

    /// One box: its type and where its payload (after the header) starts and ends.
    struct Box {
        let type: String
        let start: UInt64
        let end: UInt64
    }

    private(set) var previews: RAWPreview.Search
    /// The `CMT1` box: IFD0 as a TIFF structure (orientation, rating).
    private(set) var ifd0: [UInt8]?
    private(set) var xmp: [UInt8]?

    init(_ bytes: RAWBytes) throws(DecodeError) {
        previews = RAWPreview.Search(bytes)
        for box in try CR3Container.boxes(bytes, from: 0, to: bytes.size) {
            switch box.type {
            case "moov":
                for child in try CR3Container.boxes(bytes, from: box.start, to: box.end) where child.type == "uuid" {
                    guard child.end - child.start >= 16, try bytes.read(child.start, 16) == CR3Container.canonUUID else { continue }
                    for item in try CR3Container.boxes(bytes, from: child.start + 16, to: child.end) {
                        if item.type == "THMB" {
                            try CR3Container.preview(bytes, item, lengthAt: 8, origin: "THMB box", into: &previews)
                        } else if item.type == "CMT1", item.end - item.start <= UInt64(EmbeddedMetadata.maximumBytes) {
                            ifd0 = try bytes.read(item.start, Int(item.end - item.start))
                        }
                    }
                }
            case "uuid":
                guard box.end - box.start >= 16 else { continue }
                let uuid = try bytes.read(box.start, 16)
                if uuid == CR3Container.previewUUID, box.end - box.start >= 24 {
                    for item in try CR3Container.boxes(bytes, from: box.start + 24, to: box.end) where item.type == "PRVW" {
                        try CR3Container.preview(bytes, item, lengthAt: 12, origin: "PRVW box", into: &previews)
                    }
                } else if uuid == CR3Container.xmpUUID, box.end - box.start - 16 <= UInt64(EmbeddedMetadata.maximumBytes) {
                    xmp = try bytes.read(box.start + 16, Int(box.end - box.start - 16))
                }
            default:
                break
            }
        }
    }

    /// The JPEG a `PRVW` or `THMB` box holds from its 16th byte, its length a u32 at `lengthAt`,
    /// when it lies inside the box.
    private static func preview(_ bytes: RAWBytes, _ box: Box, lengthAt: UInt64, origin: String,
                                into search: inout RAWPreview.Search) throws(DecodeError) {
        guard box.end - box.start >= 16, let field = try bytes.read(box.start + lengthAt, 4) else { return }
        let length = UInt64(ByteOrder.big.u32(field, 0))
        guard length <= box.end - box.start - 16 else { return }
        try search.add(offset: box.start + 16, length: length, origin: origin)
    }

    /// The boxes from `start` to `end` (ISO/IEC 14496-12 §4.2: a 32-bit size, or 1 and a 64-bit
    /// size after the type, or 0 for "to the end"); the walk stops at the first box that does not fit.
    static func boxes(_ bytes: RAWBytes, from start: UInt64, to end: UInt64) throws(DecodeError) -> [Box] {
        var found: [Box] = []
        var position = start
        while position + 8 <= end, found.count < maximumBoxes, let header = try bytes.read(position, 8) {
            var size = UInt64(ByteOrder.big.u32(header, 0))
            var headerSize: UInt64 = 8
            if size == 1 {
                guard position + 16 <= end, let large = try bytes.read(position + 8, 8) else { break }
                size = ByteOrder.big.u64(large, 0)
                headerSize = 16
            } else if size == 0 {
                size = end - position
            }
            guard size >= headerSize, size <= end - position else { break }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            found.append(Box(type: type, start: position + headerSize, end: position + size))
            position += size
        }
        return found
    }
}
