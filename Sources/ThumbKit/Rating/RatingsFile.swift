/// A user's list of ratings (`--ratings-file FILE`), which beats anything the photos say about
/// themselves: CSV (`path,rating` lines, `RatingsCSV`) or JSON (`{"path": rating}` or
/// `[{"path": …, "rating": …}]`, `RatingsJSON`), told apart by the first character that is not
/// whitespace (`{` or `[` is JSON).
///
/// **Paths.** A relative path in the file is taken from the ratings file's own folder, so the
/// file can live with the photos and be used from anywhere; `rating(forSourceAt:)` takes a
/// relative photo path from the working directory (as the command line was given it). Both are
/// then made lexically normal (`RatingPath`) and compared byte for byte; links are not resolved.
/// Listing one photo twice (under any spelling) is an error.
package struct RatingsFile: Sendable {
    /// Largest ratings file read: a million photos at about 60 bytes a line.
    package static let maximumBytes = 64 << 20

    /// The file, as given.
    package let path: String
    /// Ratings by normalised absolute path.
    private let ratings: [String: Rating]
    /// Where relative photo paths are taken from: the working directory when the file was read.
    private let workingDirectory: String

    /// Reads and checks the whole file; any problem is an error naming the line.
    package init(path: String) throws(RatingsFileError) {
        let bytes: [UInt8]
        switch FileSystem.readSmallFile(FilePath(path), maxBytes: Self.maximumBytes) {
        case .failure(let failure): throw RatingsFileError(file: path, line: nil, reason: .unreadable(failure.reason))
        case .success(.absent): throw RatingsFileError(file: path, line: nil, reason: .unreadable("no such file or directory"))
        case .success(.tooLarge(let size)): throw RatingsFileError(file: path, line: nil, reason: .tooLarge(bytes: size))
        case .success(.bytes(let read)): bytes = read
        }
        try self.init(path: path, contents: bytes, workingDirectory: RatingPath.workingDirectory())
    }

    /// The ratings in `contents`, as if read from `path` with `workingDirectory` current.
    init(path: String, contents: [UInt8], workingDirectory: String) throws(RatingsFileError) {
        // Spreadsheets save CSV with a BOM.
        let text = contents.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(contents.dropFirst(3)) : contents
        guard PathEscaping.validString(text) != nil else { throw RatingsFileError(file: path, line: nil, reason: .notText) }
        let base = RatingPath.normalised(RatingPath.directory(of: path), from: workingDirectory)
        var ratings: [String: Rating] = [:]
        var lines: [String: Int] = [:]
        let firstByte = text.first { !XMPScanner.isWhitespace($0) }
        let entries: [(path: String, rating: Rating, line: Int?)]
        if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") {
            entries = try RatingsJSON.entries(in: text, file: path).map { ($0.path, $0.rating, nil) }
        } else {
            entries = try RatingsCSV.entries(in: text, file: path).map { ($0.path, $0.rating, $0.line) }
        }
        for entry in entries {
            guard !entry.path.isEmpty else { throw RatingsFileError(file: path, line: entry.line, reason: .emptyPath) }
            let key = RatingPath.normalised(entry.path, from: base)
            guard ratings[key] == nil else {
                throw RatingsFileError(file: path, line: entry.line, reason: .duplicate(path: entry.path, firstLine: lines[key] ?? 0))
            }
            ratings[key] = entry.rating
            lines[key] = entry.line ?? 0
        }
        self.path = path
        self.ratings = ratings
        self.workingDirectory = workingDirectory
    }

    /// How many photos it rates.
    package var count: Int { ratings.count }

    /// The rating it gives the photo at `path` (relative to the working directory), nil when it
    /// does not list it.
    package func rating(forSourceAt path: String) -> Rating? {
        ratings[RatingPath.normalised(path, from: workingDirectory)]
    }
}
