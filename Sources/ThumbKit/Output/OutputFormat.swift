/// The file format thumbnails are written in, with its encoder's settings.
///
/// PNG is lossless and keeps alpha (its colour type is `ThumbnailOptions.colorType`). JPEG has no
/// alpha, so a JPEG thumbnail is flattened onto `ThumbnailOptions.background`, white unless one is
/// given; that includes rounded corners and `contain`'s margins. WebP keeps alpha, lossy or
/// lossless. AVIF keeps alpha too (lossy AV1 through libheif and libaom). Star badges are always
/// PNG (asset catalogs take PNG).
public enum OutputFormat: Sendable, Hashable {
    case png
    case jpeg(JPEGEncoder)
    case webp(WebPEncoder)
    case avif(AVIFEncoder)

    /// The format's name as `--format` takes it: png, jpeg or webp.
    /// The name as prose spells it: PNG, JPEG, WebP.
    public var displayName: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        case .avif: return "AVIF"
        }
    }

    /// The largest side a file of this format can have.
    public var maximumSide: Int {
        switch self {
        case .png: return FitPlan.maximumSide
        case .jpeg: return JPEGEncoder.maximumSide
        case .webp: return WebPEncoder.maximumSide
        case .avif: return AVIFEncoder.maximumSide
        }
    }

    public var name: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpeg"
        case .webp: return "webp"
        case .avif: return "avif"
        }
    }

    /// The extension output files get unless `--name` gives one: png, jpg (vipsthumbnail's and
    /// cameras' spelling), webp or avif.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .avif: return "avif"
        }
    }

    /// Whether the format can hold transparency.
    public var holdsAlpha: Bool {
        if case .jpeg = self { return false }
        return true
    }

    /// The format each extension `--name` may end in stands for (lower case).
    public static let extensions: [String: String] = ["png": "png", "jpg": "jpeg", "jpeg": "jpeg", "webp": "webp", "avif": "avif"]

    /// The format's default settings, by name.
    public init?(name: String) {
        switch name {
        case "png": self = .png
        case "jpeg", "jpg": self = .jpeg(JPEGEncoder())
        case "webp": self = .webp(WebPEncoder())
        case "avif": self = .avif(AVIFEncoder())
        default: return nil
        }
    }

    /// The settings as `ThumbnailOptions.canonicalDescription` records them after its PNG fields;
    /// empty for PNG, whose descriptions predate the other formats and so stay as they were (a
    /// manifest written before JPEG and WebP output is still up to date).
    var canonicalFields: [String] {
        switch self {
        case .png:
            return []
        case .jpeg(let jpeg):
            return ["format=jpeg", "quality=\(jpeg.quality)", "chroma=\(jpeg.chroma.rawValue)",
                    "progressive=\(jpeg.progressive ? "on" : "off")"]
        case .webp(let webp):
            return ["format=webp", "quality=\(webp.quality)", "lossless=\(webp.lossless ? "on" : "off")"]
        case .avif(let avif):
            return ["format=avif", "quality=\(avif.quality)", "effort=\(avif.effort)", "chroma=\(avif.chroma.rawValue)"]
        }
    }

    /// Rebuilds the format from the fields `canonicalFields` wrote (no `format` field: PNG).
    init(canonicalFields fields: [String: String]) throws(FieldError) {
        func number(_ key: String) throws(FieldError) -> Int {
            guard let value = fields[key].flatMap({ Int($0) }), (1...100).contains(value) else { throw FieldError(field: key) }
            return value
        }
        func flag(_ key: String) throws(FieldError) -> Bool {
            guard let value = fields[key].flatMap({ ["on": true, "off": false][$0] }) else { throw FieldError(field: key) }
            return value
        }
        switch fields["format"] {
        case nil, "png":
            self = .png
        case "jpeg":
            guard let chroma = fields["chroma"].flatMap(JPEGEncoder.Chroma.init(rawValue:)) else { throw FieldError(field: "chroma") }
            self = .jpeg(JPEGEncoder(quality: try number("quality"), progressive: try flag("progressive"), chroma: chroma))
        case "webp":
            self = .webp(WebPEncoder(quality: try number("quality"), lossless: try flag("lossless")))
        case "avif":
            guard let effort = fields["effort"].flatMap({ Int($0) }), (0...AVIFEncoder.maximumEffort).contains(effort) else { throw FieldError(field: "effort") }
            guard let chroma = fields["chroma"].flatMap(AVIFEncoder.Chroma.init(rawValue:)) else { throw FieldError(field: "chroma") }
            self = .avif(AVIFEncoder(quality: try number("quality"), effort: effort, chroma: chroma))
        default:
            throw FieldError(field: "format")
        }
    }

    /// The field of a settings description that is missing or malformed.
    struct FieldError: Error {
        let field: String
    }

    /// The file bytes for an image: PNG marks its samples sRGB unless a profile is kept; JPEG and
    /// WebP carry no colour marker (untagged means sRGB to every reader) and embed `iccProfile`
    /// when one is given.
    func encode(_ image: Image, colorType: PNGEncoder.ColorTypeChoice, keepsProfile: Bool,
                iccProfile: [UInt8]?) throws(EncodeError) -> [UInt8] {
        switch self {
        case .png:
            var encoder = PNGEncoder(colorType: colorType, marksSRGB: !keepsProfile)
            encoder.iccProfile = iccProfile
            return try encoder.encode(image)
        case .jpeg(let encoder):
            return try encoder.encode(image, iccProfile: iccProfile)
        case .webp(let encoder):
            return try encoder.encode(image, iccProfile: iccProfile)
        case .avif(let encoder):
            return try encoder.encode(image, iccProfile: iccProfile)
        }
    }
}
