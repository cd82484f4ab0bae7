import ThumbKit

/// The rendering options of the thumbnail command, and how they become `ThumbnailOptions`.
enum ThumbnailSettings {
    static let options: [OptionSpec] = [
        OptionSpec("size", short: "s", value: "SIZE",
                   help: "The box at @1x: N, WxH, Wx (width only) or xH; suffix > shrink only (default), < enlarge only, ! fill, ^ cover (default 128)."),
        OptionSpec("widths", value: "LIST",
                   help: "One output per width at @1x, e.g. 320,640,1280,auto (auto: the source's); names get %w, the real width (default name %s-%w)."),
        OptionSpec("fit", value: "MODE", choices: ["inside", "cover", "contain", "fill"],
                   help: "inside (aspect-fit, default), cover (aspect-fill and crop), contain (letterbox to exactly the box), fill (stretch)."),
        OptionSpec("gravity", value: "DIR",
                   help: "Where cover crops from / contain places: centre, north, south, east, west, northeast, northwest, southeast, southwest."),
        OptionSpec("enlarge", help: "Allow output larger than the source (never by default)."),
        OptionSpec("corner-radius", value: "R", help: "Round the corners with radius R pixels at @1x (transparent outside)."),
        OptionSpec("background", value: "COLOR",
                   help: "Flatten onto RRGGBB (opaque output); also contain's margin colour. JPEG output: white unless given."),
        OptionSpec("scales", value: "LIST", help: "Also write NAME@Nx at exactly N times the @1x output, e.g. 1,2,3 or 0.75,1,1.5,2,3,4 (default 1)."),
        OptionSpec("strict-scales", help: "Fail a source that has too few pixels for a scale, instead of enlarging it with a warning."),
        OptionSpec("kernel", value: "NAME", choices: ["lanczos3", "lanczos2", "mitchell", "catrom", "bilinear", "box", "nearest"], help: "lanczos3 (default), lanczos2, mitchell, catrom, bilinear, box or nearest."),
        OptionSpec("no-linear", help: "Filter sRGB values directly instead of linear light (as most tools do)."),
        OptionSpec("no-rotate", help: "Keep the stored orientation instead of applying the EXIF orientation tag."),
        OptionSpec("no-shrink-on-load",
                   help: "Decode JPEGs at full size instead of reduced by libjpeg (1/2-1/8): exact, but slower."),
        OptionSpec("allow-partial", help: "Thumbnail a JPEG that ends early from what it has, instead of failing."),
        OptionSpec("keep-profile", help: "Keep the source's colour space (and embed its ICC profile) instead of converting to sRGB."),
        OptionSpec("color-type", value: "TYPE", choices: ["auto", "rgba"],
                   help: "PNG colour type: auto (smallest lossless, default) or rgba (force 8-bit RGBA)."),
        OptionSpec("placeholder", value: "LIST",
                   help: "Per-source placeholders in the manifest: thumbhash, blurhash[=XxY] (default 4x3), lqip[=N] (WebP data URI, N px, default 16), color."),
    ] + OutputSettings.options + RatingBadgeSettings.options + [
        RatingSourceSettings.ratingsFile,
        RatingSourceSettings.noSidecars,
        CommonOptions.maxPixels,
        CommonOptions.maxFileBytes,
        CommonOptions.maxMemory,
    ]

