/// One file the batch could not process (or skipped), ready to print on one line.
public struct BatchMessage: Sendable, Equatable {
    /// The path, escaped to stay on one line: `\n`, `\r`, `\t` and `\\` as in C, other control
    /// characters and bytes that are not valid UTF-8 as `\xNN`. Distinct names stay distinct.
    public var path: String
    /// One lower-case line, no trailing period.
    public var reason: String

    /// A message for an already escaped `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var line: String { "\(path): \(reason)" }
}
