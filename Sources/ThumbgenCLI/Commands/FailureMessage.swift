import ThumbKit

/// A library failure as the command line words it: the library's one-line message, with the
/// option that sets an exceeded limit named after it ("… above the limit of 100 pixels
/// (--max-pixels)"), since the library knows nothing of flags.
struct FailureMessage: ThumbKitError {
    let message: String

    init(_ error: ThumbnailError) {
        switch error {
        case .badge(let badge): message = badge.commandLineMessage()
        case .badgeDoesNotFit: message = error.message + " (see --badge-size, --badge-margin)"
        case .previewTooSmall(let width, let height, let box):
            message = "largest embedded preview is \(width)x\(height), smaller than the \(box) box; --enlarge uses it anyway"
        default: message = FailureMessage.text(error.message, limit: error.exceededLimit)
        }
    }

    init(_ error: IconError) {
        var text = FailureMessage.text(error.message, limit: error.exceededLimit)
        if case .transparentIOSIcon = error { text += " (--icon-background)" }
        message = text
    }

    init(_ error: DecodeError) {
        var limit: LimitExceeded?
        if case .limitExceeded(let exceeded) = error { limit = exceeded }
        message = FailureMessage.text(error.message, limit: limit)
    }

    /// The option that sets a limit, if the command line has one.
    static func option(for limit: LimitExceeded.Limit) -> String? {
        switch limit {
        case .pixels, .outputPixels: return "--max-pixels"
        case .fileBytes: return "--max-file-bytes"
        case .memory: return "--max-memory"
        case .dimension, .scans: return nil
        }
    }

    private static func text(_ message: String, limit: LimitExceeded?) -> String {
        guard let limit, let option = option(for: limit.limit) else { return message }
        return "\(message) (\(option))"
    }
}
