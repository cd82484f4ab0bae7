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

/// An error about a value the caller chose: its message names the fields it concerns as the
/// library spells them (`outlineWidth`, `perPage`: the properties, which are also the members of
/// a badge spec or a project file). `message(naming:)` spells them the caller's way instead: the
/// command line passes a function that gives each field's flag.
public protocol OptionError: ThumbKitError {
    /// The message with each field written as `name(field)` returns.
    func message(naming name: (String) -> String) -> String
}

extension OptionError {
    /// The message with each field written as the library spells it.
    public var message: String { message(naming: { $0 }) }
}
