import Glibc
import ThumbKit

/// `thumbgen manifest merge MANIFEST... -o FILE`: the shard manifests of one run as one.
struct ManifestCommand: Command {
    let name = "manifest"
    let summary = "Merge the manifests of a sharded run into one."

    static let options: [OptionSpec] = [
        OptionSpec("output", short: "o", value: "FILE", help: "Write the merged manifest to FILE (paths in it become relative to its folder)."),
    ] + Verbosity.options(listing: "manifest read")

    var help: HelpText {
        HelpText(
            overview: "Merge the manifests of a sharded run (thumbgen-manifest.K-of-N.json) into one.",
            usage: ["thumbgen manifest merge MANIFEST... -o FILE"],
            arguments: [("MANIFEST", "The shards' manifests, or output folders (every thumbgen-manifest*.json in them).")],
            options: Self.options,
            footer: """
            Each output must be listed by one manifest only: two shards claiming one output (shards of
            runs with different inputs, --base or counts) is an error and nothing is written. The merged
            manifest is what a one-process run would have written; thumbgen check FILE verifies it.
            On a terminal, with -v or --summary: N outputs from M manifests merged into FILE.
            Exit status: 0 merged, 1 a manifest could not be read or two claim one output, 64 usage error.
            """,
            examples: [("thumbgen manifest merge thumbs/thumbgen-manifest.*-of-4.json -o thumbs/thumbgen-manifest.json",
                        "Join four shards' manifests after an array job.")])
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard arguments.positionals.first == "merge" else {
            throw UsageError("expected 'merge' (thumbgen manifest merge MANIFEST... -o FILE)")
        }
        let inputs = Array(arguments.positionalPaths.dropFirst())
        guard !inputs.isEmpty else { throw UsageError("no manifests given") }
        guard let output = arguments.path("output") else { throw UsageError("give the merged manifest's file with -o FILE") }
        var manifests: [FilePath] = []
        for input in inputs {
            var st = stat()
            if input.withCString({ stat($0, &st) }) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                let found = Batch.manifestPaths(in: input).filter { $0.normalized != output.normalized }
                if found.isEmpty {
                    console.fail(input, "no thumbgen-manifest*.json in this folder")
                    return .failure
                }
                manifests += found
            } else {
                manifests.append(input)
            }
        }
        do {
            let merged = try ManifestMerge.merge(manifests, into: output)
            _ = try merged.write(to: output)
            let verbosity = Verbosity(arguments, console: console)
            if verbosity.verbose {
                for manifest in manifests { console.err("\(manifest.description)\n") }
            }
            if verbosity.showsSummary {
                console.err("\(merged.entries.count) outputs from \(manifests.count) manifest\(manifests.count == 1 ? "" : "s") merged into \(output.description)\n")
            }
            return .success
        } catch let failure as ManifestMerge.Failure {
            console.err("thumbgen: \(failure.message)\n")
            return .failure
        } catch let error as FileWriteError {
            console.fail(output, error.message)
            return error.isMachineFailure ? .temporaryFailure : .failure
        } catch {
            console.err("thumbgen: \(error)\n")
            return .failure
        }
    }
}
