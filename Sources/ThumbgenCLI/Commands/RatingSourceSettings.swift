import ThumbKit

/// Where the commands that draw ratings look for them besides the image itself.
enum RatingSourceSettings {
    static let ratingsFile = OptionSpec("ratings-file", value: "FILE",
                                        help: "Ratings kept outside the photos: CSV (path,rating) or JSON ({\"path\": rating}); wins over all else.")
    static let noSidecars = OptionSpec("no-sidecars", help: "Ignore XMP sidecars (photo.xmp, photo.jpg.xmp) beside the sources.")

    /// The reader the options ask for. The ratings file is read and checked whole here, so a
    /// file that cannot be used stops the command before any work, naming its line.
    static func reader(_ arguments: ParsedArguments) throws(UsageError) -> RatingReader {
        var ratingsFile: RatingsFile?
        if let path = arguments.value("ratings-file") {
            do throws(RatingsFileError) {
                ratingsFile = try RatingsFile(path: path)
            } catch {
                throw UsageError(error.message)
            }
        }
        return RatingReader(ratingsFile: ratingsFile, readsSidecars: !arguments.has("no-sidecars"))
    }

    /// For a batch: the outside rating of each source when badges are drawn; otherwise the rating
    /// options are refused (they would do nothing).
    static func apply(_ arguments: ParsedArguments, drawsBadges: Bool, to configuration: inout BatchConfiguration) throws(UsageError) {
        if drawsBadges {
            let reader = try reader(arguments)
            // A name that is not UTF-8 has no text to find a sidecar or ratings-file line by.
            configuration.externalRating = { path in path.string.map { reader.externalRating(forSourceAt: $0) } ?? RatingLookup() }
        } else if let given = [ratingsFile, noSidecars].map(\.long).first(where: { arguments.has($0) || arguments.value($0) != nil }) {
            throw UsageError("--\(given) applies to rating badges (see --rating-badge)")
        }
    }
}
