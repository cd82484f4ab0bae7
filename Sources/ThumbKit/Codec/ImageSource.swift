/// Where an encoded image comes from: a file or bytes already in memory. The one way into the
/// codec: any supported format is recognised by its content and opened with its decoder.
///
/// ```swift
/// let header = try ImageSource.file("photo.jpg").header()
/// print(header.width, header.height, header.format)   // upright size
/// ```
public struct ImageSource: Sendable, Hashable {
    /// Where the bytes are.
    enum Origin: Sendable, Hashable {
        /// A file named by its path's bytes (any Linux name, UTF-8 or not), opened when it is read.
        case path(FilePath)
        /// A file already open: read through its descriptor, never opened again by name, so what
        /// is decoded is the very file that was opened (and hashed).
        case file(SourceFile)
        /// An encoded file's bytes.
        case bytes([UInt8])
    }

    let origin: Origin

    /// A file, read when it is decoded. Only regular files are read (a FIFO or device cannot hang
    /// or stream forever).
    public static func file(_ path: String) -> ImageSource { ImageSource(origin: .path(FilePath(path))) }

    /// An encoded file's bytes.
    public static func bytes(_ bytes: [UInt8]) -> ImageSource { ImageSource(origin: .bytes(bytes)) }

    /// A file named by its path's bytes, which need not be UTF-8.
    package static func file(path: FilePath) -> ImageSource { ImageSource(origin: .path(path)) }

    /// A file already open, read through its descriptor (which stays open while the source is used).
    package static func file(opened: SourceFile) -> ImageSource { ImageSource(origin: .file(opened)) }

    /// The header of the image: format, size, orientation, colours, layout. Reads only as far as
    /// the header (and the metadata before the pixels), checking `limits` on the way.
    public func header(limits: DecodeLimits = .default) throws(DecodeError) -> ImageHeader {
        try openDecoder(limits: limits).header
    }

    /// The format of the image, recognised from its first bytes.
    public func format() throws(DecodeError) -> ImageFormat {
        try ImageInput.open(self, limits: .default).format()
    }

    /// The whole image as stored: straight RGBA in the file's own colours and orientation, at
    /// full size (what a file's pixel hash is taken of, and the floor `make bench` measures).
    package func decodeAsStored(limits: DecodeLimits = .default) throws(DecodeError) -> Image {
        try ImageSource.decodeAsStored(openDecoder(limits: limits))
    }

    /// The header once the whole image has decoded, from one open of the file: what proves a
    /// file intact (`thumbgen info`). With `decoding` false, only the header is read.
    package func header(limits: DecodeLimits, decoding: Bool) throws(DecodeError) -> ImageHeader {
        let decoder = try openDecoder(limits: limits)
        if decoding { _ = try ImageSource.decodeAsStored(decoder) }
        return decoder.header
    }

    /// Opens the decoder for the image's format, which reads the header.
    func openDecoder(limits: DecodeLimits) throws(DecodeError) -> any ImageDecoder {
        let input = try ImageInput.open(self, limits: limits)
        let decoder = ImageDecoders.type(for: try input.format())
        return try decoder.init(input, limits: limits)
    }

    private static func decodeAsStored(_ decoder: any ImageDecoder) throws(DecodeError) -> Image {
        try decoder.start(DecodeRequest())
        switch try decoder.decodeImage() {
        case .rgba(let image): return image
        case .cmyk: preconditionFailure("ink samples are only decoded when asked for")
        }
    }
}
