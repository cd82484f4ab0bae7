import ThumbKit

/// `thumbgen stars`: star rating badges, `1StarSmall.png` … `5StarsSmall.png`, optionally at @2x and
/// @3x and as an Xcode asset catalog.
struct StarsCommand: Command {
    let name = "stars"
    let summary = "Draw 1-5 star rating badges as PNG files."

    static let options: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "DIR", help: "Write the PNGs into DIR (default stars/)."),
        OptionSpec("xcassets", value: "DIR", help: "Also write an Xcode asset catalog DIR (e.g. Ratings.xcassets)."),
        OptionSpec("manifest", value: "FILE", help: "Also write FILE: each PNG's name with the SHA-256 of its bytes (JSON)."),
        OptionSpec("spec", value: "FILE", help: "Start from a badge spec JSON file (options given here override it)."),
        OptionSpec("slots", value: "N", help: "Stars per badge (default 5)."),
        OptionSpec("size", value: "PX", help: "Cell size at @1x in pixels (default 16)."),
        OptionSpec("spacing", value: "PX", help: "Gap between cells at @1x in pixels (default 1)."),
    ] + StarLookOptions.options + [
        OptionSpec("ratings", value: "LIST", help: "Ratings to draw, e.g. 0,1,2,3,4,5 or 3.7 (default 1 to slots)."),
        OptionSpec("scales", value: "LIST", help: "Scales to write, e.g. 1,2,3 adds NAME@2x.png and NAME@3x.png (default 1)."),
        OptionSpec("name", value: "FORMAT", help: "File name: %r rating, %s 's' unless the rating is 1, %% a percent (default %rStar%sSmall)."),
    ] + Verbosity.options(listing: "file written")

    var help: HelpText {
        HelpText(
            overview: "Draw 1–5 star rating badges as PNG files (and an Xcode asset catalog).",
            usage: ["thumbgen stars [options]"],
            arguments: [],
            options: Self.options,
            footer: """
            Geometry: a badge has SLOTS cells of SIZE x SIZE pixels with SPACING between them; each star is
            a regular five-pointed star of outer radius SIZE/2 centred in its cell. Every length is
            multiplied by the scale at @2x and @3x. Bad options exit 64 and write nothing.
            Success prints nothing unless standard error is a terminal, -v or --summary is given (then
            N badges written to DIR; -v also names each file); a failure is one line, thumbgen: FILE: reason.
            """,
            examples: [("thumbgen stars -o stars --scales 1,2,3", "1StarSmall.png ... 5StarsSmall.png at @1x, @2x and @3x."), ("thumbgen stars --half --xcassets Ratings.xcassets", "Half stars too, and an Xcode asset catalog.")])
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(PathEscaping.singleLine(arguments.positionals[0]))' (stars takes only options)")
        }
        let spec = try Self.spec(arguments)
        // Every badge is drawn and encoded here, once, before anything is written: a badge that
        // cannot be made exits 64 with nothing on disk, and the PNGs, the asset catalog and the
        // manifest below are all written from these bytes.
        let rendered: StarBadgeFiles
        do { rendered = try StarBadgeSet(spec: spec).render() } catch { throw UsageError(error) }
        let directory = arguments.value("output") ?? "stars"
        let xcassets = arguments.value("xcassets")
        do throws(StarBadgeError) {
            let written = try rendered.write(to: directory)
            if let xcassets { try rendered.writeAssetCatalog(to: xcassets) }
            if let manifest = arguments.value("manifest") { try rendered.writeManifest(to: manifest) }
            let verbosity = Verbosity(arguments, console: console)
            if verbosity.verbose {
                for path in written { console.err("\(PathEscaping.escape(path))\n") }
            }
            if verbosity.showsSummary {
                console.err("\(written.count) badges written to \(PathEscaping.escape(directory))"
                            + (xcassets.map { ", asset catalog \(PathEscaping.escape($0))" } ?? "") + "\n")
            }
            return .success
        } catch {
            console.err("thumbgen: \(PathEscaping.singleLine(error.commandLineMessage()))\n")
            return .failure
        }
    }

    /// The spec from `--spec` (if any) with the options applied on top.
    static func spec(_ arguments: ParsedArguments) throws(UsageError) -> StarBadgeSpec {
        do {
            var spec = StarBadgeSpec()
            spec.scales = [1]
            if let path = arguments.value("spec") {
                switch FileSystem.read(path) {
                case .failure(let failure): throw UsageError("--spec: cannot read \(PathEscaping.escape(path)): \(failure.reason)")
                case .success(let bytes): spec = try StarBadgeSpec(json: bytes)
                }
            }
            func integer(_ option: String) throws(UsageError) -> Int? {
                try arguments.optionalValue(option, expected: "a whole number") { Int($0) }
            }
            if let value = try integer("slots") { spec.slots = value }
            if let value = try integer("size") { spec.size = value }
            if let value = try integer("spacing") { spec.spacing = value }
            let colors = try StarLookOptions.colors(arguments)
            if let fill = colors.fill { spec.fill = fill }
            if let empty = colors.empty { spec.empty = empty }
            if let outline = colors.outline { spec.outline = outline }
            if let width = try StarLookOptions.outlineWidth(arguments) { spec.outlineWidth = width }
            if arguments.has("half") { spec = spec.withHalfRatings() }
            if let text = arguments.value("ratings") { spec.ratings = try StarBadgeSpec.parseRatings(text) }
            if let text = arguments.value("fill-mode") { spec.fillMode = try StarBadgeSpec.parseFillMode(text) }
            if let text = arguments.value("scales") { spec.scales = try StarBadgeSpec.parseScales(text) }
            if let text = arguments.value("name") { spec.nameFormat = try BadgeNameFormat(text) }
            return spec
        } catch let error as UsageError {
            throw error
        } catch let error as StarBadgeError {
            throw UsageError(error)
        } catch let error as any ThumbKitError {
            throw UsageError(error.message)
        } catch {
            throw UsageError("\(error)")
        }
    }
}
