/// Finds a photo's star rating, from the first source that has one:
///
/// 1. the ratings file, if one is given (`RatingsFile`);
/// 2. the XMP sidecar beside the photo (`photo.jpg.xmp`, else `photo.xmp`; `Sidecar`);
/// 3. the XMP packet in the image (`xmp:Rating`, `XMPReader`);
/// 4. the EXIF `Rating` tag in the image (0x4746, `ExifReader`).
///
/// The first two need no decoder and are what a batch knows at plan time; the last two come
/// with the image's header. A source that cannot be used (a malformed sidecar or packet, a
/// rating out of range) adds a warning and the search goes on; it never fails the photo.
public struct RatingReader: Sendable {
    /// The user's ratings, which beat everything else; nil when none was given.
    public let ratingsFile: RatingsFile?
    /// Whether XMP sidecars are looked for.
    public let readsSidecars: Bool

    /// A reader over the given sources.
    public init(ratingsFile: RatingsFile? = nil, readsSidecars: Bool = true) {
        self.ratingsFile = ratingsFile
        self.readsSidecars = readsSidecars
    }

    /// Ratings file, then sidecar: what is known without opening the image (cheap; used at batch plan time).
    public func externalRating(forSourceAt path: String) -> RatingLookup {
        if let rating = ratingsFile?.rating(forSourceAt: path) { return RatingLookup(rating: rating, origin: .ratingsFile) }
        return readsSidecars ? Sidecar.lookup(forSourceAt: path) : RatingLookup()
    }

    /// XMP then EXIF in the header's metadata.
    public static func embeddedRating(in metadata: EmbeddedMetadata) -> RatingLookup {
        var lookup = RatingLookup()
        if let xmp = metadata.xmp {
            do throws(XMPProblem) {
                if let rating = try XMPReader.rating(in: xmp) { return RatingLookup(rating: rating, origin: .xmp) }
            } catch {
                lookup.warnings.append("XMP in the file: \(error); rating ignored")
            }
        }
        if let rating = metadata.exif.flatMap({ ExifReader(tiff: $0)?.rating }) ?? metadata.tiffRating {
            lookup.rating = rating
            lookup.origin = .exif
        }
        return lookup
    }

    /// external, else embedded.
    public func rating(forSourceAt path: String, header: ImageHeader) -> RatingLookup {
        externalRating(forSourceAt: path).orElse(Self.embeddedRating(in: header.metadata))
    }
}
