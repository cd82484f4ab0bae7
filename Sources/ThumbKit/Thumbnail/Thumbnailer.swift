/// Makes thumbnails, in pipeline order: source → header → decode plan → decode (or stream) →
/// resample (once per size) → compose (placement, rounded corners, background, rating badge) →
/// 8-bit sRGB → PNG, JPEG or WebP.
///
/// ```swift
/// let thumbnailer = Thumbnailer(options: ThumbnailOptions(size: ThumbnailSize(width: 40, height: 40, mode: .cover)))
/// let thumbnails = try thumbnailer.thumbnails(of: .file("photo.jpg"), scales: [1, 2, 3])
/// ```
///
/// Any supported format is read, turned upright (`autoRotate`) and converted to sRGB (unless
/// `keepProfile`), exactly as the command line does. A thumbnailer made from a `ThumbnailSet`
/// makes every width, scale and format of it from one decode. An image resampled to one size that
/// needs no rotation or colour conversion is streamed, so memory does not grow with the source's
/// size; otherwise the image is decoded once and every output is resampled from it (`DecodePlan`).
public struct Thumbnailer: Sendable {
    /// What to make of each source.
    public let thumbnailSet: ThumbnailSet

    /// What the thumbnails look like.
    public var options: ThumbnailOptions { thumbnailSet.options }

    /// A thumbnailer with the given options, making one thumbnail at @1x in `options.format`
    /// (`thumbnails(of:scales:)` asks for other scales).
    public init(options: ThumbnailOptions = ThumbnailOptions()) {
        self.thumbnailSet = ThumbnailSet(options: options)
    }

    /// A thumbnailer that makes every output of `set`.
    public init(set: ThumbnailSet) {
        self.thumbnailSet = set
    }

    /// Every output of the set for an encoded image, in the set's order (boxes or widths
    /// ascending, then scales, then formats).
    ///
    /// With `options.ratingBadge` set, `rating` is the star rating to draw when it is known from
    /// outside the file (a sidecar, a ratings file); nil reads the file's own (XMP, then EXIF).
    public func thumbnails(of source: ImageSource, rating: Rating? = nil) throws(ThumbnailError) -> [Thumbnail] {
        let pictures = try Self.pictures(of: source, sets: [thumbnailSet], rating: rating)[0]
        var thumbnails: [Thumbnail] = []
        for picture in pictures { thumbnails.append(try Self.encode(picture, options: options)) }
        return thumbnails
    }

    /// Thumbnails of an encoded image in `options.format` at each scale (each
    /// `1...ThumbnailError.maximumScale`; @1x is the box of `options.size`), in the order given.
    public func thumbnails(of source: ImageSource, scales: [Int], rating: Rating? = nil) throws(ThumbnailError) -> [Thumbnail] {
        guard !scales.isEmpty else { throw .invalidScale(0) }
        if let bad = scales.first(where: { !(1...ThumbnailError.maximumScale).contains($0) }) { throw .invalidScale(bad) }
        var scaled = thumbnailSet
        scaled.scales = Array(Set(scales.map { Scale($0) })).sorted()
        scaled.widths = []
        scaled.formats = [options.format]
        let made = try Thumbnailer(set: scaled).thumbnails(of: source, rating: rating)
        return scales.map { scale in made.first { $0.scale == Scale(scale) }! }
    }

    /// The thumbnail of an image already in memory (straight RGBA, taken as sRGB and upright) at
    /// a scale, in `options.format`; with `options.ratingBadge` set, `rating` is drawn on it.
    public func thumbnail(of image: Image, scale: Int = 1, rating: Rating? = nil) throws(ThumbnailError) -> Thumbnail {
        guard (1...ThumbnailError.maximumScale).contains(scale) else { throw .invalidScale(scale) }
        var single = thumbnailSet
        single.widths = []
        single.scales = [Scale(scale)]
        single.formats = [options.format]
        try Self.validate(single)
        let planned = single.plannedVariants(sourceWidth: image.width, sourceHeight: image.height)[0]
        try Self.checkOutputSize(planned.plan, limits: options.limits)
        let resampled = ResampledImage(image: image, plan: planned.plan, region: planned.plan.region, options: options)
        let picture = try Self.picture(planned, of: resampled, options: options, profile: nil, warnings: [],
                                       rating: options.ratingBadge == nil ? nil : RatingLookup(rating: rating))
        return try Self.encode(picture, options: options)
    }

