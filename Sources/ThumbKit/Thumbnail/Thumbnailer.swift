/// Makes thumbnails, in pipeline order: source → header → decode plan → decode (or stream) →
/// resample → compose (placement, rounded corners, background, rating badge) → 8-bit sRGB → PNG,
/// JPEG or WebP (`options.format`).
///
/// ```swift
/// let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40, mode: .cover)))
/// let thumbnails = try thumbnailer.thumbnails(of: .file("photo.jpg"), scales: [1, 2, 3])
/// ```
///
/// Any supported format is read, turned upright (`autoRotate`) and converted to sRGB (unless
/// `keepProfile`), exactly as the command line does. One scale of an image that needs no rotation
/// or colour conversion is streamed, so memory does not grow with the source's size; otherwise
/// the image is decoded once and every scale is rendered from it (`DecodePlan`).
public struct Thumbnailer: Sendable {
    /// What the thumbnails look like.
    public let options: ThumbnailOptions

    /// A thumbnailer with the given options.
    public init(options: ThumbnailOptions = ThumbnailOptions()) {
        self.options = options
    }

    /// Thumbnails of an encoded image at each scale (each `1...ThumbnailError.maximumScale`; @1x
    /// is the box of `options.size`), in the order given.
    ///
    /// With `options.ratingBadge` set, `rating` is the star rating to draw when it is known from
    /// outside the file (a sidecar, a ratings file: `RatingReader.externalRating`); nil reads the
    /// file's own (XMP, then EXIF).
    public func thumbnails(of source: ImageSource, scales: [Int] = [1], rating: Rating? = nil) throws(ThumbnailError) -> [Thumbnail] {
        var thumbnails: [Thumbnail] = []
        for picture in try pictures(of: source, scales: scales, rating: rating) { thumbnails.append(try encode(picture)) }
        return thumbnails
    }

    /// The thumbnails' pictures, composed and badged but not encoded (what a contact sheet lays
    /// out), at each scale in the order given.
    /// `readsFileRating` false: `rating` is all there is (a contact sheet read the file's own
    /// while planning, warnings and all).
    func pictures(of source: ImageSource, scales: [Int], rating: Rating?, readsFileRating: Bool = true) throws(ThumbnailError) -> [Picture] {
        try pictures(opening: { () throws(DecodeError) in try source.openDecoder(limits: options.limits) },
                     scales: scales, rating: rating, readsFileRating: readsFileRating)
    }

    /// The same for the image of a decoder `open` makes (the source's; the tests' own decoders).
    func pictures(opening open: () throws(DecodeError) -> any ImageDecoder, scales: [Int], rating: Rating?,
                  readsFileRating: Bool = true) throws(ThumbnailError) -> [Picture] {
        try validate(scales)
        let decoder: any ImageDecoder
        do { decoder = try open() } catch { throw .decode(error) }
        let header = decoder.header
        guard header.storedWidth <= FitPlan.maximumSide && header.storedHeight <= FitPlan.maximumSide else {
            throw .decode(.limitExceeded(LimitExceeded(limit: .dimension, width: header.storedWidth, height: header.storedHeight,
                                                       actual: UInt64(max(header.storedWidth, header.storedHeight)),
                                                       allowed: UInt64(FitPlan.maximumSide))))
        }
        let badgeRating = options.ratingBadge == nil ? nil
            : rating.map { RatingLookup(rating: $0) } ?? (readsFileRating ? RatingReader.embeddedRating(in: header.metadata) : RatingLookup())
        let decoding = DecodePlan(header: header, decoder: type(of: decoder), options: options, scales: scales) {
            self.plan(sourceWidth: $0, sourceHeight: $1, scale: $2)
        }
        let fits = scales.map { plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: $0) }
        for fit in fits { try checkOutputSize(fit) }
        do {
            try MemoryPlan(header: header, decoding: decoding, fits: fits, kernel: options.kernel, decoderBytes: decoder.workingBytes)
                .check(budget: options.limits.maxMemory, header: header)
        } catch { throw .decode(error) }

