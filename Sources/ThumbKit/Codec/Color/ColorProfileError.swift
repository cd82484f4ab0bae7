/// Why an ICC profile could not be built or used.
public struct ColorProfileError: ThumbKitError, Equatable {
    /// lcms2's message.
    public let reason: String

    /// One line, lower-case, naming the profile as the subject.
    public var message: String { "ICC profile: \(reason.lowercasedFirst)" }
}
