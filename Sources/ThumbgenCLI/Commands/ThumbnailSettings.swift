import ThumbKit

/// The rendering options of the thumbnail command, and how they become `ThumbnailOptions`.
enum ThumbnailSettings {
    static let options: [OptionSpec] = [
        OptionSpec("size", short: "s", value: "SIZE",
                   help: "The box at @1x: N or WxH; suffix > shrink only (default), < enlarge only, ! fill, ^ cover (default 128)."),
        OptionSpec("fit", value: "MODE",
                   help: "inside (aspect-fit, default), cover (aspect-fill and crop), contain (letterbox to exactly the box), fill (stretch)."),
        OptionSpec("gravity", value: "DIR",
                   help: "Where cover crops from / contain places: centre, north, south, east, west, northeast, northwest, southeast, southwest."),
        OptionSpec("enlarge", help: "Allow output larger than the source (never by default)."),
        OptionSpec("corner-radius", value: "R", help: "Round the corners with radius R pixels at @1x (transparent outside)."),
        OptionSpec("background", value: "COLOR",
                   help: "Flatten onto RRGGBB (opaque output); also contain's margin colour. JPEG output: white unless given."),
        OptionSpec("scales", value: "LIST", help: "Also write NAME@2x / NAME@3x at 2x / 3x the box, e.g. 1,2,3 (default 1)."),
        OptionSpec("kernel", value: "NAME", help: "lanczos3 (default), lanczos2, mitchell, catrom, bilinear, box or nearest."),
        OptionSpec("no-linear", help: "Filter sRGB values directly instead of linear light (as most tools do)."),
        OptionSpec("no-rotate", help: "Keep the stored orientation instead of applying the EXIF orientation tag."),
        OptionSpec("no-shrink-on-load",
                   help: "Decode JPEGs at full size instead of reduced by libjpeg (1/2-1/8): exact, but slower."),
        OptionSpec("allow-partial", help: "Thumbnail a JPEG that ends early from what it has, instead of failing."),
        OptionSpec("keep-profile", help: "Keep the source's colour space (and embed its ICC profile) instead of converting to sRGB."),
        OptionSpec("color-type", value: "TYPE",
                   help: "PNG colour type: auto (smallest lossless, default) or rgba (force 8-bit RGBA)."),
    ] + OutputSettings.options + RatingBadgeSettings.options + [
        RatingSourceSettings.ratingsFile,
        RatingSourceSettings.noSidecars,
        CommonOptions.maxPixels,
        CommonOptions.maxFileBytes,
        CommonOptions.maxMemory,
    ]

    /// The options, and the output settings they took their format from (which also name the
    /// outputs), parsed once.
    static func thumbnailOptions(_ arguments: ParsedArguments) throws(UsageError) -> (options: ThumbnailOptions, output: OutputSettings) {
        var options = ThumbnailOptions()
        if let text = arguments.value("size") {
            do {
                options.size = try ThumbnailSize(parsing: text)
            } catch {
                throw UsageError("invalid value for --size: \(error.message)")
            }
        }
        let sizeText = arguments.value("size") ?? ""
        if let fitText = arguments.value("fit") {
            guard let mode = FitMode(rawValue: fitText) else {
                throw .invalidValue("fit", fitText, expected: "inside, cover, contain or fill")
            }
            if (sizeText.contains("!") || sizeText.contains("^")) && mode != options.size.mode {
                throw UsageError("--fit \(fitText) conflicts with --size \(sizeText)")
            }
            options.size.mode = mode
        }
        if arguments.has("enlarge") && !sizeText.contains("<") {
            if sizeText.contains(">") { throw UsageError("--enlarge conflicts with --size \(sizeText) (shrink only)") }
            options.size.scale = .any
        }
        try applyPlacement(arguments, to: &options)
        if let text = arguments.value("background") {
            do { options.background = try Color(hex: text) } catch { throw .invalidValue("background", text, expected: "RRGGBB or RRGGBBAA") }
        }
        options.kernel = try kernel(arguments)
        options.light = arguments.has("no-linear") ? .sRGB : .linear
        options.autoRotate = !arguments.has("no-rotate")
        options.keepProfile = arguments.has("keep-profile")
        options.shrinkOnLoad = !arguments.has("no-shrink-on-load")
        options.allowPartial = arguments.has("allow-partial")
        options.colorType = try arguments.value("color-type", default: .automatic, expected: "auto or rgba") {
            PNGEncoder.ColorTypeChoice(rawValue: $0)
        }
        let output = try OutputSettings(arguments)
        options.format = output.format
        if let background = options.background, background.alpha != 255, !options.format.holdsAlpha {
            throw UsageError("--background must be opaque for \(options.format.name.uppercased()) output, which has no alpha")
        }
        options.ratingBadge = try RatingBadgeSettings.style(arguments, box: options.size)
        options.limits = try CommonOptions.limits(arguments)
        return (options, output)
    }

