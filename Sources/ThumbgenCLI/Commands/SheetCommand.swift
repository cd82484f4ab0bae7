import ThumbKit

/// `thumbgen sheet INPUT... -o sheet.png`: a contact sheet of the photos, each with its star
/// rating, and beside each page a JSON map of its cells.
struct SheetCommand: Command {
    let name = "sheet"
    let summary = "Lay photos out in a contact sheet with their star ratings."

    /// The flags of `SheetOptions`' fields whose flag is not the field's name in kebab case.
    static let flags = [
        "thumbnail.size": "--cell", "minimumRating": "--min-rating", "badgeStyle.cellSize": "--badge-size",
        "badgeStyle.margin": "--badge-margin", "thumbnail.limits.maxPixels": "--max-pixels",
        "thumbnail.limits.maxMemory": "--max-memory",
    ]

    static let options: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "FILE", help: "The sheet: FILE.png, .jpg or .webp (default sheet.png); its map is FILE.json."),
        OptionSpec("columns", value: "N", help: "Cells per row (default 5)."),
        OptionSpec("cell", value: "SIZE", help: "Each photo's box at @1x: N or WxH (default 128)."),
        OptionSpec("gap", value: "PX", help: "Gap between cells and around the sheet at @1x (default 8)."),
        OptionSpec("background", value: "COLOR", help: "Sheet colour RRGGBB[AA], or none for transparent (default ffffff)."),
        OptionSpec("fit", value: "MODE", help: "inside (default), cover (fill the cell, cropped), contain or fill."),
        OptionSpec("gravity", value: "DIR", help: "Where a picture sits in its cell / where cover crops from (default centre)."),
        OptionSpec("enlarge", help: "Enlarge photos smaller than the cell."),
        OptionSpec("corner-radius", value: "R", help: "Round each picture's corners with radius R at @1x."),
        OptionSpec("sort", value: "ORDER", choices: SheetOptions.Order.allCases.map(\.rawValue),
                   help: "path (default), rating (highest first, then unrated, then rejected) or date (EXIF capture time, then name)."),
        OptionSpec("label", value: "FORMAT",
                   help: "A line under each cell: %f file name, %r rating, %d capture date, %w and %h source size, %% a percent (e.g. '%f %wx%h')."),
        OptionSpec("min-rating", value: "N", help: "Show only photos rated N stars or more (0-5, halves allowed)."),
        OptionSpec("per-page", value: "N", help: "N cells a page: FILE-1.png, FILE-2.png, … each with its FILE-K.json."),
        OptionSpec("scales", value: "LIST", help: "Also write FILE@2x / FILE@3x, e.g. 1,2,3 (default 1)."),
        OptionSpec("rating-badge", value: "WHERE",
                   help: "under (default: centred under each picture), none, or a corner of the picture (southeast, …)."),
        OptionSpec("badge-size", value: "PX", help: "Star cell size at @1x (default: up to 16, to fit the cell)."),
        OptionSpec("badge-margin", value: "PX", help: "Gap between the badge and the picture at @1x (default 4)."),
        OptionSpec("badge-plate", value: "COLOR", help: "Draw each badge on a rounded plate of RRGGBBAA (default none)."),
        RatingBadgeSettings.halo,
    ] + StarLookOptions.options + [
        RatingSourceSettings.ratingsFile,
        RatingSourceSettings.noSidecars,
        OptionSpec("kernel", value: "NAME", help: "lanczos3 (default), lanczos2, mitchell, catrom, bilinear, box or nearest."),
        OptionSpec("no-rotate", help: "Keep the stored orientation instead of applying the EXIF orientation tag."),
        OptionSpec("no-shrink-on-load", help: "Decode JPEGs at full size instead of reduced by libjpeg: exact, but slower."),
    ] + OutputSettings.options + [
        OptionSpec("jobs", short: "j", value: "N", help: "Decode N photos at once (default: the number of cores)."),
        OptionSpec("hidden", help: "Also take files and folders whose names start with '.'."),
        OptionSpec("pairs", value: "WHICH", choices: SourcePairing.allCases.map(\.rawValue),
                   help: "Twins of a shot (IMG_1.CR2 and IMG_1.JPG): prefer-jpeg (default; one cell, the others skipped), prefer-raw (RAW, then HEIC) or both."),
        BatchDisplay.progressOption,
    ] + Verbosity.options(listing: "file written and twin skipped") + [
        CommonOptions.maxPixels,
        CommonOptions.maxFileBytes,
        OptionSpec("max-memory", value: "BYTES",
                   help: "What the whole sheet may plan to hold: half for the page, half shared by the jobs (default: half the machine's)."),
    ]

    var help: HelpText {
        HelpText(
            overview: "Lay photos out in a grid with their star ratings (a contact sheet), with a JSON map of the cells.",
            usage: ["thumbgen sheet [options] INPUT... [-o sheet.png]"],
            arguments: [("INPUT", "Image files, or directories walked recursively in sorted order.")],
            options: Self.options,
            footer: """
            Each photo is fitted into its cell (128x128, inside) and its rating drawn as a five-star badge
            under it; photos without a rating get none. Ratings are read as thumbgen info reads them:
            --ratings-file first, then an XMP sidecar (photo.jpg.xmp, then photo.xmp), then the file's
            XMP, then its EXIF Rating; -1 means rejected (no badge, never passes --min-rating).
            Beside each page, FILE.json lists every cell: source, rating, ratingOrigin, x, y, width,
            height (the tile, @1x) and picture (the photo within it). A photo that cannot be read is
            reported (thumbgen: FILE: reason), left out, and the exit status is 1; the sheet is still
            written. Files are written whole or not at all. Memory: the page at every scale plus one
            decoded photo per job, however many photos; a page too large for --max-memory, --max-pixels
            or its format is refused before anything is decoded (use --per-page). Success prints nothing
            unless standard error is a terminal, -v or --summary is given: then N photos on P pages
            written to FILE (-v also names each file).
            """,
            examples: [("thumbgen sheet photos/ -o sheet.png", "One contact sheet of every photo, with sheet.png.json beside it."), ("thumbgen sheet photos/ --sort rating --min-rating 4 -o best.png", "Only 4 and 5 stars, best first.")])
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no inputs given") }
        let jobs = try arguments.value("jobs", default: BatchConfiguration.defaultJobs, expected: "a number of jobs from 1 to 256") {
            Int($0).flatMap { (1...256).contains($0) ? $0 : nil }
        }
        let output = try OutputSettings(arguments, nameOption: "output", defaultName: "sheet.png")
        var options = SheetOptions(thumbnail: try thumbnailOptions(arguments, format: output.format))
        options.columns = try arguments.value("columns", default: options.columns, expected: "a number from 1 to \(SheetOptions.maximumColumns)") {
            Int($0).flatMap { (1...SheetOptions.maximumColumns).contains($0) ? $0 : nil }
        }
        options.gap = try arguments.value("gap", default: options.gap, expected: "a number of pixels from 0 to 10000") {
            Int($0).flatMap { (0...10_000).contains($0) ? $0 : nil }
        }
        options.order = try arguments.value("sort", default: .path, expected: "path, rating or date") { SheetOptions.Order(rawValue: $0) }
        if let format = arguments.value("label") {
            do { options.label = try SheetOptions.Label(format: format) } catch { throw UsageError(error, flags: Self.flags) }
        }
        options.minimumRating = try arguments.optionalValue("min-rating", expected: "a number of stars from 0 to 5") {
            Double($0).flatMap { $0.isFinite && Rating.starRange.contains($0) ? $0 : nil }
        }
        options.perPage = try arguments.optionalValue("per-page", expected: "a number of cells, 1 or more") {
            Int($0).flatMap { $0 >= 1 ? $0 : nil }
        }
        options.scales = try ThumbnailSettings.wholeScales(arguments)
        let placement = arguments.value("rating-badge") ?? "under"
        switch placement.lowercased() {
        case "under": options.badge = .under
        case "none": options.badge = .none
        default:
            guard let corner = Gravity(name: placement) else {
                throw .invalidValue("rating-badge", placement, expected: "under, none, or a corner or edge such as southeast")
            }
            options.badge = .on(corner)
        }
        if case .none = options.badge { try RatingBadgeSettings.refuseShaping(arguments) }
        options.badgeStyle = try RatingBadgeSettings.look(arguments)

        let reader = try RatingSourceSettings.reader(arguments)
        let pairing = try ThumbnailCommand.pairing(arguments)
        let sheet = ContactSheet(options: options, jobs: jobs)
        let naming = SheetNaming(stem: output.nameFormat, fileExtension: output.fileExtension ?? output.format.fileExtension, numbered: options.perPage != nil)
        let sources: [SheetSource]
        let found: ContactSheet.Inputs
        do {
            found = try ContactSheet.findSources(arguments.positionalPaths, includeHidden: arguments.has("hidden"), jobs: jobs,
                                                 excluding: naming, pairing: pairing, rating: { path in
                                                     path.string.map { reader.externalRating(forSourceAt: $0) } ?? RatingLookup()
                                                 })
        } catch {
            console.err("thumbgen: \(error.message)\n")
            return .failure
        }
        sources = found.sources
        let verbosity = Verbosity(arguments, console: console)
        var status = ExitCode.success
        for failure in found.failures {
            console.fail(named: failure.name, failure.text)
            status = .failure
        }
        if verbosity.verbose {
            for twin in found.twins { console.err("skipped: \(twin.name): \(twin.text)\n") }
        }
        let plan: SheetPlan
        do {
            plan = try sheet.plan(sources)
        } catch {
            if error.isAboutOptions { throw UsageError(error, flags: Self.flags) }
            console.err("thumbgen: \(error.commandLineMessage(flags: Self.flags))\n")
            return .failure
        }
        for failure in plan.failures {
            console.fail(named: failure.name, failure.text)
            status = .failure
        }
        if verbosity.showsWarnings {
            for warning in plan.warnings { console.warn(named: warning.name, warning.text) }
        }
        var photos = 0
        let display = BatchDisplay(console: console, showBar: try BatchDisplay.showsBar(arguments, verbosity: verbosity, console: console),
                                   verbose: false, warnings: false)
        let progress = SheetProgress(total: plan.pages.reduce(0) { $0 + $1.count }, display: display)
        defer { display.finish() }
        for index in plan.pages.indices {
            let page: SheetPage
            do { page = try sheet.render(page: index, of: plan, cellDone: progress.cellDone) } catch {
                display.finish()
                console.err("thumbgen: \(naming.image(page: index, scale: options.scales[0])): \(error.commandLineMessage(flags: Self.flags))\n")
                return .failure
            }
            // The bar gives way to the page's messages, and is drawn again by the next page's cells.
            display.finish()
            for cell in page.cells {
                if let error = cell.error {
                    console.fail(named: cell.name, error)
                    status = .failure
                } else if verbosity.showsWarnings {
                    for warning in cell.warnings { console.warn(named: cell.name, warning) }
                }
            }
            let names = page.files.map { naming.image(page: index, scale: $0.scale) }
            var files = zip(names, page.files.map(\.bytes)).map { (path: $0, bytes: $1) }
            files.append((naming.map(page: index), SheetMap.json(for: page, fileNames: names.map(Self.baseName))))
            do {
                try ContactSheet.write(files)
            } catch {
                console.err("thumbgen: \(error.message)\n")
                return .failure
            }
            if verbosity.verbose {
                for file in files { console.err("\(PathEscaping.escape(file.path))\n") }
            }
            photos += page.cells.filter { $0.error == nil }.count
        }
        if verbosity.showsSummary {
            let pages = plan.pages.count
            let first = PathEscaping.escape(naming.image(page: 0, scale: options.scales[0]))
            let last = PathEscaping.escape(naming.image(page: max(pages - 1, 0), scale: options.scales[0]))
            console.err("\(photos) photo\(photos == 1 ? "" : "s") on \(pages) page\(pages == 1 ? "" : "s") written to "
                        + (pages > 1 ? "\(first) … \(last)" : first) + "\n")
        }
        return status
    }

    /// The last component of a path: what the map names the page's files by (they sit beside it).
    private static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// How each cell's picture is made: the thumbnail options a sheet takes.
    private func thumbnailOptions(_ arguments: ParsedArguments, format: OutputFormat) throws(UsageError) -> ThumbnailOptions {
        var options = ThumbnailOptions(background: .white)
        if let text = arguments.value("cell") {
            do { options.size = try ThumbnailSize(parsing: text) } catch { throw UsageError("invalid value for --cell: \(error.message)") }
        }
        if let fitText = arguments.value("fit") {
            guard let mode = FitMode(rawValue: fitText) else { throw .invalidValue("fit", fitText, expected: "inside, cover, contain or fill") }
            options.size.mode = mode
        }
        if arguments.has("enlarge") { options.size.scale = .any }
        try ThumbnailSettings.applyPlacement(arguments, to: &options)
        if let text = arguments.value("background") {
            if text.lowercased() == "none" {
                guard format.holdsAlpha else { throw UsageError("--background none needs a format with alpha (PNG or WebP), not \(format.name.uppercased())") }
                options.background = nil
            } else {
                do { options.background = try Color(hex: text) } catch { throw .invalidValue("background", text, expected: "RRGGBB, RRGGBBAA or none") }
                if let background = options.background, background.alpha != 255, !format.holdsAlpha {
                    throw UsageError("--background must be opaque for \(format.name.uppercased()) output, which has no alpha")
                }
            }
        }
        options.kernel = try ThumbnailSettings.kernel(arguments)
        options.autoRotate = !arguments.has("no-rotate")
        options.shrinkOnLoad = !arguments.has("no-shrink-on-load")
        options.format = format
        options.limits = try CommonOptions.limits(arguments)
        options.limits.maxMemory = try arguments.value("max-memory", default: MemoryBudget.available() / 2,
                                                       expected: "a number of bytes, e.g. 536870912 or 512M") { CommonOptions.bytes($0) }
        return options
    }
}
