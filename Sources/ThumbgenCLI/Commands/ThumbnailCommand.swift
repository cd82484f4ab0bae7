import Glibc
import ThumbKit

/// `thumbgen [options] INPUT...`: the main job — thumbnails of files and directory trees.
struct ThumbnailCommand: Command {
    let name = ""
    let summary = "Make thumbnails of image files and directory trees (the default command)."

    static let batchOptions: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "DIR", help: "Write thumbnails under DIR, mirroring the inputs (default thumbnails/)."),
        OptionSpec("name", value: "FORMAT", help: "Output name: %s is the source name without extension, %e its extension, %w the width (default %s, or %s-%w with --widths); the format's extension is added."),
        OptionSpec("pairs", value: "WHICH", choices: SourcePairing.allCases.map(\.rawValue),
                   help: "Twins of a shot (IMG_1.CR2 and IMG_1.JPG): prefer-jpeg (default; one thumbnail, the others skipped), prefer-raw (RAW, then HEIC) or both (name them apart with %e)."),
        OptionSpec("base", value: "DIR", help: "Mirror each source's path below DIR instead of below its input (runs over photos/ and photos/day1 then agree)."),
        OptionSpec("manifest", value: "FILE", help: "Keep the manifest in FILE instead of DIR/thumbgen-manifest.json (paths in it are relative to its folder)."),
        OptionSpec("jobs", short: "j", value: "N", help: "Work on N images at once (default: the number of cores)."),
        OptionSpec("force", help: "Rebuild every output, even those the manifest says are up to date."),
        OptionSpec("write-mode", value: "MODE", choices: ["atomic", "direct"],
                   help: "atomic (default): write a temporary file, then rename it; direct: write each output once under its final name (object-store mounts that refuse rename)."),
        OptionSpec("no-fsync", help: "Do not flush outputs to disk (faster; safe against kills, not power loss)."),
        OptionSpec("hidden", help: "Also process files and folders whose names start with '.'."),
    ] + ShardSettings.options + FileList.options + [
        EventLog.option,
        BatchDisplay.progressOption,
        OptionSpec("prune", help: "Remove outputs whose sources are gone or no longer images, and their manifest entries (only files thumbgen wrote)."),
    ] + Verbosity.options(listing: "file, including skipped ones") + WebSettings.options

    var help: HelpText {
        HelpText(
            overview: "Make PNG, JPEG, WebP or AVIF thumbnails of \(ImageFormat.names("and", kinds: true)) files and directory trees.",
            usage: ["thumbgen [options] INPUT...", "thumbgen build [FILE]", "thumbgen info FILE...", "thumbgen stars [options]",
                    "thumbgen sheet [options] INPUT... [-o sheet.png]", "thumbgen icons [options] MASTER [-o DIR]",
                    "thumbgen check MANIFEST...", "thumbgen help [COMMAND]"],
            arguments: [("INPUT", "\(ImageFormat.names(kinds: true)) files, or directories walked recursively in sorted order.")],
            options: ThumbnailSettings.options + Self.batchOptions + [OptionSpec("version", short: "V", help: "Show the version and the image libraries' versions.")],
            footer: """
            Output is PNG unless --format or --name says otherwise: 8 bits per channel, in the smallest
            lossless colour type (--color-type rgba forces 8-bit RGBA). JPEG (quality 85, 4:2:0,
            optimised Huffman tables) has no alpha: transparent thumbnails, rounded corners and
            contain's margins are flattened onto --background, white by default. WebP (quality 80,
            or --lossless) and AVIF (quality 50, effort 4, libaom on one thread) keep alpha. No
            metadata is written but the sRGB mark (PNG, AVIF) or, with --keep-profile, the ICC
            profile. Same input, options and libraries give the same bytes, whatever -j.
            --placeholder stores per-source placeholders in the manifest; --metadata and --html
            write a JSON file and <picture> markup for every source (see docs/web.md).
            --rating-badge CORNER draws each photo's star rating (--ratings-file, else its XMP sidecar,
            else its XMP, else its EXIF Rating) on the picture: the badge thumbgen stars draws for the
            same --fill/--empty/--outline/--half/--fill-mode, composited at the corner; rejected and
            unrated photos get none. The manifest records each rating: a changed sidecar rebuilds.
            The output folder gets thumbgen-manifest.json (outputs with their SHA-256 hashes); a rerun
            rebuilds only what changed. Exit status: 0 all done, 1 some input failed, 64 usage error,
            75 the machine failed (no space, I/O error, read-only output: retry elsewhere), 130/143
            interrupted by SIGINT/SIGTERM. A run that finds no image says so and exits 0.

            Messages: success prints nothing unless standard error is a terminal, -v or --summary
            (then a last line: N written, M up to date, K skipped, F failed in T s). Each failed file
            is one line, thumbgen: FILE: reason, with control characters and bytes that are not UTF-8
            in names escaped (\\n, \\t, \\\\, \\xNN). Any name works: a stem too long for NAME@3x.png to
            fit 255 bytes is cut to 239 bytes plus ~ and 8 hex digits of its SHA-256.
            --prune removes the outputs the manifest lists whose sources are no longer among the
            inputs (deleted, renamed, no longer images), if they still hold the bytes thumbgen wrote.
            Limits, memory per job, pipes, file lists, exit codes and events: see thumbgen(1).
            """,
            examples: [
                ("thumbgen photos/ -o thumbs", "A 128-pixel PNG thumbnail of every image under photos/, in thumbs/ (a rerun makes only what changed)."),
                ("thumbgen photos/ -o thumbs --widths 320,640,1280 --format webp,jpeg", "Three widths in two formats for responsive images."),
                ("thumbgen photos/ -o public/img --widths 320,640 --format avif,webp,jpeg --placeholder lqip --html public/img/pictures.html", "AVIF, WebP and JPEG with a <picture> per photo."),
                ("thumbgen photos/ -o thumbs --shard 2/8", "The second of eight slices, for eight machines or processes."),
                ("thumbgen help check", "The help of one command (man thumbgen-check has more)."),
            ],
            commands: ThumbgenMain.commands.filter { !$0.name.isEmpty }.map { ($0.name, $0.summary) } + [("help [COMMAND]", "Show the help of thumbgen or of one command.")],
            manual: [("LIMITS AND MEMORY", Self.limits)])
    }

    /// The limits and the memory formula, for the man page (too long for `--help`).
    static let limits = """
            --max-pixels bounds every decoded image and output canvas; --max-file-bytes the
            bytes read per file; one ancillary chunk is at most 8 MiB; --max-memory what one job may
            plan to hold, checked from the header before decoding. Files are read in chunks and
            only up to the end of the image data. Memory per job is about 9 MiB + 64 x width +
            40 x output pixels (+ the filter window), plus 4 (8 if 16-bit) x source pixels when
            the image is decoded whole (interlaced, rotated, colour-converted, or an output at its
            own size), twice that when rotated or converted, and 6 x pixels for a progressive JPEG;
            anything else is streamed row by row into every output size. Only regular files are read.
            """

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty || arguments.value("files-from") != nil else { throw UsageError("no inputs given") }
        let parsed = try ThumbnailSettings.thumbnailSet(arguments)
        var set = parsed.set
        if arguments.positionals.contains(StandardStreams.word) {
            let limits = try CommonOptions.limits(arguments, jobs: 1)
            return try StandardStreams(arguments, set: set, limits: limits).run(console: console)
        }
        if arguments.value("output") == StandardStreams.word {
            throw UsageError("-o - writes one thumbnail to standard output: the input must be '-' (standard input)")
        }
        let shard = try ShardSettings(arguments, environment: ProcessEnvironment.variables)
        var inputs = arguments.positionalPaths
        var base = arguments.path("base")
        let list = try FileList(arguments)
        if let list {
            switch list.read() {
            case .success(let paths): inputs += paths
            case .failure(let failure):
                console.fail(named: list.shownName, failure.message)
                return .failure
            }
            // Listed paths mirror below the folder they are relative to.
            base = base ?? "."
        }
        let naming: OutputNaming
        do {
            naming = try OutputNaming(format: parsed.output.nameFormat, fileExtension: parsed.output.fileExtension)
        } catch {
            throw UsageError("invalid value for --name: \(error.message)")
        }
        let outputDirectory = arguments.path("output") ?? "thumbnails"
        var configuration = BatchConfiguration(inputs: inputs, outputDirectory: outputDirectory,
                                               naming: naming, thumbnailSet: set, manifestPath: arguments.path("manifest"),
                                               base: base)
        configuration.jobs = try Self.jobs(arguments)
        set.options.limits = try CommonOptions.limits(arguments, jobs: configuration.jobs)
        configuration.groups[0].thumbnailSet = set
        configuration.groups[0].pairing = try Self.pairing(arguments)
        configuration.limits = set.options.limits
        configuration.force = arguments.has("force")
        configuration.includeHidden = arguments.has("hidden")
        configuration.sync = !arguments.has("no-fsync")
        configuration.writeMode = try arguments.value("write-mode", default: .atomic, expected: "atomic or direct") {
            BatchConfiguration.WriteMode(rawValue: $0)
        }
        configuration.prune = arguments.has("prune") ? .orphans : nil
        configuration.shard = shard.shard
        if let origin = shard.origin, let slice = shard.shard, Verbosity(arguments, console: console).verbose {
            console.err("shard \(slice.index)/\(slice.count) (from \(origin))\n")
        }
        try RatingSourceSettings.apply(arguments, drawsBadges: set.options.ratingBadge != nil, to: &configuration)
        var web = try WebSettings(arguments)
        if !web.isEmpty && shard.shard != nil { throw UsageError("--metadata and --html need the whole run, not a --shard (merge the manifests, then run again)") }
        web.settings = [configuration.groups[0].settings]
        web.outputDirectory = outputDirectory
        return try Self.run(configuration, arguments: arguments, console: console, listName: list?.shownName, web: web.isEmpty ? [] : [web])
    }

    /// `--pairs`.
    static func pairing(_ arguments: ParsedArguments) throws(UsageError) -> SourcePairing {
        try arguments.value("pairs", default: .preferJPEG, expected: "prefer-jpeg, prefer-raw or both") { SourcePairing(rawValue: $0) }
    }

    /// `-j N`.
    static func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.value("jobs", default: BatchConfiguration.defaultJobs,
                            expected: "a number of jobs from 1 to 256") { Int($0).flatMap { (1...256).contains($0) ? $0 : nil } }
    }

    /// Runs a batch with the progress bar, `-v` lines, warnings, summary and exit status the
    /// options ask for (the thumbnail and build commands share it).
    /// `listName`: the `--files-from` list the inputs came from, for the message of an empty run.
    /// `web`: metadata and HTML to write from the manifest once the run has finished (not after a
    /// cancelled run or the machine's failure).
    static func run(_ configuration: BatchConfiguration, arguments: ParsedArguments, console: Console,
                    listName: String? = nil, web: [WebSettings] = []) throws(UsageError) -> ExitCode {
        // Silence is success: a build step that runs thumbgen per file hears only of failures.
        let verbosity = Verbosity(arguments, console: console)
        let showSummary = verbosity.showsSummary
        let showBar = try BatchDisplay.showsBar(arguments, verbosity: verbosity, console: console)
        // Warnings (a corrupt-but-readable JPEG, an unusable colour profile, an enlarged scale) are
        // not failures: printed in plan order, not counted, and not printed with -q.
        let cancellation = CancellationFlag()
        let display = BatchDisplay(console: console, showBar: showBar, verbose: verbosity.verbose, warnings: verbosity.showsWarnings,
                                   cancellation: cancellation)
        let signals = SignalCancellation(cancellation)
        var events: EventLog?
        if let path = arguments.path("events") { events = try EventLog(path) }
        let handle = display.handle
        let log = events
        let progress: BatchProgressHandler = { event, counters in
            handle(event, counters)
            log?.log(event)
        }
        let summary: BatchSummary
        do {
            summary = try Batch.run(configuration, renderer: ThumbnailSettings.renderer(limits: configuration.groups[0].thumbnailSet.options.limits,
                                                                                         allowPartial: configuration.groups[0].thumbnailSet.options.allowPartial),
                                    cancellation: cancellation, progress: progress)
        } catch {
            console.err("thumbgen: \(error.message)\n")
            return .failure
        }
        display.finish()
        console.err(summary.formatted(prefix: "thumbgen: ", counts: showSummary))
        // A run that found nothing says so (a mistyped folder, a wrong --shard), though it is not
        // a failure: an empty folder is a valid input, and a build step must not break on it.
        if !verbosity.quiet && summary.written + summary.upToDate + summary.failed.count + summary.notProcessed == 0 {
            let inputs = listName.map { "the files listed in \($0)" }
                ?? configuration.groups.flatMap(\.inputs).map(\.description).joined(separator: ", ")
            let shard = configuration.shard.map { " (shard \($0.index)/\($0.count))" } ?? ""
            console.err("thumbgen: no images found in \(inputs)\(shard)\n")
        }
        if summary.machineFailure != nil { return .temporaryFailure }
        if !summary.cancelled {
            for settings in web {
                if let failure = settings.write(manifest: configuration.manifestPath) {
                    console.err("thumbgen: \(failure)\n")
                    return .failure
                }
            }
        }
        if summary.cancelled { return signals.receivedSignal == SIGTERM ? .terminated : .interrupted }
        return summary.failed.isEmpty ? .success : .failure
    }
}
