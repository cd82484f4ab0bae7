/// Why a PNG could not be read or written.
public enum PNGError: ThumbKitError, Equatable {
    /// The file could not be opened or read; `reason` is the system's text (e.g. "No such file").
    case unreadable(reason: String)
    /// The bytes do not start with the PNG signature (or there are none).
    case notPNG(reason: String)
    /// The data ends before the image does.
    case truncated
    /// libpng rejected the data; `reason` is its message (e.g. "IHDR: CRC error").
    case corrupt(reason: String)
    /// The image is larger than a configured limit; `reason` names the limit and its option.
    case limitExceeded(reason: String)
    /// Memory for the image could not be had.
    case outOfMemory
    /// The encoder failed; `reason` is libpng's message.
    case encodingFailed(reason: String)

    public var message: String {
        switch self {
        case .unreadable(let reason): return "cannot read: \(reason.lowercasedFirst)"
        case .notPNG(let reason): return reason
        case .truncated: return "file is truncated"
        case .corrupt(let reason): return "corrupt PNG: \(reason)"
        case .limitExceeded(let reason): return reason
        case .outOfMemory: return "out of memory"
        case .encodingFailed(let reason): return "PNG encoding failed: \(reason)"
        }
    }
}

extension String {
    var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
