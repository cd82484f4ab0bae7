/// Why an image could not be decoded, whatever its format.
public enum DecodeError: ThumbKitError, Equatable {
    /// The file could not be opened or read; `reason` is the system's text (e.g. "No such file
    /// or directory", "is a directory", "not a regular file").
    case unreadable(reason: String)
    /// There are no bytes at all.
    case empty
    /// The bytes are not in any format thumbgen decodes.
    case unrecognised
    /// The data ends before the image does.
    case truncated
    /// The format's library rejected the data; `reason` is its message (e.g. "IHDR: CRC error").
    case corrupt(ImageFormat, reason: String)
    /// The data is valid, or may well be, but of a kind the format's library (or thumbgen) does
    /// not read; `reason` names the kind (e.g. "signed 32-bit integer samples"). Distinct from
    /// `corrupt`: the file is not damaged, and another reader may show it.
    case unsupported(ImageFormat, reason: String)
    /// The input is larger than a configured limit.
    case limitExceeded(LimitExceeded)
    /// Memory for the image could not be had.
    case outOfMemory

    /// One line, lower-case, for `thumbgen: FILE: message`.
    public var message: String {
        switch self {
        case .unreadable(let reason): return "cannot read: \(reason.lowercasedFirst)"
        case .empty: return "file is empty"
        case .unrecognised: return "not a \(DecodeError.formatList) file"
        case .truncated: return "file is truncated"
        case .corrupt(let format, let reason): return "corrupt \(format): \(reason)"
        case .unsupported(let format, let reason): return "unsupported \(format): \(reason)"
        case .limitExceeded(let limit): return limit.message
        case .outOfMemory: return "out of memory"
        }
    }

    /// "PNG, JPEG, WebP, GIF, TIFF, HEIF or camera RAW": every format thumbgen decodes.
    private static let formatList = ImageFormat.names()
}

/// Why an image could not be encoded.
public enum EncodeError: ThumbKitError, Equatable {
    /// The format's library failed; `reason` is its message.
    case failed(ImageFormat, reason: String)
    /// Memory for the encoded file could not be had.
    case outOfMemory

    /// One line, lower-case, e.g. "PNG encoding failed: …".
    public var message: String {
        switch self {
        case .failed(let format, let reason): return "\(format) encoding failed: \(reason)"
        case .outOfMemory: return "out of memory"
        }
    }
}

extension String {
    /// A library's sentence as the middle of thumbgen's ("Invalid input" → "invalid input"); an
    /// acronym stays as it is ("CTB outside of image area").
    var lowercasedFirst: String {
        guard let first else { return self }
        if let second = dropFirst().first, second.isUppercase { return self }
        return first.lowercased() + dropFirst()
    }

    /// The text before the first NUL of a C message buffer.
    init(cMessage buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
