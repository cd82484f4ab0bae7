/// Where an encoded image comes from: a file or bytes already in memory. The one way into the
/// codec: any supported format is recognised by its content and opened with its decoder.
///
/// ```swift
/// let header = try ImageSource.file("photo.jpg").header()
/// print(header.width, header.height, header.format)   // upright size
/// ```
public enum ImageSource: Sendable, Hashable {
    /// A file, read when it is decoded. Only regular files are read (a FIFO or device cannot hang
    /// or stream forever).
    case file(String)
    /// An encoded file's bytes.
    case bytes([UInt8])

    /// The header of the image: format, size, orientation, colours, layout. Reads only as far as
    /// the header (and the metadata before the pixels), checking `limits` on the way.
    public func header(limits: DecodeLimits = .default) throws(DecodeError) -> ImageHeader {
        try openDecoder(limits: limits).header
    }

    /// The format of the image, recognised from its first bytes.
    public func format() throws(DecodeError) -> ImageFormat {
        let head = try self.head()
        if let format = ImageFormat.detect(head) { return format }
        if head.isEmpty { throw .empty }
        // The start of a signature with nothing after it: a file cut off in its first bytes.
        if ImageFormat.allCases.contains(where: { $0.couldStart(head) }) {
            throw .truncated
        }
        throw .unrecognised
    }

    /// The whole image as stored: straight RGBA in the file's own colours and orientation, at
    /// full size (what a file's pixel hash is taken of, and the floor `make bench` measures).
    package func decodeAsStored(limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        let decoder = try openDecoder(limits: limits)
        try decoder.start(DecodeRequest())
        switch try decoder.decodeImage() {
        case .rgba(let image): return image
        case .cmyk: preconditionFailure("ink samples are only decoded when asked for")
        }
    }

    /// Opens the decoder for the image's format, which reads the header.
    func openDecoder(limits: DecodeLimits) throws(DecodeError) -> any ImageDecoder {
        try checkFileSize(limits: limits)
        let format = try self.format()
        let decoder = ImageDecoders.type(for: format)
        return try decoder.init(source: self, limits: limits)
    }

    /// A file larger than `limits.maxFileBytes` is refused from its size, before any byte is read
    /// and whichever decoder would read it (each still stops at the limit if the file grows).
    private func checkFileSize(limits: DecodeLimits) throws(DecodeError) {
        guard limits.maxFileBytes != 0, case .file(let path) = self,
              case .success(let status) = FileSystem.status(path), status.size > 0,
              UInt64(status.size) > limits.maxFileBytes else { return }
        throw .limitExceeded(LimitExceeded(limit: .fileBytes, actual: UInt64(status.size), allowed: limits.maxFileBytes))
    }

    private func head() throws(DecodeError) -> [UInt8] {
        switch self {
        case .bytes(let data):
            return Array(data.prefix(ImageFormat.detectionLength))
        case .file(let path):
            switch FileSystem.head(Array(path.utf8), count: ImageFormat.detectionLength) {
            case .failure(let failure): throw .unreadable(reason: failure.reason)
            case .success(let head): return head
            }
        }
    }
}
