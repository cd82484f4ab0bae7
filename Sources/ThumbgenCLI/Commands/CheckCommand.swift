import Glibc
import ThumbKit

/// `thumbgen check MANIFEST...`: regenerates every output a manifest lists, in memory, with the
/// settings it recorded, and reports each one whose file or pixels differ.
struct CheckCommand: Command {
    let name = "check"
    let summary = "Verify thumbnails against their manifests, regenerating each in memory."

    static let options: [OptionSpec] = [
        OptionSpec("jobs", short: "j", value: "N", help: "Regenerate N outputs at once (default: the number of cores)."),
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
            Each output is compared on disk and regenerated from its source with the recorded settings.
            The pixel hash (SHA-256 of the RGBA8 samples that were encoded) survives encoder upgrades (zlib,
            libpng, libjpeg-turbo, libwebp); the file hash (SHA-256 of the file's bytes) does not, so a
            file-only mismatch means the encoder changed. On disk, the pixels of PNG and lossless WebP
            outputs are compared; a lossy JPEG or WebP is checked by its file hash and decoded size.
            Each output that differs is one line, OUTPUT: what differs (several differences joined by "; ").
            The last line, N outputs checked, M differ, is printed on a terminal or with --summary.
            Exit status: 0 all match, 1 any mismatch or unreadable output.
            """,
            examples: [("thumbgen check thumbs/", "Verify every output the manifests in thumbs/ list."), ("thumbgen check --summary thumbs/thumbgen-manifest.json", "The same, with the counts line off a terminal.")])
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
        do {
            let report = try Batch.check(manifestPaths: manifests, renderer: ThumbnailSettings.renderer(limits: options.limits, allowPartial: false), jobs: jobs)
            console.err(report.formatted(prefix: "thumbgen: ", counts: CommonOptions.showsSummary(arguments, console: console)))
            return report.mismatches.isEmpty ? .success : .failure
        } catch {
            console.err("thumbgen: \(error.message)\n")
            return .failure
        }
    }
}
