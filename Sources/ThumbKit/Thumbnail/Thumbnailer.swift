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

    /// Thumbnails of a PNG file's bytes at each scale (ascending, 1…3).
    public func thumbnails(ofPNG bytes: [UInt8], scales: [Int] = [1]) throws(PNGError) -> [Thumbnail] {
        let decoder = try PNGDecoder(bytes: bytes, limits: options.limits)
        return try thumbnails(from: decoder, scales: scales)
    }

    /// Thumbnails of a PNG file at each scale.
    public func thumbnails(ofFile path: String, scales: [Int] = [1]) throws(PNGError) -> [Thumbnail] {
        let decoder = try PNGDecoder(path: path, limits: options.limits)
        return try thumbnails(from: decoder, scales: scales)
    }

    private func thumbnails(from decoder: PNGDecoder, scales: [Int]) throws(PNGError) -> [Thumbnail] {
        let info = decoder.info
        for scale in scales { try checkOutputSize(plan(sourceWidth: info.width, sourceHeight: info.height, scale: scale)) }
        if scales.count == 1 && !info.interlaced {
            let plan = self.plan(sourceWidth: info.width, sourceHeight: info.height, scale: scales[0])
            if !plan.isIdentity(sourceWidth: info.width, sourceHeight: info.height) {
                var source = decoder
                let bitmap = try Resampler(kernel: options.kernel, light: options.light)
                    .resample(&source, to: plan.width, height: plan.height, region: plan.region)
                return [try encode(compose(bitmap, plan: plan, scale: scales[0]), scale: scales[0])]
            }
        }
        let image = try decoder.decodeImage()
        var results = [Thumbnail]()
        for scale in scales {
            results.append(try encode(thumbnail(of: image, scale: scale), scale: scale))
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

    private func encode(_ image: Image, scale: Int) throws(PNGError) -> Thumbnail {
        let png = try PNGEncoder(colorType: options.colorType).encode(image)
        return Thumbnail(scale: scale, image: image, png: png)
    }
}