    /// Where a source of this size goes at a scale: the @1x box's plan, scaled exactly.
    package func plan(sourceWidth: Int, sourceHeight: Int, scale: Int) -> FitPlan {
        FitPlan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, size: options.size, gravity: options.gravity)
            .scaled(by: Scale(scale), gravity: options.gravity)
    }
}

extension Thumbnailer {
    /// A thumbnail before encoding: its 8-bit pixels and where they came from.
    struct Picture {
        let variant: ThumbnailVariant
        var scale: Scale { variant.scale }
        /// Straight 8-bit RGBA, the plan's canvas size.
        let image: Image
        /// How the source was fitted (where the picture sits on its canvas).
        let plan: FitPlan
        /// The source's profile, when kept.
        let profile: [UInt8]?
        let warnings: [String]
        /// The rating read for the badge, when one was asked for.
        let rating: RatingLookup?
        /// The source's upright size (as the set saw it: stored, with `autoRotate` off).
        var sourceWidth = 0
        var sourceHeight = 0
        /// The source's placeholders by kind, when the set asks for any (`ThumbnailSet.placeholders`).
        var placeholders: [String: String] = [:]
    }

    /// The pictures of every set's outputs (composed and badged, not encoded), one decode for all:
    /// the sets must agree on how the source is decoded (`autoRotate`, `keepProfile`,
    /// `shrinkOnLoad`, `allowPartial`, `limits`: the first set's are used). Results are per set,
    /// each in its set's order.
    ///
    /// `readsFileRating` false: `rating` is all there is (a contact sheet read the file's own
    /// while planning, warnings and all).
    static func pictures(of source: ImageSource, sets: [ThumbnailSet], rating: Rating?,
                         readsFileRating: Bool = true) throws(ThumbnailError) -> [[Picture]] {
        try pictures(opening: { () throws(DecodeError) in try source.openDecoder(limits: sets[0].options.limits) },
                     sets: sets, rating: rating, readsFileRating: readsFileRating)
    }

