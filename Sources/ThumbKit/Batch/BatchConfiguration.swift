import Glibc

/// Everything a batch run needs to know, apart from how to render one image.
package struct BatchConfiguration: Sendable {
    /// The sets of outputs to make, in order (a command line has one).
    package var groups: [OutputGroup]
    /// Where the manifest is kept, unsharded (a shard inserts `.K-of-N` before `.json`). Paths in it
    /// are relative to its folder, so it can live outside the outputs (`--manifest`).
    package var manifestPath: FilePath
    /// Worker threads; defaults to the number of online cores. Results do not depend on it.
    package var jobs: Int
    /// Rebuild every output even when the manifest says it is up to date.
    package var force: Bool
    /// Walk names beginning with `.` as well.
    package var includeHidden: Bool
    /// Process only this slice of the items; nil for all of them.
    package var shard: Shard?
    /// The tool's version; outputs built by another version are rebuilt.
    package var toolVersion: String
    /// How often, in seconds, a running batch rewrites its manifest (atomically) with what has
    /// completed, so that a run killed outright loses at most this much work. The final manifest
    /// is written regardless. 0 checkpoints after every file.
    package var checkpointSeconds: Double = 30
    /// Largest source file read, in bytes (the CLI's `--max-file-bytes`); 0 = no limit. Checked
    /// from `stat` before reading, and again while hashing, so a file that grew is not read on
    /// without end.
    package var maxSourceBytes: UInt64 = 0
    /// Limits for reading a source's header while planning (a set of widths names its outputs by
    /// the source's size).
    package var limits: DecodeLimits = .default
    /// Flush outputs to disk (`fsync`) before renaming them into place; default true. Each output
    /// directory is synced once before every manifest write rather than after every file, so the
    /// manifest only ever lists outputs that survive a power cut. False (the CLI's `--no-fsync`,
    /// for build steps whose outputs can be regenerated) skips every sync: outputs are still
    /// complete under their final names after a killed process, but not necessarily after a
    /// power cut.
    package var sync: Bool = true
    /// How outputs and the manifest are put in place: `.atomic` (default) writes a temporary file
    /// and renames it; `.direct` writes each once under its final name (`DirectFile`), for
    /// mounts that refuse rename.
    package var writeMode: WriteMode = .atomic

    /// How files are written.
    package enum WriteMode: String, Sendable, Equatable {
        case atomic, direct
    }

    /// Which outputs the manifest lists to remove after the run (the CLI's `--prune`); nil: none.
    /// Only a file that still holds exactly the bytes the manifest recorded is removed.
    package var prune: PruneRule?
    /// The folders pruning may remove files from; nil: the groups' output folders (a project
    /// gives its own folder, so the outputs of a group it dropped can go too).
    package var pruneRoots: [FilePath]?
    /// For runs that draw rating badges: the rating of a source known from outside the file (its
    /// sidecar, a ratings file), looked up before deciding whether its outputs are up to date, so
    /// that a changed sidecar rebuilds them. Nil for runs without badges.
    package var externalRating: (@Sendable (FilePath) -> RatingLookup)?

    /// Which outputs `prune` removes.
    package enum PruneRule: Sendable, Equatable {
        /// Those whose source no longer exists or is no longer an image: what a command line run
        /// knows (a run over a subfolder prunes nothing elsewhere).
        case orphans
        /// Every output the manifest lists that this run does not make: what a project knows
        /// (a width removed, a group renamed), besides the orphans.
        case notPlanned
    }

    /// A configuration for `groups`, the manifest at `manifestPath`; the other members keep their
    /// defaults (a checkpoint every 30 s, no source size limit, outputs synced to disk).
    package init(groups: [OutputGroup], manifestPath: FilePath, jobs: Int = BatchConfiguration.defaultJobs,
                 force: Bool = false, includeHidden: Bool = false, shard: Shard? = nil,
                 toolVersion: String = ThumbKitVersion.string) {
        self.groups = groups
        self.manifestPath = manifestPath
        self.jobs = jobs
        self.force = force
        self.includeHidden = includeHidden
        self.shard = shard
        self.toolVersion = toolVersion
    }

    /// A configuration of one group, with the manifest in its output directory unless given.
    package init(inputs: [FilePath], outputDirectory: FilePath, naming: OutputNaming = try! OutputNaming(),
                 thumbnailSet: ThumbnailSet = ThumbnailSet(options: ThumbnailOptions()), settings: String? = nil,
                 manifestPath: FilePath? = nil, base: FilePath? = nil, jobs: Int = BatchConfiguration.defaultJobs,
                 force: Bool = false, includeHidden: Bool = false, shard: Shard? = nil, toolVersion: String = ThumbKitVersion.string) {
        self.init(groups: [OutputGroup(inputs: inputs, base: base, outputDirectory: outputDirectory, naming: naming,
                                       thumbnailSet: thumbnailSet, settings: settings)],
                  manifestPath: manifestPath ?? outputDirectory.appending(FilePath(Manifest.defaultName)),
                  jobs: jobs, force: force, includeHidden: includeHidden, shard: shard, toolVersion: toolVersion)
    }

    /// `init(inputs:outputDirectory:…)` for paths given as text.
    package init(inputs: [String], outputDirectory: String, naming: OutputNaming = try! OutputNaming(),
                 thumbnailSet: ThumbnailSet = ThumbnailSet(options: ThumbnailOptions()), settings: String? = nil,
                 jobs: Int = BatchConfiguration.defaultJobs, force: Bool = false, includeHidden: Bool = false,
                 shard: Shard? = nil, toolVersion: String = ThumbKitVersion.string) {
        self.init(inputs: inputs.map { FilePath($0) }, outputDirectory: FilePath(outputDirectory), naming: naming,
                  thumbnailSet: thumbnailSet, settings: settings, jobs: jobs, force: force, includeHidden: includeHidden,
                  shard: shard, toolVersion: toolVersion)
    }

    /// The number of online cores (at least 1).
    package static var defaultJobs: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The output directory of the first group (a command line's only one).
    package var outputDirectory: FilePath {
        get { groups[0].outputDirectory }
        set { groups[0].outputDirectory = newValue }
    }

    /// The settings of the first group (a command line's only one).
    package var settings: String {
        get { groups[0].settings }
        set { groups[0].settings = newValue }
    }

    /// The manifest this run writes: `manifestPath`, or for a shard its own
    /// `NAME.K-of-N.json` beside it.
    package var shardManifestPath: FilePath {
        guard let shard else { return manifestPath }
        var name = manifestPath.lastComponent.bytes
        if name.count > 5 && name.suffix(5) == Array(".json".utf8) { name.removeLast(5) }
        name += Array(".\(shard.index)-of-\(shard.count).json".utf8)
        let directory = manifestPath.directory
        return directory.isEmpty ? FilePath(name) : directory.appending(FilePath(name))
    }

    /// The folder manifest paths are relative to.
    package var manifestDirectory: FilePath { manifestPath.directory }
}
