/// Why a JPEG could not be read.
public enum JPEGError: ThumbKitError, Equatable {
    /// The bytes do not start with a JPEG start-of-image marker (or there are none).
    case notJPEG(reason: String)
    /// The data ends before the image does (and partial images were not allowed).
    case truncated
    /// libjpeg rejected the data; `reason` is its message (e.g. "Bogus marker length").
    case corrupt(reason: String)
    /// The image is larger than a configured limit; `reason` names the limit and its option.
    case limitExceeded(reason: String)
    /// Memory for the image could not be had.
    case outOfMemory
    /// The encoder (used by tests) failed; `reason` is libjpeg's message.
    case encodingFailed(reason: String)

    /// One line, lower-case, for `thumbgen: FILE: message`.
    public var message: String {
        switch self {
        case .notJPEG(let reason): return reason
        case .truncated: return "file is truncated"
        case .corrupt(let reason): return "corrupt JPEG: \(reason)"
        case .limitExceeded(let reason): return reason
        case .outOfMemory: return "out of memory"
        case .encodingFailed(let reason): return "JPEG encoding failed: \(reason)"
        }
    }
}
