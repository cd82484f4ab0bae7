/// What looking for a photo's rating found: the rating and where it came from, or nothing, and the
/// problems met on the way (a malformed sidecar, an unreadable XMP packet), which are warnings to
/// print about the photo, never reasons to fail its thumbnail.
package struct RatingLookup: Sendable, Hashable {
    /// The rating, nil when none was found.
    package var rating: Rating?
    /// Where it was found; nil exactly when `rating` is.
    package var origin: RatingOrigin?
    /// One line each, naming the source, e.g. "sidecar photo.jpg.xmp: malformed XMP (unclosed
    /// element 'rdf:RDF'); rating ignored".
    package var warnings: [String]

    /// A lookup result (nothing found, no warnings by default).
    package init(rating: Rating? = nil, origin: RatingOrigin? = nil, warnings: [String] = []) {
        self.rating = rating
        self.origin = origin
        self.warnings = warnings
    }

    /// True when a rating was found.
    package var found: Bool { rating != nil }

    /// The rating as `thumbgen info` appends it: "rating 4 (xmp)", "rating 4.5 (exif)",
    /// "rejected (sidecar)"; nil when there is none.
    package var summary: String? {
        guard let rating, let origin else { return nil }
        switch rating {
        case .rejected: return "rejected (\(origin.rawValue))"
        case .stars: return "rating \(rating) (\(origin.rawValue))"
        }
    }

    /// This lookup when it found a rating, else `other` with this one's warnings first: the
    /// precedence rule in one place.
    func orElse(_ other: @autoclosure () -> RatingLookup) -> RatingLookup {
        if found { return self }
        var next = other()
        next.warnings = warnings + next.warnings
        return next
    }
}
