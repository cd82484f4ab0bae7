/// Why an ICC profile could not be built or used.
package struct ColorProfileError: ThumbKitError, Equatable {
    /// lcms2's message.
    package let reason: String

    /// One line, lower-case, naming the profile as the subject.
    package var message: String { "ICC profile: \(reason.lowercasedFirst)" }
}
