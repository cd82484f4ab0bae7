/// A TIFF-shaped camera RAW (DNG, CR2, NEF, ARW, PEF, SRW, ORF, RW2): what kind it is, its JPEG
/// previews and its own orientation and rating, from its directories (`TIFFContainer`).
///
/// **Which TIFFs are RAWs.** A file with TIFF's header is a camera RAW when any of these holds, and
/// else a TIFF (a TIFF with a JPEG thumbnail among its directories stays a TIFF):
/// - bytes 8–9 are "CR" (Canon's CR2 marker);
/// - IFD0 has DNGVersion (50706);
/// - a directory of the walk has PhotometricInterpretation CFA (32803) or LinearRaw (34892): the
///   sensor's data, which no TIFF reader shows as a picture;
/// - a directory has a vendor's raw Compression: 32767 (Sony), 32769, 32770, 32772 (Nikon, Samsung
///   packed), 34316 (Panasonic), 34713 (Nikon NEF), 65000 (Kodak), 65535 (Pentax).
struct TIFFRAW {
    static let rawPhotometrics: Set<UInt32> = [32803, 34892]
    static let rawCompressions: Set<UInt32> = [32767, 32769, 32770, 32772, 34316, 34713, 65000, 65535]
    /// JPEG compression: 6 (old-style and Adobe's), 7 (TIFF Technical Note 2 and DNG).
    static let jpegCompressions: Set<UInt32> = [6, 7]

    let container: TIFFContainer
    let directories: [TIFFDirectory]

    init?(_ bytes: RAWBytes) throws(DecodeError) {
        guard let container = try TIFFContainer(bytes) else { return nil }
        self.container = container
        directories = try container.directories()
    }

    /// Whether the file is a camera RAW by the rule above.
    var isRAW: Bool {
        if container.magic != 42 || container.marker == Array("CR".utf8) { return true }
        if directories.first?.entries[TIFFDirectory.Tag.dngVersion] != nil { return true }
        return directories.contains { directory in
            // `try?` flattens: a value that cannot be read is no value.
            let photometric = try? container.value(directory, TIFFDirectory.Tag.photometric)
            let compression = try? container.value(directory, TIFFDirectory.Tag.compression)
            return photometric.map { TIFFRAW.rawPhotometrics.contains($0) } == true
                || compression.map { TIFFRAW.rawCompressions.contains($0) } == true
        }
    }

    /// Whether the header carries Olympus's magic number ("IIRO", "MMOR" or "IIRS") instead of 42.
    var isORF: Bool { container.magic == 0x4F52 || container.magic == 0x5352 }

    /// The kind's usual name: from the header (CR2, ORF, RW2), DNGVersion, or IFD0's Make.
    var kind: String {
        if container.marker == Array("CR".utf8) { return "CR2" }
        if isORF { return "ORF" }
        if container.magic == 0x55 { return "RW2" }
        guard let ifd0 = directories.first else { return "RAW" }
        if ifd0.entries[TIFFDirectory.Tag.dngVersion] != nil { return "DNG" }
        let make = ifd0.entries[TIFFDirectory.Tag.make].flatMap { try? container.data($0, maximum: 64) }
            .map { String(decoding: $0, as: UTF8.self).uppercased() } ?? ""
        for (brand, kind) in [("NIKON", "NEF"), ("SONY", "ARW"), ("PENTAX", "PEF"), ("RICOH", "PEF"), ("SAMSUNG", "SRW")] where make.hasPrefix(brand) {
            return kind
        }
        return "RAW"
    }

    /// Every JPEG preview a directory points at, in the walk's order: JPEGInterchangeFormat and
    /// its length (513, 514), a single strip or tile of JPEG-compressed data (Compression 6 or 7),
    /// and Panasonic's JpgFromRaw (tag 46); then, in an ORF, the preview in its Olympus MakerNote.
    /// Directories of sensor data (CFA, LinearRaw) are skipped.
    func previews() throws(DecodeError) -> RAWPreview.Search {
        typealias Tag = TIFFDirectory.Tag
        var search = RAWPreview.Search(container.bytes)
        for directory in directories {
            if let photometric = try container.value(directory, Tag.photometric), TIFFRAW.rawPhotometrics.contains(photometric) { continue }
            var ranges: [(UInt64, UInt64)] = []
            if let offset = try container.value(directory, Tag.jpegOffset), let length = try container.value(directory, Tag.jpegLength) {
                ranges.append((UInt64(offset), UInt64(length)))
            }
            if let compression = try container.value(directory, Tag.compression), TIFFRAW.jpegCompressions.contains(compression) {
                for (offsets, counts) in [(Tag.stripOffsets, Tag.stripByteCounts), (Tag.tileOffsets, Tag.tileByteCounts)] {
                    guard let o = directory.entries[offsets], let c = directory.entries[counts], o.count == 1, c.count == 1,
                          let offset = try container.values(o).first, let length = try container.values(c).first else { continue }
                    ranges.append((UInt64(offset), UInt64(length)))
                }
            }
            if let entry = directory.entries[Tag.panasonicJPEG], entry.type == 7, let range = container.dataRange(entry) {
                ranges.append((range.offset, range.length))
            }
            for (offset, length) in ranges { try search.add(offset: offset, length: length, origin: directory.name) }
        }
        // An ORF's preview is in its Olympus MakerNote (`OlympusMakerNote`); IFD1 has only a thumbnail.
        if isORF, let exif = directories.first(where: { $0.name == "EXIF IFD" }) {
            try OlympusMakerNote.previews(container, exif: exif, into: &search)
        }
        return search
    }

    /// IFD0's orientation (274) when it has one of 1…8; its XMP packet (700) and EXIF rating (0x4746).
    func metadata() throws(DecodeError) -> (orientation: Orientation?, metadata: EmbeddedMetadata) {
        guard let ifd0 = directories.first else { return (nil, EmbeddedMetadata()) }
        let orientation = try container.value(ifd0, TIFFDirectory.Tag.orientation).flatMap { Orientation(rawValue: Int($0)) }
        var xmp: [UInt8]?
        if let entry = ifd0.entries[TIFFDirectory.Tag.xmp] { xmp = try container.data(entry, maximum: EmbeddedMetadata.maximumBytes) }
        let rating = ifd0.entries[TIFFDirectory.Tag.rating].flatMap { entry -> Rating? in
            // A SHORT sits left-justified in the value field, as `ExifReader` reads it.
            let short = entry.type == 3 || entry.type == 8
            let raw = short ? UInt32(container.order.u16(entry.field, 0)) : container.order.u32(entry.field, 0)
            return ExifReader.rating(type: entry.type, raw: raw)
        }
        return (orientation, EmbeddedMetadata(xmp: xmp, tiffRating: rating))
    }
}
