/// The size in a JPEG's frame header, found by walking its marker segments from the start of image
/// and reading only their 4-byte headers (ITU T.81 §B.1.1): a preview's size is known, and its kind
/// checked, without reading it.
enum JPEGFrame {
    /// Marker segments walked before giving up (a real JPEG has a handful before its frame).
    static let maximumMarkers = 512

    /// The width and height of the JPEG at `offset`, `length` bytes long, when it is one that
    /// libjpeg-turbo 2.1 decodes: 8-bit baseline, extended or progressive Huffman (SOF0, SOF1,
    /// SOF2). Nil for anything else: no start of image, a lossless or arithmetic-coded frame (a DNG's
    /// sensor data is lossless JPEG), a scan before any frame, or a segment running out of range.
    static func size(in bytes: RAWBytes, offset: UInt64, length: UInt64) throws(DecodeError) -> (width: Int, height: Int)? {
        guard length >= 4, let start = try bytes.read(offset, 2), start == [0xFF, 0xD8] else { return nil }
        let end = offset + length
        var position = offset + 2
        for _ in 0..<maximumMarkers {
            guard position + 4 <= end, let head = try bytes.read(position, 4), head[0] == 0xFF else { return nil }
            let marker = head[1]
            // Fill bytes (0xFF) may precede a marker; standalone markers have no length.
            if marker == 0xFF { position += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }
            let segment = UInt64(ByteOrder.big.u16(head, 2))
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard segment >= 8, position + 9 <= end, let frame = try bytes.read(position, 9), frame[4] == 8 else { return nil }
                let height = Int(ByteOrder.big.u16(frame, 5)), width = Int(ByteOrder.big.u16(frame, 7))
                return width > 0 && height > 0 ? (width, height) : nil
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDA, 0xD9:
                return nil
            default:
                guard segment >= 2 else { return nil }
                position += 2 + segment
            }
        }
        return nil
    }
}
