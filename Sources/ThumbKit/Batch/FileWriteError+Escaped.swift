extension FileWriteError {
    /// The message with any path in it escaped (`PathEscaping`), so a failure stays on one line
    /// whatever the file names contain.
    var escapedMessage: String {
        switch self {
        case .failed(let operation, let reason):
            return "cannot \(PathEscaping.escape(operation)): \(reason.prefix(1).lowercased() + reason.dropFirst())"
        case .destinationIsDirectory:
            return message
        }
    }
}
