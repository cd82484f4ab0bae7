/// Reads a camera RAW file through its largest embedded JPEG preview (`CameraRAW`), handed to the
/// JPEG decoder: the same libjpeg-turbo path as any JPEG, shrink-on-load included. Only the
/// container's headers and the preview's bytes are read.
///
/// **Orientation and metadata** are the RAW's own (IFD0's Orientation, its XMP packet and EXIF
/// rating; a CR3's `CMT1`), not the preview's, which often has none; where the RAW has no
/// orientation, and in a RAF (whose EXIF is in the preview), the preview's own count.
///
/// **Limits.** The preview's length is checked against the file's size and `maxFileBytes` before
/// its bytes are read; the JPEG decoder then checks its size as for any JPEG.
final class RAWDecoder: ImageDecoder {
    static let format = ImageFormat.raw
    /// The JPEG decoder's libraries: a preview is a JPEG.
    static var libraryVersion: String { JPEGDecoder.libraryVersion }
    static var reductions: [Int] { JPEGDecoder.reductions }

    let header: ImageHeader
    /// The preview: its size, and where it was found.
    let preview: RAWPreview
    private let jpeg: JPEGDecoder

    /// The preview's bytes, held while it decodes, and the JPEG decoder's own.
    var workingBytes: UInt64 { preview.length + jpeg.workingBytes }
    var warnings: [String] { jpeg.warnings }
    var width: Int { jpeg.width }
    var height: Int { jpeg.height }
    var rowChannels: Int { jpeg.rowChannels }

    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError) {
        let bytes = RAWBytes(input)
        let raw = try CameraRAW(bytes)
        preview = raw.preview
        if limits.maxFileBytes != 0, preview.length > limits.maxFileBytes {
            throw .limitExceeded(LimitExceeded(limit: .fileBytes, actual: preview.length, allowed: limits.maxFileBytes))
        }
        guard preview.length <= UInt64(Int.max), let data = try bytes.read(preview.offset, Int(preview.length)) else { throw .truncated }
        do {
            jpeg = try JPEGDecoder(ImageInput.open(.bytes(data), limits: limits), limits: limits)
        } catch {
            throw RAWDecoder.previewError(error)
        }
        let own = jpeg.header
        header = ImageHeader(format: .raw, storedWidth: own.storedWidth, storedHeight: own.storedHeight,
                             orientation: raw.orientation ?? own.orientation, bitDepth: 8, hasAlpha: false,
                             colorSource: own.colorSource, scanOrder: own.scanOrder,
                             details: .raw(kind: raw.kind, preview: preview.origin),
                             metadata: raw.metadataInPreview ? own.metadata : raw.metadata)
    }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        do { try jpeg.start(request) } catch { throw RAWDecoder.previewError(error) }
    }

    func readRow(into row: inout [UInt8]) throws(DecodeError) {
        do { try jpeg.readRow(into: &row) } catch { throw RAWDecoder.previewError(error) }
    }

    func finish() throws(DecodeError) {
        do { try jpeg.finish() } catch { throw RAWDecoder.previewError(error) }
    }

    func decodeImage() throws(DecodeError) -> DecodedPixels {
        do { return try jpeg.decodeImage() } catch { throw RAWDecoder.previewError(error) }
    }

    /// A failure of the preview's JPEG decoder as the RAW's: "corrupt camera RAW: JPEG preview: …".
    static func previewError(_ error: DecodeError) -> DecodeError {
        switch error {
        case .corrupt(_, let reason): return .corrupt(.raw, reason: "JPEG preview: " + reason)
        case .unsupported(_, let reason): return .unsupported(.raw, reason: "JPEG preview: " + reason)
        case .empty, .unrecognised: return .corrupt(.raw, reason: "JPEG preview is not a JPEG")
        default: return error
        }
    }
}
