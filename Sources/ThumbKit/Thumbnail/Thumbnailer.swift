/// Makes thumbnails: decode → fit plan → resample → compose (placement, rounded corners,
/// background) → 8-bit sRGB → PNG.
///
/// A single-scale thumbnail of a non-interlaced PNG is streamed: rows go from libpng into the
/// resampler as they are decoded, so memory does not grow with the source's size. Other cases
/// decode the image once and render every scale from it.
public struct Thumbnailer: Sendable {
    public let options: ThumbnailOptions

    public init(options: ThumbnailOptions = ThumbnailOptions()) {
        self.options = options
    }

    /// Thumbnails of a PNG or JPEG file's bytes (recognised by content) at each scale (ascending,
    /// 1…3), upright (`autoRotate`) and in sRGB (unless `keepProfile`).
    ///
    /// A PNG that needs no colour conversion or rotation takes the streaming path of
    /// `thumbnails(ofPNG:)`; one that does is decoded whole. A JPEG is reduced on load (1/2, 1/4 or
    /// 1/8) as far as still leaves at least twice the largest scale's size on both axes, unless
    /// `shrinkOnLoad` is off; the fit plan is computed from the full upright size, so output sizes
    /// do not depend on the reduction.
    public func thumbnails(of bytes: [UInt8], scales: [Int] = [1]) throws(ImageLoadError) -> [Thumbnail] {
        let loader = ImageLoader(limits: options.limits, autoRotate: options.autoRotate,
                                 convertsToSRGB: !options.keepProfile, allowPartial: options.allowPartial)
        if ImageLoader.format(of: bytes) == .png {
            let decoder: PNGDecoder
            do { decoder = try PNGDecoder(bytes: bytes, limits: options.limits) } catch { throw .png(error) }
            if loader.needsNoTransform(decoder) {
                // With keepProfile, an iCCP profile travels to the output unapplied.
                var kept: [UInt8]?
                if options.keepProfile, case .iccProfile(let profile) = decoder.colorSource { kept = profile }
                do { return try thumbnails(from: decoder, scales: scales, profile: kept) } catch { throw .png(error) }
            }
            return try thumbnails(of: loader.load(decoder), scales: scales)
        }
        let largest = scales.max() ?? 1
        // No target, no reduction: the full decode that shrink-on-load approximates.
        let loaded = try loader.load(bytes) { width, height in
            self.options.shrinkOnLoad ? self.shrinkTarget(sourceWidth: width, sourceHeight: height, scale: largest) : nil
        }
        return try thumbnails(of: loaded, scales: scales)
    }

    /// Thumbnails of a loaded image at each scale; plans use its full (pre-reduction) size.
    public func thumbnails(of loaded: LoadedImage, scales: [Int] = [1]) throws(ImageLoadError) -> [Thumbnail] {
        var results = [Thumbnail]()
        for scale in scales {
            do {
                try checkOutputSize(plan(sourceWidth: loaded.fullWidth, sourceHeight: loaded.fullHeight, scale: scale))
                var thumbnail = try encode(thumbnail(of: loaded, scale: scale), scale: scale, profile: loaded.keptProfile)
                thumbnail.warnings = loaded.warnings
                results.append(thumbnail)
            } catch {
                throw .png(error)
            }
        }
        return results
    }

    /// The thumbnail of a loaded image at a scale, as 8-bit pixels. A reduced-on-load image is
    /// resampled with the plan of its full size, the plan's region divided by the reduction.
    public func thumbnail(of loaded: LoadedImage, scale: Int = 1) -> Image {
        let image = loaded.image
        if loaded.reduction == 1 || (image.width == loaded.fullWidth && image.height == loaded.fullHeight) {
            return thumbnail(of: image, scale: scale)
        }
        let plan = self.plan(sourceWidth: loaded.fullWidth, sourceHeight: loaded.fullHeight, scale: scale)
        // libjpeg's reduced pixel i covers full pixels [f·i, f·i + f); a last, partial block still
        // makes a whole pixel (sizes round up). So the exact map is a division by f, and the
        // image's own content ends before its last pixel does when the size is not a multiple.
        let f = Double(loaded.reduction)
        let x = min(plan.region.x / f, Double(image.width) - 1), y = min(plan.region.y / f, Double(image.height) - 1)
        let region = Rect(x: x, y: y, width: min(plan.region.width / f, Double(image.width) - x),
                                  height: min(plan.region.height / f, Double(image.height) - y))
        let bitmap = Resampler(kernel: options.kernel, light: options.light)
            .resample(image, to: plan.width, height: plan.height, region: region)
        return compose(bitmap, plan: plan, scale: scale)
    }

