/// One file the batch could not process (or skipped), ready to print on one line.
package struct BatchMessage: Sendable, Equatable {
    /// The path, escaped to stay on one line: `\n`, `\r`, `\t` and `\\` as in C, other control
    /// characters and bytes that are not valid UTF-8 as `\xNN`. Distinct names stay distinct.
    package var path: String
    /// One lower-case line, no trailing period.
    package var reason: String
    /// The failure is the machine's (no space, I/O error, read-only or vanished output folder),
    /// not the file's: `FileWriteError.isMachineFailure`.
    package var isMachineFailure = false

    /// A message for an already escaped `path`.
    package init(path: String, reason: String, isMachineFailure: Bool = false) {
        self.path = path
        self.reason = reason
        self.isMachineFailure = isMachineFailure
    }

    /// `path: reason`, on one line whatever the reason holds.
    package var line: String { "\(path): \(PathEscaping.singleLine(reason))" }
}
