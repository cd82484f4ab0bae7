/// Makes thumbnails, in pipeline order: source → header → decode plan → decode (or stream) →
/// resample → compose (placement, rounded corners, background) → 8-bit sRGB → PNG, JPEG or WebP
/// (`options.format`).
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
    public func thumbnails(of source: ImageSource, scales: [Int] = [1]) throws(ThumbnailError) -> [Thumbnail] {
        try validate(scales)
        let decoder: any ImageDecoder
        do { decoder = try source.openDecoder(limits: options.limits) } catch { throw .decode(error) }
        let header = decoder.header
        guard header.storedWidth <= FitPlan.maximumSide && header.storedHeight <= FitPlan.maximumSide else {
            throw .decode(.limitExceeded(LimitExceeded(limit: .dimension, width: header.storedWidth, height: header.storedHeight,
                                                       actual: UInt64(max(header.storedWidth, header.storedHeight)),
                                                       allowed: UInt64(FitPlan.maximumSide))))
        }
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
            return [try encode(image, scale: scales[0], profile: decoding.keptProfile, warnings: decoder.warnings + decoding.warnings)]
        }
        let decoded: (image: Image, warnings: [String])
        do { decoded = try decoding.decode(decoder) } catch { throw .decode(error) }
        var thumbnails: [Thumbnail] = []
        for scale in scales {
            thumbnails.append(try thumbnail(ofDecoded: decoded.image, decoding: decoding, scale: scale, warnings: decoded.warnings))
        }
        return thumbnails
    }

    /// One scale's thumbnail of a whole decoded image (upright, possibly reduced on load), as
    /// `decoding` planned it: the fit plan is made from the full size, its region mapped onto the
    /// decoded image.
    func thumbnail(ofDecoded image: Image, decoding: DecodePlan, scale: Int, warnings: [String]) throws(ThumbnailError) -> Thumbnail {
        let fit = plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: scale)
        let region = decoding.region(for: fit, decodedWidth: image.width, decodedHeight: image.height)
        return try encode(render(image, region: region, plan: fit, scale: scale), scale: scale, profile: decoding.keptProfile,
                          warnings: warnings)
    }

    /// The thumbnail of an image already in memory (straight RGBA, taken as sRGB and upright) at
    /// a scale.
    public func thumbnail(of image: Image, scale: Int = 1) throws(ThumbnailError) -> Thumbnail {
        try validate([scale])
        let fit = plan(sourceWidth: image.width, sourceHeight: image.height, scale: scale)
        try checkOutputSize(fit)
        return try encode(render(image, region: fit.region, plan: fit, scale: scale), scale: scale, profile: nil, warnings: [])
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

    /// Marks the output sRGB unless the source's colours were kept (then its profile, if any, is
    /// embedded).
    private func encode(_ image: Image, scale: Int, profile: [UInt8]?, warnings: [String]) throws(ThumbnailError) -> Thumbnail {
        do {
            let bytes = try options.format.encode(image, colorType: options.colorType, keepsProfile: options.keepProfile,
                                                  iccProfile: options.keepProfile ? profile : nil)
            return Thumbnail(scale: scale, image: image, format: options.format, bytes: bytes, warnings: warnings)
        } catch {
            throw .encode(error)
        }
    }
}