    /// The same for the image of a decoder `open` makes (the source's; the tests' own decoders).
    static func pictures(opening open: () throws(DecodeError) -> any ImageDecoder, sets: [ThumbnailSet], rating: Rating?,
                         readsFileRating: Bool = true) throws(ThumbnailError) -> [[Picture]] {
        for set in sets { try validate(set) }
        let decodeOptions = sets[0].options
        let decoder: any ImageDecoder
        do { decoder = try open() } catch { throw .decode(error) }
        let header = decoder.header
        guard header.storedWidth <= FitPlan.maximumSide && header.storedHeight <= FitPlan.maximumSide else {
            throw .decode(.limitExceeded(LimitExceeded(limit: .dimension, width: header.storedWidth, height: header.storedHeight,
                                                       actual: UInt64(max(header.storedWidth, header.storedHeight)),
                                                       allowed: UInt64(FitPlan.maximumSide))))
        }
        let drawsBadges = sets.contains { $0.options.ratingBadge != nil }
        let badgeRating = !drawsBadges ? nil
            : rating.map { RatingLookup(rating: $0) } ?? (readsFileRating ? RatingReader.embeddedRating(in: header.metadata) : RatingLookup())

        // Every set's outputs, planned on the upright size the decode plan works out.
        var planned: [[PlannedVariant]] = []
        var jobs: [ResampleJob] = []
        let filters = Set(sets.map { ResampleJob.Filter(kernel: $0.options.kernel, light: $0.options.light) })
        var decoding = DecodePlan(header: header, decoder: type(of: decoder), options: decodeOptions,
                                  oneFilter: filters.count == 1) { width, height in
            planned = sets.map { $0.plannedVariants(sourceWidth: width, sourceHeight: height) }
            for (set, variants) in zip(sets, planned) {
                for variant in variants {
                    let job = ResampleJob(plan: variant.plan, kernel: set.options.kernel, light: set.options.light)
                    if !jobs.contains(job) { jobs.append(job) }
                }
            }
            return jobs.map(\.plan)
        }
        var setWarnings: [[String]] = []
        for set in sets { try checkPreviewSize(header, set: set, width: decoding.width, height: decoding.height) }
        for (set, variants) in zip(sets, planned) {
            if set.strictScales, let enlarged = variants.first(where: { $0.variant.scale > .one && $0.plan.enlarges }) {
                let region = enlarged.plan.region
                throw .scaleNeedsEnlarging(scale: enlarged.variant.scale, width: enlarged.plan.width, height: enlarged.plan.height,
                                           sourceWidth: Int(region.width.rounded()), sourceHeight: Int(region.height.rounded()))
            }
            setWarnings.append(set.enlargementWarning(variants, sourceWidth: decoding.width, sourceHeight: decoding.height).map { [$0] } ?? [])
        }
        for job in jobs { try checkOutputSize(job.plan, limits: decodeOptions.limits) }
        do {
            let widest = sets.map(\.options.kernel).max { $0.support < $1.support }!
            try MemoryPlan(header: header, decoding: decoding, fits: jobs.map(\.plan), kernel: widest, decoderBytes: decoder.workingBytes)
                .check(budget: decodeOptions.limits.maxMemory, header: header)
        } catch { throw .decode(error) }

        // Placeholders are computed over the whole decoded image (BlurHash's definition), so a set
        // that asks for them decodes it whole instead of streaming its rows.
        let wantsPlaceholders = sets.contains { !$0.placeholders.isEmpty }
        if wantsPlaceholders { decoding.request.streams = false }
        var placeholders: [[String: String]] = sets.map { _ in [:] }

        // Decode or stream once; then each size is resampled once, whatever its formats.
        var resampled: [ResampledImage] = []
        let sourceWarnings: [String]
        if decoding.streams {
            var colourWarning: String?
            // Every size at once from the decoder's rows (one filter, none the image's own size).
            do {
                try decoder.start(decoding.request)
                let targets = jobs.map { job in
                    Resampler.Target(width: job.plan.width, height: job.plan.height,
                                     region: decoding.region(for: job.plan, decodedWidth: decoder.width, decodedHeight: decoder.height))
                }
                let resampler = Resampler(kernel: jobs[0].kernel, light: jobs[0].light)
                let bitmaps: [Bitmap]
                if case .toSRGB(let source) = decoding.colour {
                    var rows = SRGBRows(decoder, from: source)
                    bitmaps = try resampler.resample(&rows, to: targets)
                    colourWarning = rows.warning
                } else {
                    var rows = decoder
                    bitmaps = try resampler.resample(&rows, to: targets)
                }
                try decoder.finish()
                resampled = bitmaps.map { ResampledImage(bitmap: $0) }
            } catch { throw .decode(error) }
            sourceWarnings = decoder.warnings + decoding.warnings + (colourWarning.map { [$0] } ?? [])
        } else {
            let decoded: (image: Image, warnings: [String])
            do { decoded = try decoding.decode(decoder) } catch { throw .decode(error) }
            let image = decoded.image
            for (index, set) in sets.enumerated() where !set.placeholders.isEmpty {
                do { placeholders[index] = try Placeholders.compute(set.placeholders, of: image) } catch { throw .encode(error) }
            }
            var made = [ResampledImage?](repeating: nil, count: jobs.count)
            // Sizes other than the image's own, resampled together (one conversion of each row for
            // all of them) for each filter: the same bitmaps as one at a time.
            var groups: [ResampleJob.Filter: [Int]] = [:]
            for (index, job) in jobs.enumerated() {
                let region = decoding.region(for: job.plan, decodedWidth: image.width, decodedHeight: image.height)
                if job.plan.isIdentity(sourceWidth: image.width, sourceHeight: image.height) && region.isWhole(width: image.width, height: image.height) {
                    made[index] = ResampledImage(image: image, plan: job.plan, region: region, kernel: job.kernel, light: job.light)
                } else {
                    groups[job.filter, default: []].append(index)
                }
            }
            for (filter, members) in groups.sorted(by: { $0.value[0] < $1.value[0] }) {
                let targets = members.map { index in
                    Resampler.Target(width: jobs[index].plan.width, height: jobs[index].plan.height,
                                     region: decoding.region(for: jobs[index].plan, decodedWidth: image.width, decodedHeight: image.height))
                }
                let bitmaps = Resampler(kernel: filter.kernel, light: filter.light).resample(image, to: targets)
                for (index, bitmap) in zip(members, bitmaps) { made[index] = ResampledImage(bitmap: bitmap) }
            }
            resampled = made.map { $0! }
            sourceWarnings = decoded.warnings
        }

        var results: [[Picture]] = []
        for (index, set) in sets.enumerated() {
            let warnings = sourceWarnings + (badgeRating?.warnings ?? []) + setWarnings[index]
            var pictures: [Picture] = []
            // Formats of one size share their composed picture when they share a background.
            var composed: [ComposeKey: Picture] = [:]
            for variant in planned[index] {
                let job = jobs.firstIndex(of: ResampleJob(plan: variant.plan, kernel: set.options.kernel, light: set.options.light))!
                // A picture that comes out opaque is the same on any background: one for every format.
                let placed = variant.plan.canvasWidth != variant.plan.width || variant.plan.canvasHeight != variant.plan.height
                let opaque = set.options.cornerRadius == 0 && !placed && resampled[job].isOpaque
                let key = ComposeKey(job: job, background: opaque ? nil : background(set.options, variant.variant.format))
                if let made = composed[key] {
                    pictures.append(Picture(variant: variant.variant, image: made.image, plan: made.plan, profile: made.profile,
                                            warnings: made.warnings, rating: made.rating))
                    continue
                }
                var options = set.options
                options.format = variant.variant.format
                let picture = try picture(variant, of: resampled[job], options: options, profile: decoding.keptProfile,
                                          warnings: warnings, rating: set.options.ratingBadge == nil ? nil : badgeRating)
                composed[key] = picture
                pictures.append(picture)
            }
            for i in pictures.indices {
                (pictures[i].sourceWidth, pictures[i].sourceHeight) = (decoding.width, decoding.height)
                pictures[i].placeholders = placeholders[index]
            }
            results.append(pictures)
        }
        return results
    }

