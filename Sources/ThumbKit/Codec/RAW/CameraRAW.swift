/// A camera RAW file as thumbgen reads it: its kind, its largest JPEG preview, and its own
/// orientation and metadata. The sensor data is never read (no demosaicing): the preview is what
/// the camera rendered, and what a thumbnail is made from.
///
/// Only the container's headers and directories are read here, each by offset after a bounds
/// check (`RAWBytes`); the preview's bytes are read later, by `RAWDecoder`.
struct CameraRAW {
    /// DNG, CR2, CR3, NEF, ARW, ORF, RW2, PEF, SRW or RAF ("RAW" for another TIFF-shaped one).
    let kind: String
    /// The largest preview by pixels.
    let preview: RAWPreview
    /// The RAW's own orientation; nil when it has none (a RAF keeps its EXIF in the preview).
    let orientation: Orientation?
    /// The RAW's own XMP packet and rating.
    let metadata: EmbeddedMetadata
    /// Whether the preview JPEG carries the camera's own EXIF (RAF): its orientation and metadata
    /// are then the RAW's.
    let metadataInPreview: Bool

    /// Whether a file that begins as a TIFF is a camera RAW (`TIFFRAW`'s rule). A file whose
    /// directories cannot be walked is left to the TIFF decoder, which names its damage.
    static func isRAW(_ bytes: RAWBytes) -> Bool {
        guard let tiff = try? TIFFRAW(bytes) else { return false }
        return tiff.isRAW
    }

    /// Reads the container. A RAW without any JPEG preview is unsupported (a valid file whose
    /// sensor data thumbgen does not demosaic); one whose previews lie past its end, truncated.
    init(_ bytes: RAWBytes) throws(DecodeError) {
        // RAF's signature is 15 bytes; CR3's brand ends at byte 12.
        let head = try bytes.input.bytes(at: 0, count: 16)
        let search: RAWPreview.Search
        if head.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
            kind = "RAF"
            search = try RAFHeader.previews(bytes)
            (orientation, metadata, metadataInPreview) = (nil, EmbeddedMetadata(), true)
        } else if head.count >= 12, head[4..<12].elementsEqual("ftypcrx ".utf8) {
            kind = "CR3"
            let container = try CR3Container(bytes)
            search = container.previews
            let exif = container.ifd0.flatMap { ExifReader(tiff: $0) }
            (orientation, metadata, metadataInPreview) = (exif?.orientation, EmbeddedMetadata(xmp: container.xmp, exif: container.ifd0), false)
        } else if let tiff = try TIFFRAW(bytes) {
            kind = tiff.kind
            search = try tiff.previews()
            let own = try tiff.metadata()
            (orientation, metadata, metadataInPreview) = (own.orientation, own.metadata, false)
        } else {
            throw .unrecognised
        }
        guard let largest = RAWPreview.largest(search.found) else {
            if search.pointsPastEnd { throw .truncated }
            throw .unsupported(.raw, reason: "no JPEG preview in this \(kind) (thumbgen does not demosaic sensor data)")
        }
        preview = largest
    }
}
