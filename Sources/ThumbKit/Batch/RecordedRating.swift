/// The star rating an output's badge was drawn for, and where it was read: recorded in the
/// manifest so that a changed sidecar or ratings file (which leave the source's bytes alone)
/// rebuilds the thumbnail.
package struct RecordedRating: Sendable, Equatable {
    /// The rating drawn; nil when the photo had none.
    package var rating: Rating?
    /// Where it was read; nil when none was found.
    package var origin: RatingOrigin?

    package init(rating: Rating?, origin: RatingOrigin?) {
        self.rating = rating
        self.origin = origin
    }

    /// Whether an output drawn for this rating still shows the photo's rating, given what is now
    /// known from outside the file: the same outside rating, or (when there is none) a rating read
    /// from the file itself, which the source's hash already vouches for.
    package func agrees(with external: RatingLookup) -> Bool {
        if let rating = external.rating { return origin == external.origin && self.rating == rating }
        return !isExternal
    }

    /// Read from a sidecar or ratings file rather than from the image.
    package var isExternal: Bool { origin == .sidecar || origin == .ratingsFile }

    /// The rating as the manifest writes it: the stored number, or null.
    var ratingJSON: JSONValue { rating?.jsonValue ?? .null }
    /// The origin as the manifest writes it: its name, or "none".
    var originName: String { origin?.rawValue ?? "none" }

    /// Reads the two manifest members back (both present, or neither: nil).
    init?(rating: JSONValue?, origin: String?) throws(JSONMembers.Problem) {
        guard let rating, let origin else {
            if rating != nil || origin != nil { throw JSONMembers.Problem(reason: "'rating' and 'ratingOrigin' come together") }
            return nil
        }
        if rating == .null {
            self.rating = nil
        } else {
            guard let number = rating.numberValue, let value = Rating(storedValue: number) else {
                throw JSONMembers.Problem(reason: "'rating' is not a rating")
            }
            self.rating = value
        }
        if origin == "none" {
            self.origin = nil
        } else {
            guard let value = RatingOrigin(rawValue: origin) else { throw JSONMembers.Problem(reason: "'ratingOrigin' is not an origin") }
            self.origin = value
        }
    }
}