    /// A camera RAW is read through its embedded preview, which may be far smaller than the photo:
    /// rather than a thumbnail silently smaller than asked for, a set that does not enlarge fails
    /// when a @1x box (or width) would need the `width` × `height` upright preview enlarged.
    static func checkPreviewSize(_ header: ImageHeader, set: ThumbnailSet, width: Int, height: Int) throws(ThumbnailError) {
        guard header.format == .raw, !set.enlarges else { return }
        var enlarging = set
        enlarging.options.size.scale = .any
        for box in enlarging.boxes(sourceWidth: width, sourceHeight: height)
        where FitPlan(sourceWidth: width, sourceHeight: height, size: box.size, gravity: set.options.gravity).enlarges {
            throw .previewTooSmall(previewWidth: width, previewHeight: height, box: box.size.sides)
        }
    }

    /// The pictures of `options.format` at whole `scales`, in ascending order, of the image of a
    /// decoder `open` makes (the tests' own decoders drive the pipeline through it).
    func pictures(opening open: () throws(DecodeError) -> any ImageDecoder, scales: [Int], rating: Rating?,
                  readsFileRating: Bool = true) throws(ThumbnailError) -> [Picture] {
        guard !scales.isEmpty else { throw .invalidScale(0) }
        if let bad = scales.first(where: { !(1...ThumbnailError.maximumScale).contains($0) }) { throw .invalidScale(bad) }
        var set = thumbnailSet
        set.scales = Array(Set(scales.map { Scale($0) })).sorted()
        set.widths = []
        set.formats = [options.format]
        return try Self.pictures(opening: open, sets: [set], rating: rating, readsFileRating: readsFileRating)[0]
    }

