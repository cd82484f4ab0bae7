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
package struct RatingReader: Sendable {
    /// The user's ratings, which beat everything else; nil when none was given.
    package let ratingsFile: RatingsFile?
    /// Whether XMP sidecars are looked for.
    package let readsSidecars: Bool

    /// A reader of sidecars (unless `readsSidecars` is false) and of the file's own metadata.
    package init(readsSidecars: Bool = true) {
        self.init(ratingsFile: nil, readsSidecars: readsSidecars)
    }

    /// A reader over the given sources.
    package init(ratingsFile: RatingsFile?, readsSidecars: Bool = true) {
        self.ratingsFile = ratingsFile
        self.readsSidecars = readsSidecars
    }

    /// Ratings file, then sidecar: what is known without opening the image (cheap; used at batch plan time).
    package func externalRating(forSourceAt path: String) -> RatingLookup {
        if let rating = ratingsFile?.rating(forSourceAt: path) { return RatingLookup(rating: rating, origin: .ratingsFile) }
        return readsSidecars ? Sidecar.lookup(forSourceAt: path) : RatingLookup()
    }

    /// XMP then EXIF in the header's metadata.
    package static func embeddedRating(in metadata: EmbeddedMetadata) -> RatingLookup {
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

    /// external, else embedded, with the warnings of every source tried.
    package func lookup(forSourceAt path: String, header: ImageHeader) -> RatingLookup {
        externalRating(forSourceAt: path).orElse(Self.embeddedRating(in: header.metadata))
    }

    /// The rating of the photo at `path` whose header is `header` (`ImageSource.header()`), and
    /// where it was found; nil when no source has one. Sources that cannot be used are passed over.
    package func rating(forSourceAt path: String, header: ImageHeader) -> (rating: Rating, origin: RatingOrigin)? {
        let found = lookup(forSourceAt: path, header: header)
        guard let rating = found.rating, let origin = found.origin else { return nil }
        return (rating, origin)
    }
}
