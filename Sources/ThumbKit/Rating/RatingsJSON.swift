/// The JSON form of a ratings file: an object mapping paths to ratings (`{"a.jpg": 4}`), or an
/// array of `{"path": …, "rating": …}` objects. Ratings are numbers (−1, or 0 to 5); strict
/// RFC 8259 JSON otherwise (`JSONParser`), so duplicate keys are an error.
enum RatingsJSON {
    /// One entry: the path as written and its rating. Only syntax errors carry a line: the parser
    /// keeps no positions for the values of a parsed document, so other problems name the entry.
    struct Entry {
        var path: String
        var rating: Rating
    }

    static func entries(in text: [UInt8], file: String) throws(RatingsFileError) -> [Entry] {
        let document: JSONValue
        do throws(JSONParser.Failure) {
            document = try JSONParser.parse(text)
        } catch {
            let line = text[..<min(error.offset, text.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw RatingsFileError(file: file, line: line, reason: .syntax("invalid JSON: \(error.reason)"))
        }
        switch document {
        case .object(let members):
            // Sorted so that the first problem reported is the same on every run.
            return try members.sorted { $0.key < $1.key }.map { (key, value) throws(RatingsFileError) in
                Entry(path: key, rating: try rating(value, of: key, file: file))
            }
        case .array(let items):
            return try items.enumerated().map { (index, item) throws(RatingsFileError) in
                guard case .object = item, let path = item["path"]?.stringValue, let value = item["rating"] else {
                    throw RatingsFileError(file: file, line: nil,
                                           reason: .syntax("entry \(index + 1) is not an object with a string \"path\" and a \"rating\""))
                }
                return Entry(path: path, rating: try rating(value, of: path, file: file))
            }
        default:
            throw RatingsFileError(file: file, line: nil, reason: .syntax("expected an object of ratings or an array of {\"path\", \"rating\"}"))
        }
    }

    private static func rating(_ value: JSONValue, of path: String, file: String) throws(RatingsFileError) -> Rating {
        guard let number = value.numberValue, let rating = Rating(storedValue: number) else {
            throw RatingsFileError(file: file, line: nil,
                                   reason: .syntax("rating of \(PathEscaping.escape(path)) is not -1 or a number from 0 to 5"))
        }
        return rating
    }
}
