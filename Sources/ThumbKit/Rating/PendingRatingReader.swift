// TEMPORARY until branch ratings-read merges (it brings the real RatingReader); delete then.
public enum RatingOrigin: String, Sendable, Hashable { case ratingsFile = "ratings-file", sidecar, xmp, exif }
public struct RatingLookup: Sendable, Hashable {
    public var rating: Rating?
    public var origin: RatingOrigin?
    public var warnings: [String]
    public init(rating: Rating? = nil, origin: RatingOrigin? = nil, warnings: [String] = []) {
        self.rating = rating; self.origin = origin; self.warnings = warnings
    }
}
public struct RatingReader: Sendable {
    public init() {}
    public func externalRating(forSourceAt path: String) -> RatingLookup { RatingLookup() }
    public static func embeddedRating(in metadata: EmbeddedMetadata) -> RatingLookup { RatingLookup() }
}
