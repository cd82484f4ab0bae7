import Glibc
import ThumbKit

/// `thumbgen check MANIFEST...`: regenerates every output a manifest lists, in memory, with the
/// settings it recorded, and reports each one whose file or pixels differ.
struct CheckCommand: Command {
    let name = "check"
    let summary = "Verify thumbnails against their manifests, regenerating each in memory."

    static let options: [OptionSpec] = [
        OptionSpec("jobs", short: "j", value: "N", help: "Regenerate N outputs at once (default: the number of cores)."),
        OptionSpec("tolerance", value: "N", help: "Accept regenerated pixels within N levels (0-255) of the output on disk (default 0)."),
        OptionSpec("diff", value: "DIR", help: "Write a diff image of each output whose pixels differ into DIR (NAME.diff.png)."),
        OptionSpec("update", help: "Rewrite the outputs that differ, and their manifest entries, as regenerated now."),
        OptionSpec("verbose", short: "v", help: "Print a line per output, including those that match, and the summary."),
        OptionSpec("json", help: "Print the report as JSON on standard output instead of lines."),
        OptionSpec("quiet", short: "q", help: "Print no lines for outputs that differ (the exit status says it; the summary only with --summary)."),
        CommonOptions.maxPixels,
        CommonOptions.maxFileBytes,
        CommonOptions.maxMemory,
        CommonOptions.summary,
    ]

    var help: HelpText {
        HelpText(
            overview: "Verify thumbnails against their manifests (golden-output regression checks).",
            usage: ["thumbgen check [options] MANIFEST|DIR|PROJECT..."],
            arguments: [("MANIFEST|DIR|PROJECT", "thumbgen-manifest.json files (all shards of a run together), output folders, or a thumbgen.json project (its manifest).")],
            options: Self.options,
            footer: """
            Each output is regenerated from its source with the recorded settings, and compared on disk
            when it is there (the manifest and the sources are enough). A source whose SHA-256 is not
            the manifest's changed since; it is reported, not regenerated. The same pixels in other
            bytes are the encoder's doing (libdeflate, libjpeg-turbo, libwebp); other pixels are
            measured against the output on disk (pixels that differ, maximum difference, PSNR). Either
            names each library whose version differs from the manifest's (from -> to).
            Each output that differs is one line, OUTPUT: what differs (several differences joined by "; ").
            The last line, N outputs checked, M differ, is printed on a terminal, with -v or --summary.
            Exit status: 0 all match (or were updated), 1 any mismatch or unreadable output.
            """,
            examples: [("thumbgen check thumbs/", "Verify every output the manifests in thumbs/ list."), ("thumbgen check --summary thumbs/thumbgen-manifest.json", "The same, with the counts line off a terminal."), ("thumbgen check -v --diff diffs/ thumbs/", "Explain each difference and write a diff image for it.")])
    }

    /// The project a `.json` argument is, when it is one (a project has no `outputs` list).
    static func project(_ path: FilePath) -> Project? {
        guard case .success(let bytes) = FileSystem.read(path), !bytes.isEmpty,
              let text = String(validating: bytes, as: UTF8.self), !text.contains("\"outputs\"") else { return nil }
        return try? Project(file: path)
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no manifests given") }
        var options = ThumbnailOptions()
        let jobs = try arguments.value("jobs", default: BatchConfiguration.defaultJobs,
                                       expected: "a number of jobs from 1 to 256") { Int($0).flatMap { (1...256).contains($0) ? $0 : nil } }
        options.limits = try CommonOptions.limits(arguments, jobs: jobs)
        var manifests: [FilePath] = []
        for path in arguments.positionalPaths {
            var st = stat()
            if path.withCString({ stat($0, &st) }) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                let found = Batch.manifestPaths(in: path)
                if found.isEmpty {
                    console.fail(path, "no thumbgen-manifest*.json in this folder")
                    return .failure
                }
                manifests += found
            } else if let project = Self.project(path) {
                manifests.append(project.manifestPath)
            } else {
                manifests.append(path)
            }
        }
        let tolerance = try arguments.value("tolerance", default: 0, expected: "a number of levels from 0 to 255") {
            Int($0).flatMap { (0...255).contains($0) ? $0 : nil }
        }
        let checking = CheckOptions(tolerance: tolerance, diffDirectory: arguments.value("diff").map { FilePath($0) },
                                    update: arguments.has("update"))
        do {
            let report = try Batch.check(manifestPaths: manifests, renderer: ThumbnailSettings.renderer(limits: options.limits, allowPartial: false),
                                         jobs: jobs, options: checking)
            if arguments.has("json") {
                console.out(report.json)
            } else {
                // -q leaves only the exit status (as `cmp -s` does), and the counts if --summary asks.
                let verbosity = Verbosity(arguments, console: console)
                console.err(report.formatted(prefix: "thumbgen: ", outputs: !verbosity.quiet, counts: verbosity.showsSummary,
                                             verbose: verbosity.verbose))
            }
            return report.exitStatus == 0 ? .success : .failure
        } catch {
            console.err("thumbgen: \(error.message)\n")
            return .failure
        }
    }
}
