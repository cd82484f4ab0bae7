import ThumbKit

/// A command line that cannot be run as written; the CLI exits 64 (EX_USAGE).
struct UsageError: ThumbKitError, Equatable {
    let message: String

    init(_ message: String) { self.message = message }

    static func invalidValue(_ option: String, _ value: String, expected: String) -> UsageError {
        UsageError("invalid value '\(PathEscaping.singleLine(value))' for --\(option): expected \(expected)")
    }
}