    /// `--gravity` and `--corner-radius`, which the sheet command shares.
    static func applyPlacement(_ arguments: ParsedArguments, to options: inout ThumbnailOptions) throws(UsageError) {
        options.gravity = try arguments.value("gravity", default: .centre,
            expected: "centre, north, south, east, west, northeast, northwest, southeast or southwest") { Gravity(name: $0) }
        options.cornerRadius = try arguments.value("corner-radius", default: 0, expected: "a number of pixels, 0 or more") {
            Double($0).flatMap { $0.isFinite && $0 >= 0 && $0 <= 100_000 ? $0 : nil }
        }
    }

    /// `--kernel`.
    static func kernel(_ arguments: ParsedArguments) throws(UsageError) -> ResamplingKernel {
        try arguments.value("kernel", default: .lanczos3,
            expected: ResamplingKernel.allCases.map(\.rawValue).joined(separator: ", ")) { try? ResamplingKernel(name: $0) }
    }

    /// `1,2,3` → [1, 2, 3]; each scale 1…3, no repeats.
    static func scales(_ arguments: ParsedArguments) throws(UsageError) -> [Int] {
        try arguments.value("scales", default: [1], expected: "a list of 1, 2 and 3, e.g. 1,2,3") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0.map { (1...3).contains($0) } ?? false }) else { return nil }
            let values = parts.compactMap { $0 }
            return Set(values).count == values.count ? values.sorted() : nil
        }
    }

    /// The batch renderer: `options` for a run; for `check`, the settings each manifest entry
    /// recorded (`options` then only supplies the limits).
    /// `warn` hears each source's warnings (path, reason) as it is rendered.
    static func renderer(_ options: ThumbnailOptions, warn: (@Sendable (FilePath, String) -> Void)? = nil) -> BatchRenderer {
        return { source in
            var settings = options
            if !source.settings.isEmpty && source.settings != options.canonicalDescription {
                settings = try ThumbnailOptions(canonicalDescription: source.settings)
                settings.limits = options.limits
                settings.allowPartial = options.allowPartial
            }
            let thumbnails: [Thumbnail]
            let external = source.externalRating
            do throws(ThumbnailError) {
                thumbnails = try Thumbnailer(options: settings).thumbnails(of: source.image, scales: source.scales, rating: external?.rating)
            } catch {
                throw FailureMessage(error)
            }
            if let warn {
                for warning in (external?.warnings ?? []) + (thumbnails.first?.warnings ?? []) { warn(source.path, warning) }
            }
            return thumbnails.map { thumbnail in
                var output = RenderedOutput(suffix: OutputNaming.suffix(forScale: thumbnail.scale), image: thumbnail.image, bytes: thumbnail.bytes)
                if settings.ratingBadge != nil {
                    let origin = external?.rating != nil ? external?.origin : thumbnail.ratingOrigin
                    output.rating = RecordedRating(rating: thumbnail.rating, origin: origin)
                }
                return output
            }
        }
    }
}
