/// One photo for a contact sheet: an encoded image (a file is opened only while its cell is read
/// or made, so a sheet of thousands of photos holds no descriptor open) and its rating as known
/// from outside the file.
public struct SheetSource: Sendable {
    /// The name messages and `sheet.json` give it.
    public let name: String
    /// A rating known from outside the file (a sidecar, a ratings file): it wins over the file's
    /// own. Its warnings are reported with the photo's.
    package var externalRating: RatingLookup
    /// The photo.
    let image: ImageSource

    /// A photo from an image source, with a rating given from outside it (nil: the file's own).
    public init(name: String, image: ImageSource, rating: Rating? = nil) {
        self.name = name
        self.image = image
        self.externalRating = RatingLookup(rating: rating)
    }

    /// A photo in a file, opened by its path's bytes (any Linux name).
    package init(path: FilePath, externalRating: RatingLookup) {
        self.name = PathEscaping.escape(bytes: path.bytes)
        self.image = .file(path: path)
        self.externalRating = externalRating
    }
}
