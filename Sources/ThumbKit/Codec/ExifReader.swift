/// Reads the few EXIF fields thumbgen uses from a TIFF structure (the payload of a JPEG APP1
/// `Exif` marker after its identifier, or of a PNG `eXIf` chunk): the orientation, the star
/// rating and the capture time.
///
/// Both byte orders (`II` little-endian, `MM` big-endian) are read. Every offset is checked
/// against the data's bounds; anything malformed reads as "absent", never as a failure, because
/// metadata must not stop a thumbnail.
package struct ExifReader: Sendable {
    private let bytes: [UInt8]
    private let littleEndian: Bool

    /// EXIF/TIFF tag numbers read here.
    enum Tag: UInt16 {
        case orientation = 0x0112
        /// Microsoft's `Rating` (0–5 stars), which Windows Explorer, Lightroom and exiftool write.
        case rating = 0x4746
        /// The pointer from IFD0 to the EXIF IFD, where the camera's own fields are.
        case exifIFD = 0x8769
        /// `DateTimeOriginal` (36867) in the EXIF IFD: when the shutter fired, camera local time.
        case dateTimeOriginal = 0x9003
    }

    /// TIFF field types the rating may be stored as.
    enum FieldType: UInt16 {
        case ascii = 2, short = 3, long = 4, signedShort = 8, signedLong = 9
    }

    /// A reader over a TIFF structure, or nil when the header is not `II*\0` / `MM\0*`.
    package init?(tiff bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x49 && bytes[1] == 0x49 && bytes[2] == 0x2A && bytes[3] == 0 {
            littleEndian = true
        } else if bytes[0] == 0x4D && bytes[1] == 0x4D && bytes[2] == 0 && bytes[3] == 0x2A {
            littleEndian = false
        } else {
            return nil
        }
        self.bytes = bytes
    }

    /// The orientation in IFD0, or nil when absent or not 1…8.
    package var orientation: Orientation? {
        guard let value = shortValue(of: .orientation) else { return nil }
        return Orientation(rawValue: Int(value))
    }

    /// The star rating in IFD0, or nil when absent or not a rating (see `rating(type:raw:)`).
    package var rating: Rating? {
        guard let entry = entry(of: .rating), let raw = u32(at: entry.valueOffset) else { return nil }
        // A SHORT sits left-justified in the 4-byte value field.
        let isShort = entry.type == FieldType.short.rawValue || entry.type == FieldType.signedShort.rawValue
        return ExifReader.rating(type: entry.type, raw: isShort ? UInt32(u16(at: entry.valueOffset) ?? 0) : raw)
    }

    /// The rating a stored `Rating` value stands for, given its TIFF type and its bits
    /// (zero-extended). The tag is a SHORT (Microsoft's definition; some writers use LONG, or a
    /// signed type): 0–5 are stars, −1 is rejected as in XMP. −1 cannot be written into an
    /// unsigned SHORT or LONG, so tools that write it anyway store all ones (0xFFFF, 0xFFFFFFFF):
    /// that is taken as rejected too. Any other value, or another type, is no rating.
    package static func rating(type: UInt16, raw: UInt32) -> Rating? {
        let value: Int64
        switch FieldType(rawValue: type) {
        case .short: value = raw == 0xFFFF ? -1 : Int64(raw & 0xFFFF)
        case .long: value = raw == 0xFFFF_FFFF ? -1 : Int64(raw)
        case .signedShort: value = Int64(Int16(truncatingIfNeeded: raw))
        case .signedLong: value = Int64(Int32(bitPattern: raw))
        case .ascii, nil: return nil
        }
        return Rating(storedValue: Double(value))
    }

    /// `DateTimeOriginal` from the EXIF IFD as stored, `YYYY:MM:DD HH:MM:SS` (19 characters, which
    /// sort in time order), or nil when absent, not ASCII of that shape, or all blanks and zeros
    /// (how cameras without a clock write "unknown").
    package var dateTimeOriginal: String? {
        guard let pointer = entry(of: .exifIFD), let exif = u32(at: pointer.valueOffset).map(Int.init),
              let date = entry(of: .dateTimeOriginal, inIFDAt: exif), date.type == FieldType.ascii.rawValue,
              let count = u32(at: date.valueOffset - 4).map(Int.init), count >= 19 else { return nil }
        // Twenty bytes do not fit the 4-byte value field: it holds their offset.
        guard let start = u32(at: date.valueOffset).map(Int.init), start >= 0, start <= bytes.count - 19 else { return nil }
        let text = bytes[start ..< start + 19]
        let shape = Array("dddd:dd:dd dd:dd:dd".utf8)
        for (byte, expected) in zip(text, shape) {
            let digit = (0x30...0x39).contains(byte)
            guard expected == UInt8(ascii: "d") ? digit : byte == expected else { return nil }
        }
        guard text.contains(where: { $0 != 0x30 && $0 != 0x3A && $0 != 0x20 }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of a SHORT (type 3) tag with one value in IFD0.
    private func shortValue(of tag: Tag) -> UInt16? {
        guard let entry = entry(of: tag), entry.type == FieldType.short.rawValue else { return nil }
        return u16(at: entry.valueOffset)
    }

    /// The first IFD0 entry with `tag` and at least one value: its type and where its 4-byte
    /// value field is (a single SHORT or LONG is stored there, not behind an offset).
    private func entry(of tag: Tag) -> (type: UInt16, valueOffset: Int)? {
        guard let ifd = u32(at: 4).map(Int.init) else { return nil }
        return entry(of: tag, inIFDAt: ifd)
    }

    /// The first entry with `tag` and at least one value in the IFD at byte `ifd`.
    private func entry(of tag: Tag, inIFDAt ifd: Int) -> (type: UInt16, valueOffset: Int)? {
        guard let count = u16(at: ifd).map(Int.init) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let number = u16(at: entry), let type = u16(at: entry + 2), let values = u32(at: entry + 4) else {
                return nil
            }
            // Entries are sorted by tag (TIFF 6.0 §2), but writers get this wrong: scan them all.
            if number == tag.rawValue {
                guard values >= 1 else { return nil }
                return (type, entry + 8)
            }
        }
        return nil
    }

    private func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    private func u32(at offset: Int) -> UInt32? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        return littleEndian ? UInt32(first) | UInt32(second) << 16 : UInt32(first) << 16 | UInt32(second)
    }
}