    /// The size the whole upright source would be resampled to at `scale`: what shrink-on-load
    /// must keep at least twice of. Rounded up, so the reduction never goes one step too far.
    func shrinkTarget(sourceWidth: Int, sourceHeight: Int, scale: Int) -> (width: Int, height: Int) {
        let plan = self.plan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, scale: scale)
        let width = (Double(sourceWidth) * Double(plan.width) / plan.region.width).rounded(.up)
        let height = (Double(sourceHeight) * Double(plan.height) / plan.region.height).rounded(.up)
        return (Int(width), Int(height))
    }

    /// Thumbnails of a PNG file's bytes at each scale (ascending, 1…3), its samples taken as
    /// stored: no colour conversion, no EXIF rotation (`thumbnails(of:)` does both).
    public func thumbnails(ofPNG bytes: [UInt8], scales: [Int] = [1]) throws(PNGError) -> [Thumbnail] {
        let decoder = try PNGDecoder(bytes: bytes, limits: options.limits)
        return try thumbnails(from: decoder, scales: scales)
    }

    /// Thumbnails of a PNG file at each scale, its samples taken as stored (see `thumbnails(ofPNG:)`).
    public func thumbnails(ofFile path: String, scales: [Int] = [1]) throws(PNGError) -> [Thumbnail] {
        let decoder = try PNGDecoder(path: path, limits: options.limits)
        return try thumbnails(from: decoder, scales: scales)
    }

    private func thumbnails(from decoder: PNGDecoder, scales: [Int], profile: [UInt8]? = nil) throws(PNGError) -> [Thumbnail] {
        let info = decoder.info
        for scale in scales { try checkOutputSize(plan(sourceWidth: info.width, sourceHeight: info.height, scale: scale)) }
        if scales.count == 1 && !info.interlaced {
            let plan = self.plan(sourceWidth: info.width, sourceHeight: info.height, scale: scales[0])
            if !plan.isIdentity(sourceWidth: info.width, sourceHeight: info.height) {
                var source = decoder
                let bitmap = try Resampler(kernel: options.kernel, light: options.light)
                    .resample(&source, to: plan.width, height: plan.height, region: plan.region)
                return [try encode(compose(bitmap, plan: plan, scale: scales[0]), scale: scales[0], profile: profile)]
            }
        }
        let image = try decoder.decodeImage()
        var results = [Thumbnail]()
        for scale in scales {
            results.append(try encode(thumbnail(of: image, scale: scale), scale: scale, profile: profile))
        }
        return results
    }

    /// The thumbnail of a decoded image at a scale, as 8-bit pixels.
    public func thumbnail(of image: Image, scale: Int = 1) -> Image {
        let plan = self.plan(sourceWidth: image.width, sourceHeight: image.height, scale: scale)
        let placed = plan.canvasWidth != plan.width || plan.canvasHeight != plan.height
        if plan.isIdentity(sourceWidth: image.width, sourceHeight: image.height)
            && !placed && options.cornerRadius == 0 && options.background == nil {
            // Nothing to filter or draw: the decoded pixels themselves, exactly.
            return image.converted8()
        }
        let bitmap = Resampler(kernel: options.kernel, light: options.light)
            .resample(image, to: plan.width, height: plan.height, region: plan.region)
        return compose(bitmap, plan: plan, scale: scale)
    }

    /// Where the source goes at a scale: the @1x box multiplied by `scale`.
    public func plan(sourceWidth: Int, sourceHeight: Int, scale: Int) -> FitPlan {
        FitPlan(sourceWidth: sourceWidth, sourceHeight: sourceHeight, boxWidth: options.size.width * scale,
                boxHeight: options.size.height * scale, mode: options.size.mode, gravity: options.gravity,
                scale: options.size.scale)
    }

    /// An enlarged output is held to the same pixel limit as a source, before anything is allocated.
    private func checkOutputSize(_ plan: FitPlan) throws(PNGError) {
        let limit = options.limits.maxPixels
        let pixels = UInt64(plan.canvasWidth) * UInt64(plan.canvasHeight)
        if limit != 0 && pixels > limit {
            throw .limitExceeded(reason: "thumbnail would be \(plan.canvasWidth)x\(plan.canvasHeight) (\(pixels) pixels), "
                                 + "above the limit of \(limit) pixels (--max-pixels)")
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
        if let background = options.background { canvas.flatten(onto: background) }
        return Image(canvas.bitmap)
    }

    /// Marks the output sRGB unless the source's colours were kept.
    private func encode(_ image: Image, scale: Int, profile: [UInt8]? = nil) throws(PNGError) -> Thumbnail {
        var encoder = PNGEncoder(colorType: options.colorType, marksSRGB: !options.keepProfile)
        encoder.iccProfile = options.keepProfile ? profile : nil
        let png = try encoder.encode(image)
        return Thumbnail(scale: scale, image: image, png: png)
    }
}
