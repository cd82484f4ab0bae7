/// One image file directory of a TIFF-shaped camera RAW (TIFF 6.0 §2), its entries by tag, as far
/// as finding a preview needs: values are read on demand through `TIFFContainer`.
struct TIFFDirectory {
    /// One 12-byte entry: its field type, value count and 4-byte value field (the value itself
    /// when it fits, else the offset of the values).
    struct Entry {
        let type: UInt16
        let count: UInt32
        let field: [UInt8]
    }

    /// Where it was found, as `thumbgen info` names it: "IFD0", "IFD1", "SubIFD 1", "EXIF IFD".
    let name: String
    let entries: [UInt16: Entry]

    /// TIFF and DNG tags read here.
    enum Tag {
        static let compression: UInt16 = 259
        static let photometric: UInt16 = 262
        static let make: UInt16 = 271
        static let stripOffsets: UInt16 = 273
        static let orientation: UInt16 = 274
        static let stripByteCounts: UInt16 = 279
        static let tileOffsets: UInt16 = 324
        static let tileByteCounts: UInt16 = 325
        static let subIFDs: UInt16 = 330
        static let jpegOffset: UInt16 = 513
        static let jpegLength: UInt16 = 514
        static let xmp: UInt16 = 700
        static let rating: UInt16 = 0x4746
        static let exifIFD: UInt16 = 34665
        static let dngVersion: UInt16 = 50706
        /// Panasonic RW2's JpgFromRaw: the preview JPEG as the entry's own (UNDEFINED) data.
        static let panasonicJPEG: UInt16 = 0x002E
    }
}

/// The directories of a TIFF-shaped camera RAW (DNG, CR2, NEF, ARW, PEF, SRW, and ORF and RW2
/// with their own magic numbers), walked in a fixed order with every offset checked: IFD0, its
/// SubIFDs (tag 330) and EXIF IFD (34665), then the next directories of the chain (IFD1, …) with
/// theirs. A directory already visited is not visited again (a loop ends the walk), and at most
/// `maximumDirectories` are read. MakerNotes are not parsed here (an ORF's: `OlympusMakerNote`).
struct TIFFContainer {
    /// Directories read at most: cameras write fewer than a dozen.
    static let maximumDirectories = 64
    /// Entries a directory may have: TIFF allows 65,535, cameras write under 100.
    static let maximumEntries = 4096
    /// Values of one array tag read at most (SubIFD offsets, strip offsets).
    static let maximumValues = 4096

    let bytes: RAWBytes
    let order: ByteOrder
    /// The TIFF magic number: 42, or ORF's 0x4F52 / 0x5352, or RW2's 0x55.
    let magic: UInt16
    /// Bytes 8 and 9 of the file: "CR" in a CR2.
    let marker: [UInt8]
    private let firstDirectory: UInt64

    /// The container's header, or nil when it is not a classic TIFF-shaped header.
    init?(_ bytes: RAWBytes) throws(DecodeError) {
        let head = try bytes.input.bytes(at: 0, count: 10)
        guard head.count >= 8 else { return nil }
        switch (head[0], head[1]) {
        case (0x49, 0x49): order = ByteOrder(littleEndian: true)
        case (0x4D, 0x4D): order = .big
        default: return nil
        }
        magic = order.u16(head, 2)
        guard [42, 0x4F52, 0x5352, 0x55].contains(magic) else { return nil }
        self.bytes = bytes
        marker = Array(head.dropFirst(8))
        firstDirectory = UInt64(order.u32(head, 4))
    }

    /// Every directory reachable as the walk goes, in its order. IFD0 itself must be readable.
    func directories() throws(DecodeError) -> [TIFFDirectory] {
        var walk = Walk()
        var next: UInt64? = firstDirectory
        var index = 0
        while let offset = next, offset != 0, walk.visited.count < TIFFContainer.maximumDirectories {
            guard let read = try directory(at: offset, name: "IFD\(index)", walk: &walk) else {
                if index == 0 { throw .corrupt(.raw, reason: "IFD0 at offset \(offset) lies outside the \(bytes.size)-byte file") }
                break
            }
            if let subIFDs = read.directory.entries[TIFFDirectory.Tag.subIFDs] {
                for (number, sub) in try values(subIFDs).enumerated() {
                    let name = index == 0 ? "SubIFD \(number)" : "IFD\(index) SubIFD \(number)"
                    _ = try directory(at: UInt64(sub), name: name, walk: &walk)
                }
            }
            if index == 0, let exif = read.directory.entries[TIFFDirectory.Tag.exifIFD], let offset = try values(exif).first {
                _ = try directory(at: UInt64(offset), name: "EXIF IFD", walk: &walk)
            }
            next = read.next
            index += 1
        }
        return walk.found
    }

