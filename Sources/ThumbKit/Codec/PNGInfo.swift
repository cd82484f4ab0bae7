/// What a PNG's header says about the stored image.
public struct PNGInfo: Sendable, Hashable {
    /// PNG colour types, as stored in IHDR.
    public enum ColorType: Int, Sendable, Hashable, CustomStringConvertible {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6

        public var description: String {
            switch self {
            case .gray: return "gray"
            case .rgb: return "rgb"
            case .palette: return "palette"
            case .grayAlpha: return "gray+alpha"
            case .rgba: return "rgba"
            }
        }
    }

    public let width: Int
    public let height: Int
    /// Bits per sample as stored: 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    public let colorType: ColorType
    public let interlaced: Bool
    /// True when the image can have transparent pixels: an alpha channel or a tRNS chunk.
    public let hasTransparency: Bool

    public init(width: Int, height: Int, bitDepth: Int, colorType: ColorType, interlaced: Bool,
                hasTransparency: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.interlaced = interlaced
        self.hasTransparency = hasTransparency
    }

    /// Bits per channel of the rows the decoder hands out: 16 for 16-bit sources, else 8.
    public var outputBitDepth: Int { bitDepth == 16 ? 16 : 8 }
}
