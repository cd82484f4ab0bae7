/// One photo for a contact sheet: an encoded image (or a file, opened only while its cell is
/// made, so a sheet of thousands of photos holds no descriptor open) and its rating as known from
/// outside the file.
public struct SheetSource: Sendable {
    /// The name messages and `sheet.json` give it.
    public let name: String
    /// A rating known from outside the file (a sidecar, a ratings file): it wins over the file's
    /// own. Its warnings are reported with the photo's.
    public var externalRating: RatingLookup
    private let location: Location

    private enum Location: Sendable {
        case image(ImageSource)
        case file(FilePath)
    }

    /// A photo from an image source, with a rating given from outside it (nil: the file's own).
    public init(name: String, image: ImageSource, rating: Rating? = nil) {
        self.name = name
        self.location = .image(image)
        self.externalRating = RatingLookup(rating: rating)
    }

    /// A photo in a file, opened by its path's bytes (any Linux name).
    package init(path: FilePath, externalRating: RatingLookup) {
        self.name = PathEscaping.escape(bytes: path.bytes)
        self.location = .file(path)
        self.externalRating = externalRating
    }

    /// Runs `body` with the image, the file open for as long as it runs.
    func withImage<T>(maxBytes: UInt64, _ body: (ImageSource) throws(ThumbnailError) -> T) throws(ThumbnailError) -> T {
        switch location {
        case .image(let image):
            return try body(image)
        case .file(let path):
            let opened = SourceFile.open(path)
            defer { withExtendedLifetime(opened) {} }
            switch opened.flatMap({ $0.imageSource(maxBytes: maxBytes) }) {
            case .failure(let failure): throw .decode(.unreadable(reason: failure.reason))
            case .success(let image): return try body(image)
            }
        }
    }
}