    /// One whole scale's picture of a whole decoded image (upright, possibly reduced on load), as
    /// `decoding` planned it: the fit plan is made from the full size, its region mapped onto the
    /// decoded image.
    func picture(ofDecoded image: Image, decoding: DecodePlan, scale: Int, warnings: [String],
                 rating: RatingLookup?) throws(ThumbnailError) -> Picture {
        let base = plan(sourceWidth: decoding.width, sourceHeight: decoding.height, scale: 1)
        let fit = base.scaled(by: Scale(scale), gravity: options.gravity)
        let region = decoding.region(for: fit, decodedWidth: image.width, decodedHeight: image.height)
        let planned = PlannedVariant(variant: ThumbnailVariant(scale: Scale(scale), format: options.format), plan: fit, base: base)
        return try Self.picture(planned, of: ResampledImage(image: image, plan: fit, region: region, options: options),
                                options: options, profile: decoding.keptProfile, warnings: warnings, rating: rating)
    }

    /// The set's sizes, scales and formats are ones a thumbnail can be made at.
    static func validate(_ set: ThumbnailSet) throws(ThumbnailError) {
        let size = set.options.size
        if size.hasOpenSide && size.mode != .inside && set.widths.isEmpty { throw .openBox(size) }
        guard size.isValid || !set.widths.isEmpty else { throw .invalidSize(width: size.width, height: size.height) }
        guard let largest = set.scales.last, !set.formats.isEmpty else { throw .invalidScale(0) }
        guard largest <= Scale.maximum, set.scales[0].thousandths > 0 else { throw .invalidScale(largest.wholeValue ?? 0) }
        if set.options.ratingBadge != nil, let fractional = set.scales.first(where: { $0.wholeValue == nil }) {
            throw .badgeNeedsWholeScale(fractional)
        }
        if case .pixels(let bad)? = set.widths.first(where: {
            if case .pixels(let value) = $0 { return !(1...ThumbnailSize.maximumSide).contains(value) }
            return false
        }) {
            throw .invalidSize(width: bad, height: ThumbnailSize.open)
        }
    }

    /// An enlarged output is held to the same pixel limit as a source, before anything is allocated.
    static func checkOutputSize(_ plan: FitPlan, limits: DecodeLimits) throws(ThumbnailError) {
        let limit = limits.maxPixels
        let pixels = UInt64(plan.canvasWidth) * UInt64(plan.canvasHeight)
        if limit != 0 && pixels > limit {
            throw .limitExceeded(LimitExceeded(limit: .outputPixels, width: plan.canvasWidth, height: plan.canvasHeight,
                                               actual: pixels, allowed: limit))
        }
    }

    /// What a thumbnail is flattened onto: the option, or white for a format without alpha.
    static func background(_ options: ThumbnailOptions, _ format: OutputFormat) -> Color? {
        options.background ?? (format.holdsAlpha ? nil : .white)
    }

    /// One output's picture from its resampled image: placed, rounded, flattened (`options.format`
    /// decides the background) and badged.
    static func picture(_ planned: PlannedVariant, of resampled: ResampledImage, options: ThumbnailOptions, profile: [UInt8]?,
                        warnings: [String], rating: RatingLookup?) throws(ThumbnailError) -> Picture {
        let plan = planned.plan
        let background = background(options, options.format)
        let placed = plan.canvasWidth != plan.width || plan.canvasHeight != plan.height
        var image: Image
        if let exact = resampled.exact, !placed && options.cornerRadius == 0 && background == nil {
            // Nothing to filter or draw: the decoded pixels themselves, exactly.
            image = exact
        } else {
            var canvas = Canvas(bitmap: resampled.bitmap)
            if options.cornerRadius > 0 {
                canvas.mask(by: .roundedRectangle(x: 0, y: 0, width: Double(plan.width), height: Double(plan.height),
                                                  radius: planned.variant.scale.apply(to: options.cornerRadius)))
            }
            if placed {
                var page = Canvas(width: plan.canvasWidth, height: plan.canvasHeight, light: canvas.bitmap.light)
                page.draw(canvas.bitmap, at: plan.x, y: plan.y)
                canvas = page
            }
            if let background { canvas.flatten(onto: background) }
            image = Image(canvas.bitmap)
        }
        if let style = options.ratingBadge, let stars = rating?.rating {
            // validate() let only whole scales through with a badge.
            let scale = planned.variant.scale.wholeValue!
            // The automatic cell size is chosen for the @1x box: the width's, with an open height.
            let box = planned.variant.width.map { (width: $0, height: ThumbnailSize.open) } ?? (width: options.size.width, height: options.size.height)
            image = try BadgeOverlay(style: style, boxWidth: box.width, boxHeight: box.height)
                .draw(stars, on: image, plan: plan, scale: scale)
        }
        return Picture(variant: planned.variant, image: image, plan: plan, profile: profile, warnings: warnings, rating: rating)
    }

