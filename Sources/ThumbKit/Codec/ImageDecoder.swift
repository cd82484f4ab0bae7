/// A decoder for one format, behind `ImageSource`: opening it reads the header; `start` chooses
/// the size to decode at; then the rows are streamed (`RowSource`) or the image is decoded whole.
///
/// Rows and images are straight RGBA (or RGB rows for opaque images, see `rowChannels`),
/// 8 or 16 bits per channel, in the file's own colours and stored orientation: colour conversion
/// and rotation are the decode plan's business, not the decoder's. A decoder reads one image
/// once; it is not shared between threads.
///
/// A decoder is its header mapping and its library's calls: it reads through a `CodecReader`,
/// which opens, lends the bytes and maps failures for every format alike. Adding a format is its
/// C module, a decoder, an `ImageFormat` case, an `ImageHeader.Details` case and an entry in
/// `ImageDecoders.all`.
protocol ImageDecoder: AnyObject, RowSource where ReadError == DecodeError {
    /// The format this decoder reads.
    static var format: ImageFormat { get }
    /// The library that decodes it, with its version, e.g. "giflib 5.2.1": what `--version` lists.
    static var libraryVersion: String { get }
    /// The reductions the decoder can apply while decoding, ascending, starting with 1 (JPEG's DCT
    /// scaling: 1/2, 1/4, 1/8). Reduced sizes round up.
    static var reductions: [Int] { get }
    /// Whether the decoder can scale this image down to any size while decoding (libwebp's
    /// rescaler, for still WebP images), mapping the whole image exactly onto the smaller one;
    /// then the decode plan may ask for a `DecodeRequest.scaledSize` instead of a reduction.
    static func scalesToAnySize(_ header: ImageHeader) -> Bool
    /// Whether this image's rows can be streamed: by default, when the decoder `streamsRows` and
    /// the image is not interlaced; a decoder that streams some layouts only (TIFF) says which.
    static func streams(_ header: ImageHeader) -> Bool
    /// Whether rows can be streamed (`RowSource`) for non-interlaced images; a decoder that can
    /// only decode whole images (libwebp) says no, and its images take the whole-image path.
    static var streamsRows: Bool { get }

    /// Reads the header of the opened input, checking `limits` before anything image-sized is
    /// allocated.
    init(_ input: ImageInput, limits: DecodeLimits) throws(DecodeError)

    /// What the header says.
    var header: ImageHeader { get }
    /// Bytes the decoder holds or will allocate besides the pixels it hands out, as far as the
    /// header tells (a progressive JPEG's coefficients, a WebP file's data): `MemoryPlan` adds
    /// them to the plan a memory budget is checked against.
    var workingBytes: UInt64 { get }
    /// Problems that did not stop decoding so far, each once, in order (e.g. libjpeg's
    /// "Corrupt JPEG data: …").
    var warnings: [String] { get }

    /// Prepares decoding, once, before any row or the image is read.
    func start(_ request: DecodeRequest) throws(DecodeError)
    /// Decodes the whole (remaining) image, after `start`, instead of reading rows.
    func decodeImage() throws(DecodeError) -> DecodedPixels
    /// Reads on to the end of the image data after the rows a streaming reader needed, so a
    /// damaged tail is noticed (or not) the same way as when the image is decoded whole.
    func finish() throws(DecodeError)
}

/// How a decoder is to decode, decided by the decode plan.
struct DecodeRequest: Sendable, Hashable {
    /// One of the decoder's `reductions`.
    var reduction: Int = 1
    /// The size, as stored (not upright), to scale the image down to while decoding, for a decoder
    /// that `scalesToAnySize`; nil: no scaling. Only for whole-image decodes.
    var scaledSize: Size?
    /// Rows will be streamed (RGB rows for opaque images); otherwise the image is decoded whole.
    var streams: Bool = false
    /// A CMYK image comes out as its stored ink samples (for a CMYK profile to convert), not RGBA.
    var rawCMYK: Bool = false
    /// Data that ends early is filled in by the decoder, with a warning, instead of failing.
    var allowPartial: Bool = false

    /// Samples per pixel of the rows for an image with or without transparency: RGB rows for an
    /// opaque image when streaming (the resampler takes them directly), else RGBA.
    func rowChannels(hasAlpha: Bool) -> Int { streams && !hasAlpha ? 3 : 4 }
}

extension DecodeRequest {
    /// A size in pixels.
    struct Size: Sendable, Hashable {
        var width: Int
        var height: Int
    }
}

extension ImageDecoder {
    /// Opens a source as this decoder's format, without recognising it first (tests and tools;
    /// the pipeline opens through `ImageSource`).
    init(source: ImageSource, limits: DecodeLimits = .default) throws(DecodeError) {
        try self.init(ImageInput.open(source, limits: limits), limits: limits)
    }

    /// Most decoders decode at full size only.
    static var reductions: [Int] { [1] }
    /// Most decoders hand out rows.
    static var streamsRows: Bool { true }

    /// Most decoders reduce by their `reductions` only.
    static func scalesToAnySize(_ header: ImageHeader) -> Bool { false }

    static func streams(_ header: ImageHeader) -> Bool { streamsRows && header.scanOrder != .interlaced }

    /// The stored size, for a decoder that decodes at full size only.
    var width: Int { header.storedWidth }
    var height: Int { header.storedHeight }
    /// Most decoders hand out 8-bit samples only.
    var bitDepth: Int { 8 }
    /// Most decoders report nothing that did not stop them.
    var warnings: [String] { [] }

    /// For a decoder whose rows are 8-bit only.
    func readRow(into row: inout [UInt16]) throws(DecodeError) {
        preconditionFailure("\(Self.format) rows are 8-bit")
    }
}

/// What a whole-image decode gives.
enum DecodedPixels {
    /// Straight RGBA in the file's colours.
    case rgba(Image)
    /// A CMYK image's ink samples, 4 bytes a pixel, inverted (255 = no ink) when `inverted`, and
    /// its straight alpha (a byte a pixel) when it has one.
    case cmyk(width: Int, height: Int, samples: [UInt8], inverted: Bool, alpha: [UInt8]?)
}

/// Every decoder, by format: the one table a new format is added to.
package enum ImageDecoders {
    static var all: [any ImageDecoder.Type] {
        [PNGDecoder.self, JPEGDecoder.self, WebPDecoder.self, GIFDecoder.self, TIFFDecoder.self, HEIFDecoder.self, RAWDecoder.self]
    }

    /// Each decoder's library and version, in table order, each once (what `thumbgen --version`
    /// lists): the RAW decoder's is the JPEG decoder's, since it decodes a RAW's JPEG preview.
    package static var libraryVersions: [String] {
        var seen: [String] = []
        for version in all.map({ $0.libraryVersion }) where !seen.contains(version) { seen.append(version) }
        return seen
    }

    static func type(for format: ImageFormat) -> any ImageDecoder.Type {
        // Every format has a decoder: `ImageDecodersTests` checks the table covers `allCases`.
        all.first { $0.format == format }!
    }
}
