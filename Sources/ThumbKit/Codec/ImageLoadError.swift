/// Why `ImageLoader` could not produce an image.
public enum ImageLoadError: ThumbKitError, Equatable {
    /// The PNG decoder failed.
    case png(PNGError)
    /// The JPEG decoder failed.
    case jpeg(JPEGError)
    /// The bytes are not in any format thumbgen recognises.
    case unrecognised
    /// The format is recognised (its name is given) but cannot be decoded.
    case unsupported(format: String)

    /// One line, lower-case, for `thumbgen: FILE: message`.
    public var message: String {
        switch self {
        case .png(let error): return error.message
        case .jpeg(let error): return error.message
        case .unrecognised: return "not a PNG or JPEG file"
        case .unsupported(let format): return "unsupported format (\(format))"
        }
    }
}