    /// Encodes a picture: marked sRGB unless the source's colours were kept (then its profile, if
    /// any, is embedded).
    static func encode(_ picture: Picture, options: ThumbnailOptions) throws(ThumbnailError) -> Thumbnail {
        let bytes: [UInt8]
        do {
            bytes = try picture.variant.format.encode(picture.image, colorType: options.colorType, keepsProfile: options.keepProfile,
                                                      iccProfile: options.keepProfile ? picture.profile : nil)
        } catch {
            throw .encode(error)
        }
        var thumbnail = Thumbnail(variant: picture.variant, image: picture.image, bytes: bytes, warnings: picture.warnings)
        thumbnail.rating = picture.rating?.rating
        thumbnail.ratingOrigin = picture.rating?.origin
        return thumbnail
    }
}

/// One size to resample the decoded image to, with one filter: shared by every format (and every
/// set) that asks for it.
struct ResampleJob: Hashable {
    let plan: FitPlan
    let kernel: ResamplingKernel
    let light: Bitmap.LightEncoding

    /// The filter: jobs that share it are resampled in one pass.
    struct Filter: Hashable {
        let kernel: ResamplingKernel
        let light: Bitmap.LightEncoding
    }

    var filter: Filter { Filter(kernel: kernel, light: light) }
}

/// The pictures of one size that are composed alike: the same resample, the same background.
struct ComposeKey: Hashable {
    let job: Int
    let background: Color?
}

/// A resampled image, or the decoded image itself when the plan copies it unscaled (then the
/// bitmap is made only if something must be drawn on it).
final class ResampledImage {
    /// The decoded pixels, exactly, when the plan is the identity.
    let exact: Image?
    private var made: Bitmap?
    private let make: () -> Bitmap

    init(bitmap: Bitmap) {
        exact = nil
        made = bitmap
        make = { bitmap }
    }

    init(image: Image, plan: FitPlan, region: Rect, kernel: ResamplingKernel, light: Bitmap.LightEncoding) {
        let identity = plan.isIdentity(sourceWidth: image.width, sourceHeight: image.height)
            && region.isWhole(width: image.width, height: image.height)
        exact = identity ? image.converted8() : nil
        make = { Resampler(kernel: kernel, light: light).resample(image, to: plan.width, height: plan.height, region: region) }
        if !identity { made = make() }
    }

    convenience init(image: Image, plan: FitPlan, region: Rect, options: ThumbnailOptions) {
        self.init(image: image, plan: plan, region: region, kernel: options.kernel, light: options.light)
    }

    /// True when every resampled pixel's alpha is exactly 1, so flattening it onto a background
    /// changes nothing (the exact decoded pixels are never taken for opaque: a picture made from
    /// them with a background goes through the bitmap).
    lazy var isOpaque: Bool = {
        guard exact == nil else { return false }
        return bitmap.pixels.withUnsafeBufferPointer { p in
            var opaque = true
            for i in stride(from: 3, to: p.count, by: 4) where p[i] != 1 { opaque = false; break }
            return opaque
        }
    }()

    /// The resampled bitmap (premultiplied, in the filter's light).
    var bitmap: Bitmap {
        if let made { return made }
        let bitmap = make()
        made = bitmap
        return bitmap
    }
}