    private struct Walk {
        var visited: Set<UInt64> = []
        var found: [TIFFDirectory] = []
    }

    /// Reads the directory at `offset` into the walk; nil when it lies outside the file, was
    /// visited already or the walk is full.
    private func directory(at offset: UInt64, name: String, walk: inout Walk) throws(DecodeError) -> (directory: TIFFDirectory, next: UInt64)? {
        guard walk.visited.count < TIFFContainer.maximumDirectories, walk.visited.insert(offset).inserted,
              let (entries, count) = try Self.entries(bytes, order, at: offset) else { return nil }
        // A missing next-directory offset (a file cut off there) ends the chain.
        let next = try bytes.read(offset + 2 + UInt64(count) * 12, 4).map { UInt64(order.u32($0, 0)) } ?? 0
        let directory = TIFFDirectory(name: name, entries: entries)
        walk.found.append(directory)
        return (directory, next)
    }

    /// The entries of the directory at `offset` by tag, and how many the table holds; nil when it
    /// does not lie inside the file or holds more than `maximumEntries`. The first of a tag
    /// counts, as libtiff reads it. (Olympus MakerNotes are directories of the same shape.)
    static func entries(_ bytes: RAWBytes, _ order: ByteOrder, at offset: UInt64) throws(DecodeError) -> (entries: [UInt16: TIFFDirectory.Entry], count: Int)? {
        guard let countBytes = try bytes.read(offset, 2) else { return nil }
        let count = Int(order.u16(countBytes, 0))
        guard count <= maximumEntries, let table = try bytes.read(offset + 2, count * 12) else { return nil }
        var entries: [UInt16: TIFFDirectory.Entry] = [:]
        for index in 0..<count {
            let at = index * 12
            let tag = order.u16(table, at)
            if entries[tag] == nil {
                entries[tag] = TIFFDirectory.Entry(type: order.u16(table, at + 2), count: order.u32(table, at + 4),
                                                   field: Array(table[at + 8..<at + 12]))
            }
        }
        return (entries, count)
    }

    /// Bytes per value of a TIFF field type (TIFF 6.0 §2, TIFF 6.0 supplement: IFD = 13); 0 for
    /// types not read here.
    static func typeSize(_ type: UInt16) -> UInt64 {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// Where an entry's data lies: in its own value field when it fits in 4 bytes, else at the
    /// offset the field holds. Nil for an unknown type or a range outside the file.
    func dataRange(_ entry: TIFFDirectory.Entry) -> (offset: UInt64, length: UInt64)? {
        let size = TIFFContainer.typeSize(entry.type)
        guard size > 0 else { return nil }
        let length = size * UInt64(entry.count)
        guard length > 4 else { return nil }
        let offset = UInt64(order.u32(entry.field, 0))
        return bytes.contains(offset, length) ? (offset, length) : nil
    }

    /// An entry's SHORT, LONG or IFD values (at most `maximumValues`); empty when they cannot be read.
    func values(_ entry: TIFFDirectory.Entry) throws(DecodeError) -> [UInt32] {
        let size = Int(TIFFContainer.typeSize(entry.type))
        guard [3, 4, 13].contains(entry.type), entry.count >= 1, entry.count <= TIFFContainer.maximumValues else { return [] }
        let count = Int(entry.count)
        let data: [UInt8]
        if size * count <= 4 {
            data = entry.field
        } else {
            guard let range = dataRange(entry), let read = try bytes.read(range.offset, Int(range.length)) else { return [] }
            data = read
        }
        return (0..<count).map { size == 2 ? UInt32(order.u16(data, $0 * 2)) : order.u32(data, $0 * 4) }
    }

    /// The first value of a SHORT or LONG entry.
    func value(_ directory: TIFFDirectory, _ tag: UInt16) throws(DecodeError) -> UInt32? {
        guard let entry = directory.entries[tag], entry.count >= 1, [3, 4].contains(entry.type) else { return nil }
        return try values(TIFFDirectory.Entry(type: entry.type, count: 1, field: entry.field)).first
    }

    /// An entry's bytes (ASCII, BYTE or UNDEFINED data), when they are at most `maximum` long.
    func data(_ entry: TIFFDirectory.Entry, maximum: Int) throws(DecodeError) -> [UInt8]? {
        let length = TIFFContainer.typeSize(entry.type) * UInt64(entry.count)
        guard length > 0, length <= UInt64(maximum) else { return nil }
        if length <= 4 { return Array(entry.field.prefix(Int(length))) }
        guard let range = dataRange(entry) else { return nil }
        return try bytes.read(range.offset, Int(range.length))
    }
}
