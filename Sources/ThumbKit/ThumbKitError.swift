/// The one protocol every ThumbKit error conforms to.
///
/// Each layer has its own precise enum (`DecodeError`, `FileWriteError`, …) with associated values;
/// all of them can say what went wrong in one line, without the file name, which the caller
/// (who knows the path) puts in front: `thumbgen: photo.png: <message>`.
public protocol ThumbKitError: Error, Sendable, CustomStringConvertible {
    /// A one-line, lower-case description of the failure, with no trailing period.
    var message: String { get }
}

extension ThumbKitError {
    /// The `message`.
    public var description: String { message }
}
