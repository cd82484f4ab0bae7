/// One file the batch could not process (or skipped), ready to print on one line.
public struct BatchMessage: Sendable, Equatable {
    /// The path, already escaped by `PathEscaping` (no control characters, valid UTF-8).
    public var path: String
    /// One lower-case line, no trailing period.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var line: String { "\(path): \(reason)" }
}