        if decoding.streams {
            let bitmap: Bitmap
            do { bitmap = try stream(decoder, plan: decoding, fit: fits[0]) } catch { throw .decode(error) }
            let image = compose(bitmap, plan: fits[0], scale: scales[0])
            return [try picture(image, plan: fits[0], scale: scales[0], profile: decoding.keptProfile,
                                warnings: decoder.warnings + decoding.warnings + (badgeRating?.warnings ?? []), rating: badgeRating)]
        }
        let decoded: (image: Image, warnings: [String])
        do { decoded = try decoding.decode(decoder) } catch { throw .decode(error) }
        var pictures: [Picture] = []
        for scale in scales {
            pictures.append(try picture(ofDecoded: decoded.image, decoding: decoding, scale: scale,
                                        warnings: decoded.warnings + (badgeRating?.warnings ?? []), rating: badgeRating))
        }
        return pictures
    }

    /// One scale's thumbnail of a whole decoded image (upright, possibly reduced on load), as
    /// `decoding` planned it: the fit plan is made from the full size, its region mapped onto the
    /// decoded image.
    func picture(ofDecoded image: Image, decoding: DecodePlan, scale: Int, warnings: [String],
                 rating: RatingLookup?) throws(ThumbnailError) -> Picture {
        let fit = plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: scale)
        let region = decoding.region(for: fit, decodedWidth: image.width, decodedHeight: image.height)
        return try picture(render(image, region: region, plan: fit, scale: scale), plan: fit, scale: scale,
                           profile: decoding.keptProfile, warnings: warnings, rating: rating)
    }

    /// The thumbnail of an image already in memory (straight RGBA, taken as sRGB and upright) at
    /// a scale; with `options.ratingBadge` set, `rating` is drawn on it.
    public func thumbnail(of image: Image, scale: Int = 1, rating: Rating? = nil) throws(ThumbnailError) -> Thumbnail {
        try validate([scale])
        let fit = plan(sourceWidth: image.width, sourceHeight: image.height, scale: scale)
        try checkOutputSize(fit)
        return try encode(picture(render(image, region: fit.region, plan: fit, scale: scale), plan: fit, scale: scale, profile: nil,
                                  warnings: [], rating: options.ratingBadge == nil ? nil : RatingLookup(rating: rating)))
    }

    /// Where a source of this size goes at a scale: the @1x box multiplied by `scale`.
    public func plan(sourceWidth: Int, sourceHeight: Int, scale: Int) -> FitPlan {
        FitPlan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, boxWidth: options.size.width * scale,
                boxHeight: options.size.height * scale, mode: options.size.mode, gravity: options.gravity,
                scale: options.size.scale)
    }

    /// Rows from the decoder straight into the resampler, then on to the end of the image data.
    private func stream(_ decoder: any ImageDecoder, plan: DecodePlan, fit: FitPlan) throws(DecodeError) -> Bitmap {
        try decoder.start(plan.request)
        var rows = decoder
        let region = plan.region(for: fit, decodedWidth: decoder.width, decodedHeight: decoder.height)
        let bitmap = try Resampler(kernel: options.kernel, light: options.light)
            .resample(&rows, to: fit.width, height: fit.height, region: region)
        try decoder.finish()
        return bitmap
    }

    /// Resamples `region` of a decoded image as `plan` says and composes it.
    private func render(_ image: Image, region: Rect, plan: FitPlan, scale: Int) -> Image {
        let placed = plan.canvasWidth != plan.width || plan.canvasHeight != plan.height
        if plan.isIdentity(sourceWidth: image.width, sourceHeight: image.height) && region.isWhole(width: image.width, height: image.height)
            && !placed && options.cornerRadius == 0 && background == nil {
            // Nothing to filter or draw: the decoded pixels themselves, exactly.
            return image.converted8()
        }
        let bitmap = Resampler(kernel: options.kernel, light: options.light)
            .resample(image, to: plan.width, height: plan.height, region: region)
        return compose(bitmap, plan: plan, scale: scale)
    }

    private func validate(_ scales: [Int]) throws(ThumbnailError) {
        let size = options.size
        guard size.isValid else { throw .invalidSize(width: size.width, height: size.height) }
        guard !scales.isEmpty else { throw .invalidScale(0) }
        if let bad = scales.first(where: { !(1...ThumbnailError.maximumScale).contains($0) }) { throw .invalidScale(bad) }
    }

    /// An enlarged output is held to the same pixel limit as a source, before anything is allocated.
    private func checkOutputSize(_ plan: FitPlan) throws(ThumbnailError) {
        let limit = options.limits.maxPixels
        let pixels = UInt64(plan.canvasWidth) * UInt64(plan.canvasHeight)
        if limit != 0 && pixels > limit {
            throw .limitExceeded(LimitExceeded(limit: .outputPixels, width: plan.canvasWidth, height: plan.canvasHeight,
                                               actual: pixels, allowed: limit))
        }
    }

    /// Rounds the image's corners, places it on its canvas and flattens it onto the background.
    private func compose(_ bitmap: Bitmap, plan: FitPlan, scale: Int) -> Image {
        var image = Canvas(bitmap: bitmap)
        if options.cornerRadius > 0 {
            image.mask(by: .roundedRectangle(x: 0, y: 0, width: Double(plan.width), height: Double(plan.height),
                                             radius: options.cornerRadius * Double(scale)))
        }
        var canvas = image
        if plan.canvasWidth != plan.width || plan.canvasHeight != plan.height {
            canvas = Canvas(width: plan.canvasWidth, height: plan.canvasHeight, light: bitmap.light)
            canvas.draw(image.bitmap, at: plan.x, y: plan.y)
        }
        if let background { canvas.flatten(onto: background) }
        return Image(canvas.bitmap)
    }

    /// What the thumbnail is flattened onto: the option, or white for a format without alpha.
    private var background: Color? {
        options.background ?? (options.format.holdsAlpha ? nil : .white)
    }

    /// The composed picture with its rating badge, if any.
    private func picture(_ composed: Image, plan: FitPlan, scale: Int, profile: [UInt8]?, warnings: [String],
                         rating: RatingLookup?) throws(ThumbnailError) -> Picture {
        var image = composed
        if let style = options.ratingBadge, let stars = rating?.rating {
            image = try BadgeOverlay(style: style, boxWidth: options.size.width, boxHeight: options.size.height)
                .draw(stars, on: image, plan: plan, scale: scale)
        }
        return Picture(scale: scale, image: image, plan: plan, profile: profile, warnings: warnings, rating: rating)
    }

    /// Encodes a picture: marked sRGB unless the source's colours were kept (then its profile, if
    /// any, is embedded).
    func encode(_ picture: Picture) throws(ThumbnailError) -> Thumbnail {
        let bytes: [UInt8]
        do {
            bytes = try options.format.encode(picture.image, colorType: options.colorType, keepsProfile: options.keepProfile,
                                              iccProfile: options.keepProfile ? picture.profile : nil)
        } catch {
            throw .encode(error)
        }
        var thumbnail = Thumbnail(scale: picture.scale, image: picture.image, format: options.format, bytes: bytes,
                                  warnings: picture.warnings)
        thumbnail.rating = picture.rating?.rating
        thumbnail.ratingOrigin = picture.rating?.origin
        return thumbnail
    }
}

extension Thumbnailer {
    /// A thumbnail before encoding: its 8-bit pixels and where they came from.
    struct Picture {
        let scale: Int
        /// Straight 8-bit RGBA, the plan's canvas size.
        let image: Image
        /// How the source was fitted (where the picture sits on its canvas).
        let plan: FitPlan
        /// The source's profile, when kept.
        let profile: [UInt8]?
        let warnings: [String]
        /// The rating read for the badge, when one was asked for.
        let rating: RatingLookup?
    }
}
