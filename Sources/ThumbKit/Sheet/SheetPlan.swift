/// What a contact sheet will show, decided from the photos' headers and ratings before any is
/// decoded: the cells of every page, in order, and the photos left out.
public struct SheetPlan: Sendable {
    /// One photo's place on a page.
    public struct Cell: Sendable {
        /// The photo.
        public let source: SheetSource
        /// Its rating (nil: none), and where it was read.
        public let rating: Rating?
        public let ratingOrigin: RatingOrigin?
        /// EXIF `DateTimeOriginal` as stored (`2024:06:01 14:03:22`), nil when the photo has
        /// none or its header was not read (no label or order needs it).
        public var captureDate: String? = nil
        /// The source's upright size, nil when its header was not read.
        public var sourceWidth: Int? = nil
        public var sourceHeight: Int? = nil
    }

    /// A photo that could not be read, or a warning about one (a malformed XMP packet).
    public struct Message: Sendable, Hashable {
        public let name: String
        public let text: String
    }

    /// The pages' cells, in order; at least one page (an empty sheet has one empty page).
    public let pages: [[Cell]]
    /// Photos that could not be read, in input order (left out of the sheet).
    public let failures: [Message]
    /// Problems that did not stop a photo, in input order.
    public let warnings: [Message]
    /// Photos left out by `minimumRating`.
    public let filteredOut: Int
}
