/// What a JPEG's header says about the stored image.
public struct JPEGInfo: Sendable, Hashable {
    /// The colour space of the stored samples (libjpeg's `jpeg_color_space`).
    public enum ColorSpace: String, Sendable, Hashable, CustomStringConvertible {
        /// One luma channel.
        case gray
        /// RGB stored as is (an Adobe marker with transform 0).
        case rgb
        /// The usual photo encoding, converted to RGB while decoding.
        case yCbCr = "ycbcr"
        /// Four inks, possibly inverted (see `hasAdobeMarker`).
        case cmyk
        /// CMYK whose C, M, Y are stored as YCbCr (Adobe transform 2).
        case ycck

        /// The lower-case name, e.g. "ycbcr".
        public var description: String { rawValue }
    }

    /// Width in pixels as stored, before EXIF orientation is applied.
    public let width: Int
    /// Height in pixels as stored, before EXIF orientation is applied.
    public let height: Int
    /// Colour components: 1 (gray), 3 (RGB / YCbCr) or 4 (CMYK / YCCK).
    public let components: Int
    /// The colour space of the stored samples.
    public let colorSpace: ColorSpace
    /// True for a progressive (SOF2) file.
    public let progressive: Bool
    /// True when an Adobe APP14 marker is present; for CMYK it means the samples are stored
    /// inverted (255 = no ink), as Adobe's applications write them.
    public let hasAdobeMarker: Bool

    /// Creates an info value (the decoder makes these; public for tests and tools).
    public init(width: Int, height: Int, components: Int, colorSpace: ColorSpace, progressive: Bool,
                hasAdobeMarker: Bool) {
        self.width = width
        self.height = height
        self.components = components
        self.colorSpace = colorSpace
        self.progressive = progressive
        self.hasAdobeMarker = hasAdobeMarker
    }

    /// True for CMYK and YCCK images.
    public var isCMYK: Bool { colorSpace == .cmyk || colorSpace == .ycck }
}
