extension FileWriteError {
    /// The message with any path in it escaped (`PathEscaping`), so a failure stays on one line
    /// whatever the file names contain.
    var escapedMessage: String {
        switch self {
        case .failed(let operation, let reason):
            return "cannot \(PathEscaping.escape(operation)): \(reason.lowercasedFirst)"
        case .destinationIsDirectory:
            return message
        }
    }
}