    /// The set of outputs the options describe, and the output settings it took its formats from
    /// (which also name the outputs), parsed once.
    static func thumbnailSet(_ arguments: ParsedArguments) throws(UsageError) -> (set: ThumbnailSet, output: OutputSettings) {
        var options = ThumbnailOptions()
        let sizeText = arguments.value("size") ?? ""
        if let text = arguments.value("size") {
            do {
                options.size = try ThumbnailSize(parsing: text)
            } catch {
                throw UsageError("invalid value for --size: \(error.message)")
            }
        }
        if let fitText = arguments.value("fit") {
            guard let mode = FitMode(rawValue: fitText) else {
                throw .invalidValue("fit", fitText, expected: "inside, cover, contain or fill")
            }
            if (sizeText.contains("!") || sizeText.contains("^")) && mode != options.size.mode {
                throw UsageError("--fit \(fitText) conflicts with --size \(sizeText)")
            }
            if options.size.hasOpenSide && mode != .inside {
                throw UsageError("--fit \(fitText) needs both sides of the box; --size \(sizeText) gives one")
            }
            options.size.mode = mode
        }
        if arguments.has("enlarge") && !sizeText.contains("<") {
            if sizeText.contains(">") { throw UsageError("--enlarge conflicts with --size \(sizeText) (shrink only)") }
            options.size.scale = .any
        }
        let widths = try self.widths(arguments)
        if !widths.isEmpty {
            if arguments.value("size") != nil { throw UsageError("--widths and --size both give the box; give one") }
            if let fit = arguments.value("fit"), fit != "inside" { throw UsageError("--fit \(fit) needs a box; --widths gives widths only") }
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
        var output = try OutputSettings(arguments, defaultName: widths.isEmpty ? "%s" : "%s-%w", allowsList: true)
        options.format = output.format
        if let background = options.background, background.alpha != 255, let opaque = output.formats.first(where: { !$0.holdsAlpha }) {
            throw UsageError("--background must be opaque for \(opaque.name.uppercased()) output, which has no alpha")
        }
        // With widths, the badge must fit the narrowest (an `auto` width is checked per source).
        let narrowest = widths.compactMap { if case .pixels(let width) = $0 { width } else { nil } }.min()
        let badgeBox = widths.isEmpty ? options.size
            : ThumbnailSize(width: narrowest ?? ThumbnailSize.maximumSide, height: ThumbnailSize.open)
        options.ratingBadge = try RatingBadgeSettings.style(arguments, box: badgeBox)
        options.limits = try CommonOptions.limits(arguments)
        let scales = try self.scales(arguments)
        if options.ratingBadge != nil, let fractional = scales.first(where: { $0.wholeValue == nil }) {
            throw UsageError("--rating-badge needs whole --scales, not \(fractional)")
        }
        let namesWidths: Bool
        do { namesWidths = try OutputNaming(format: output.nameFormat).namesWidths } catch {
            throw UsageError("invalid value for --name: \(error.message)")
        }
        if widths.count > 1 && !namesWidths {
            throw UsageError("--name \(output.nameFormat) has no %w, so the --widths outputs would share one name")
        }
        if widths.isEmpty && namesWidths { throw UsageError("--name \(output.nameFormat) has %w, which needs --widths") }
        if output.formats.count > 1 && output.fileExtension != nil { output.fileExtension = nil }
        var set = ThumbnailSet(options: options, widths: widths, scales: scales, formats: output.formats,
                               strictScales: arguments.has("strict-scales"))
        set.placeholders = try arguments.value("placeholder", default: [],
            expected: "a list of thumbhash, blurhash[=XxY] (1-9 each), lqip[=N] (1-64), color, each once") { Placeholder.list(parsing: $0) }
        return (set, output)
    }

    /// `--widths 320,640,auto`: each a positive width or `auto`.
    static func widths(_ arguments: ParsedArguments) throws(UsageError) -> [ThumbnailSet.Width] {
        try arguments.value("widths", default: [], expected: "a list of widths in pixels or auto, e.g. 320,640,1280,auto") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { ThumbnailSet.Width(parsing: String($0)) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            return parts.compactMap { $0 }
        }
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

    /// `1,2,3` or `0.75,1,1.5`: each above 0 and at most 8, at most three decimals, no repeats.
    static func scales(_ arguments: ParsedArguments) throws(UsageError) -> [Scale] {
        try arguments.value("scales", default: [.one], expected: "a list of scales above 0 and up to 8, e.g. 1,2,3 or 0.75,1,1.5") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Scale(parsing: String($0)) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            let values = parts.compactMap { $0 }
            return Set(values).count == values.count ? values.sorted() : nil
        }
    }

    /// Whole scales 1…3, no repeats (the contact sheet's).
    static func wholeScales(_ arguments: ParsedArguments) throws(UsageError) -> [Int] {
        try arguments.value("scales", default: [1], expected: "a list of 1, 2 and 3, e.g. 1,2,3") { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0.map { (1...3).contains($0) } ?? false }) else { return nil }
            let values = parts.compactMap { $0 }
            return Set(values).count == values.count ? values.sorted() : nil
        }
    }

    /// The batch renderer: thumbgen's own (`ThumbnailRenderer`, and `IconBatchRenderer` for icon
    /// sets), with `limits` and `allowPartial` for every set, and failures worded for the command
    /// line (limits name their options).
    static func renderer(limits: DecodeLimits, allowPartial: Bool) -> BatchRenderer {
        return { source in
            var rendering = BatchRendering(outputs: [])
            if source.requests.contains(where: { $0.iconSet == nil }) {
                do throws(ThumbnailError) {
                    rendering = try ThumbnailRenderer.render(source, limits: limits, allowPartial: allowPartial)
                } catch {
                    throw FailureMessage(error)
                }
            }
            if source.requests.contains(where: { $0.iconSet != nil }) {
                do throws(IconError) {
                    let icons = try IconBatchRenderer.render(source, limits: limits)
                    rendering.outputs += icons.outputs
                    for warning in icons.warnings where !rendering.warnings.contains(warning) { rendering.warnings.append(warning) }
                } catch {
                    throw FailureMessage(error)
                }
            }
            return rendering
        }
    }
}
