/// One file the batch could not process (or skipped), ready to print on one line.
package struct BatchMessage: Sendable, Equatable {
    /// The path, escaped to stay on one line: `\n`, `\r`, `\t` and `\\` as in C, other control
    /// characters and bytes that are not valid UTF-8 as `\xNN`. Distinct names stay distinct.
    package var path: String
    /// One lower-case line, no trailing period.
    package var reason: String

    /// A message for an already escaped `path`.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, on one line whatever the reason holds.
    package var line: String { "\(path): \(PathEscaping.singleLine(reason))" }
}
