import ThumbKit

/// Where the commands that draw ratings look for them besides the image itself.
enum RatingSourceSettings {
    static let ratingsFile = OptionSpec("ratings-file", value: "FILE",
                                        help: "Ratings kept outside the photos: CSV (path,rating) or JSON ({\"path\": rating}); wins over all else.")
    static let noSidecars = OptionSpec("no-sidecars", help: "Ignore XMP sidecars (photo.xmp, photo.jpg.xmp) beside the sources.")

    /// The reader the options ask for.
    static func reader(_ arguments: ParsedArguments) throws(UsageError) -> RatingReader {
        RatingReader()
    }
}
