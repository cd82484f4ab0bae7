/// Why a ratings file (`--ratings-file`) cannot be used. Unlike a sidecar's problems these stop
/// the run before any work: the user named the file, so a mistake in it is theirs to fix.
package struct RatingsFileError: ThumbKitError, Hashable {
    /// What is wrong.
    package enum Reason: Sendable, Hashable {
        /// It could not be read (the system's reason), or is not there.
        case unreadable(String)
        /// Larger than `RatingsFile.maximumBytes`.
        case tooLarge(bytes: Int)
        /// Not UTF-8 text.
        case notText
        /// Not valid CSV or JSON as this reader takes it; says what was expected.
        case syntax(String)
        /// A rating that is not −1 or a number from 0 to 5, as written.
        case badRating(String)
        /// A path with no text.
        case emptyPath
        /// The same photo listed again; `firstLine` is where it was first (0 when unknown).
        case duplicate(path: String, firstLine: Int)
    }

    /// The ratings file, as given.
    package let file: String
    /// The line the problem is on (1-based), nil when it is not about one line.
    package let line: Int?
    package let reason: Reason

    package init(file: String, line: Int?, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// e.g. "ratings file ratings.csv, line 3: rating 'four' is not -1 or a number from 0 to 5".
    package var message: String {
        let place = "ratings file \(PathEscaping.escape(file))" + (line.map { ", line \($0)" } ?? "")
        let what: String
        switch reason {
        case .unreadable(let why): what = "cannot read: \(why)"
        case .tooLarge(let bytes): what = "\(bytes) bytes is above the limit of \(RatingsFile.maximumBytes)"
        case .notText: what = "not UTF-8 text"
        case .syntax(let expected): what = expected
        case .badRating(let text): what = "rating '\(PathEscaping.singleLine(text))' is not -1 or a number from 0 to 5"
        case .emptyPath: what = "empty path"
        case .duplicate(let path, let first):
            what = "\(PathEscaping.escape(path)) is listed twice" + (first > 0 ? " (first on line \(first))" : "")
        }
        return "\(place): \(what)"
    }
}
