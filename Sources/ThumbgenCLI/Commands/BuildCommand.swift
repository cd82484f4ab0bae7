import Glibc
import ThumbKit

/// `thumbgen build [FILE]`: every group of a `thumbgen.json` project in one run — one decode per
/// source across the groups that use it, one manifest, incremental — and its star badge sets.
/// What a Makefile, an npm script or CI calls.
struct BuildCommand: Command {
    let name = "build"
    let summary = "Make everything a thumbgen.json project asks for, in one run."

    /// The thumbnail command's run options that apply to a whole project (the project file gives
    /// everything else), and a prune of its own.
    static let options: [OptionSpec] = ThumbnailCommand.batchOptions.filter {
        ["jobs", "force", "no-fsync", "hidden", "progress", "quiet", "verbose", "summary"].contains($0.long)
    } + [
        OptionSpec("prune", help: "Remove every output the manifest lists that the project no longer makes (only files thumbgen wrote)."),
    ]

    var help: HelpText {
        HelpText(
            overview: "Make everything a thumbgen.json project asks for, in one run.",
            usage: ["thumbgen build [options] [FILE]"],
            arguments: [("FILE", "The project file (default thumbgen.json in the current folder).")],
            options: Self.options,
            footer: """
            A project lists thumbnail groups (source folder, output folder, and any thumbnail option
            in camelCase: widths, formats, scales, size, fit, cornerRadius, quality, …) and star badge
            sets. Paths are relative to the project file. Each source is decoded once for all the groups
            that read it; one manifest (thumbgen-manifest.json beside the project, or "manifest")
            records every output, so a rerun makes only what changed and --prune removes what the
            project no longer makes. A mistake in the file is one line naming the file and the member.
            Exit status as for thumbgen: 0 done, 1 a source or the project failed, 64 usage error.
            """,
            examples: [("thumbgen build", "Make what ./thumbgen.json asks for; a rerun makes only what changed."), ("thumbgen build site/thumbgen.json --prune -v", "Build another project, remove what it no longer makes, list every file.")])
    }

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count <= 1 else { throw UsageError("build takes one project file") }
        let file = arguments.positionalPaths.first ?? "thumbgen.json"
        let project: Project
        do {
            project = try Project(file: file)
        } catch {
            console.err("thumbgen: \(error.message)\n")
            return .failure
        }
        let jobs = try ThumbnailCommand.jobs(arguments)
        var configuration: BatchConfiguration
        do {
            configuration = try project.configuration(jobs: jobs)
        } catch {
            console.err("thumbgen: \(error.message)\n")
            return .failure
        }
        configuration.force = arguments.has("force")
        configuration.includeHidden = arguments.has("hidden")
        configuration.sync = !arguments.has("no-fsync")
        configuration.prune = arguments.has("prune") ? .notPlanned : nil
        // Every path of a project lies inside its folder: what the project no longer makes is there.
        configuration.pruneRoots = [project.folder.isEmpty ? "." : project.folder]
        if let failure = project.writeStars() {
            console.err("thumbgen: \(failure)\n")
            return .failure
        }
        guard !configuration.groups.isEmpty else { return .success }
        return try ThumbnailCommand.run(configuration, arguments: arguments, console: console, web: project.webSettings(configuration))
    }
}

/// A `thumbgen.json` read and turned into what thumbgen runs: a batch configuration for its
/// thumbnail groups and the badge sets of its stars. The file is read by `ThumbgenConfig`, the
/// reader the SwiftPM plugins use; each group's options then go through the thumbnail command's
/// own option parsing, so a group means exactly what the same command line would.
struct Project {
    /// A project that cannot be used: one line naming the file and the member.
    struct Failure: Error {
        let message: String
    }

    let file: FilePath
    let config: ThumbgenConfig
    /// The folder paths in the file are relative to.
    let folder: FilePath

    init(file: FilePath) throws(Failure) {
        self.file = file
        folder = file.directory
        let bytes: [UInt8]
        switch FileSystem.read(file) {
        case .failure(let failure): throw Failure(message: "\(file): cannot read: \(failure.reason)")
        case .success(let read): bytes = read
        }
        let folder = self.folder
        func inFolder(_ path: String) -> FilePath { folder.isEmpty ? FilePath(path) : folder.appending(FilePath(path)) }
        do throws(ThumbgenConfigError) {
            config = try ThumbgenConfig(bytes: bytes, file: file.description,
                                        readFile: { path in try? FileSystem.read(inFolder(path)).get() },
                                        isDirectory: { path in
                                            var st = stat()
                                            return inFolder(path).withCString { stat($0, &st) } == 0 && (st.st_mode & S_IFMT) == S_IFDIR
                                        })
        } catch {
            throw Failure(message: error.description)
        }
    }

    /// A path in the file, as seen from the working directory.
    func path(_ relative: String) -> FilePath { folder.isEmpty ? FilePath(relative) : folder.appending(FilePath(relative)) }

    /// The project's manifest.
    var manifestPath: FilePath { path(config.manifest) }

    /// What a thumbnail group's members become: the thumbnail settings and the output name (the
    /// config turns `name` into `--name`; the batch's other options are the project's, not a group's).
    static let thumbnailGroupOptions = ThumbnailSettings.options + ThumbnailCommand.batchOptions.filter { $0.long == "name" }

    /// The batch for the thumbnail groups: each group's members as the thumbnail command's
    /// options, its source as input and base, its output folder; one manifest.
    func configuration(jobs: Int) throws(Failure) -> BatchConfiguration {
        var groups: [OutputGroup] = []
        var ratingOptions: [String]?
        var externalRating: ParsedArguments?
        var limits = DecodeLimits.default
        for group in config.thumbnails {
            let arguments: ParsedArguments
            let set: ThumbnailSet
            let output: OutputSettings
            do throws(UsageError) {
                arguments = try ArgumentParser(Self.thumbnailGroupOptions).parse(group.options)
                (set, output) = try ThumbnailSettings.thumbnailSet(arguments)
            } catch {
                throw Failure(message: "\(file): \(group.member): \(Self.membersNamed(error.message))")
            }
            var groupSet = set
            do throws(UsageError) {
                groupSet.options.limits = try CommonOptions.limits(arguments, jobs: jobs)
            } catch {
                throw Failure(message: "\(file): \(group.member): \(Self.membersNamed(error.message))")
            }
            limits = groupSet.options.limits
            let naming: OutputNaming
            do {
                naming = try OutputNaming(format: output.nameFormat, fileExtension: output.fileExtension)
            } catch {
                throw Failure(message: "\(file): \(group.member).name: \(error.message)")
            }
            if set.options.ratingBadge != nil {
                // One lookup serves every group of a run: groups that draw badges must agree on it.
                let given = [RatingSourceSettings.ratingsFile.long, RatingSourceSettings.noSidecars.long]
                    .map { arguments.value($0) ?? (arguments.has($0) ? "on" : "") }
                if let earlier = ratingOptions, earlier != given {
                    throw Failure(message: "\(file): \(group.member): ratingsFile and noSidecars must be the same in every group that draws a ratingBadge")
                }
                ratingOptions = given
                externalRating = arguments
            }
            let source = path(group.source)
            var outputGroup = OutputGroup(name: group.member, inputs: [source], base: source, outputDirectory: path(group.output),
                                          naming: naming, thumbnailSet: groupSet)
            outputGroup.pairing = SourcePairing(rawValue: group.pairs) ?? .preferJPEG
            groups.append(outputGroup)
        }
        for group in config.icons {
            let master = path(group.source)
            var iconGroup: OutputGroup
            do throws(UsageError) {
                let arguments = try ArgumentParser(IconSettings.options + IconsCommand.limitOptions).parse(group.options)
                var set = try IconSettings.iconSet(arguments, master: master, manifestDirectory: manifestPath.directory, resolve: { folder.isEmpty ? $0 : folder.appending($0) })
                set.limits = try CommonOptions.limits(arguments, jobs: jobs)
                iconGroup = OutputGroup(name: group.member, iconsOf: master, set: set, outputDirectory: path(group.output))
                iconGroup.thumbnailSet.options.limits = set.limits
            } catch {
                throw Failure(message: "\(file): \(group.member): \(Self.membersNamed(error.message))")
            }
            groups.append(iconGroup)
        }
        var configuration = BatchConfiguration(groups: groups, manifestPath: manifestPath, jobs: jobs)
        configuration.limits = limits
        if let badges = externalRating {
            do throws(UsageError) {
                try RatingSourceSettings.apply(badges, drawsBadges: true, to: &configuration)
            } catch {
                throw Failure(message: "\(file): \(Self.membersNamed(error.message))")
            }
        }
        return configuration
    }

    /// The metadata and HTML each thumbnail group asks for (`metadata`, `html`, `sizes`,
    /// `urlPrefix`), listing that group's outputs.
    func webSettings(_ configuration: BatchConfiguration) -> [WebSettings] {
        config.thumbnails.compactMap { group in
            guard group.web["metadata"] != nil || group.web["html"] != nil,
                  let made = configuration.groups.first(where: { $0.name == group.member }) else { return nil }
            var web = WebSettings(metadata: group.web["metadata"].map(path), html: group.web["html"].map(path),
                                  sizes: group.web["sizes"] ?? "100vw", urlPrefix: group.web["urlPrefix"] ?? "")
            web.settings = [made.settings]
            web.outputDirectory = made.outputDirectory
            return web
        }
    }

    /// Draws every star badge set into its output folder; files already holding the same bytes
    /// are left alone. Returns the failure, if any.
    func writeStars() -> String? {
        for set in config.stars {
            do throws(StarBadgeError) {
                let spec = try StarBadgeSpec(json: Array(set.specJSON.utf8))
                _ = try StarBadgeSet(spec: spec).render().write(to: path(set.output).description)
            } catch {
                return "\(file): \(set.member): \(error.message)"
            }
        }
        return nil
    }

    /// A message of the command line's with each `--option` it names spelt as the member that
    /// stands for it (`--corner-radius` → `cornerRadius`).
    static func membersNamed(_ message: String) -> String {
        var out = ""
        var rest = Substring(message)
        while let dashes = rest.indices.first(where: { rest[$0...].hasPrefix("--") }) {
            out += rest[..<dashes]
            let after = rest[dashes...].dropFirst(2)
            let name = after.prefix { $0.isLetter || $0 == "-" }
            out += ThumbgenConfig.member(forOption: String(name)) ?? "--" + name
            rest = after.dropFirst(name.count)
        }
        return out + rest
    }
}
