import Glibc

/// Everything a batch run needs to know, apart from how to render one image.
package struct BatchConfiguration: Sendable {
    /// Files and directories, in the order given; directories are walked recursively.
    package var inputs: [FilePath]
    /// Where outputs go, mirroring each input's tree; created when missing.
    package var outputDirectory: FilePath
    /// Output names and scales.
    package var naming: OutputNaming
    /// Worker threads; defaults to the number of online cores. Results do not depend on it.
    package var jobs: Int
    /// Rebuild every output even when the manifest says it is up to date.
    package var force: Bool
    /// Walk names beginning with `.` as well.
    package var includeHidden: Bool
    /// Process only this slice of the items; nil for all of them.
    package var shard: Shard?
    /// Every rendering setting, described by the caller in a canonical text form; recorded in the
    /// manifest, and outputs whose entry has different settings are rebuilt.
    package var settings: String
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
    /// Flush outputs to disk (`fsync`) before renaming them into place; default true. Each output
    /// directory is synced once before every manifest write rather than after every file, so the
    /// manifest only ever lists outputs that survive a power cut. False (the CLI's `--no-fsync`,
    /// for build steps whose outputs can be regenerated) skips every sync: outputs are still
    /// complete under their final names after a killed process, but not necessarily after a
    /// power cut.
    package var sync: Bool = true
    /// Remove the outputs the previous manifest lists whose sources are no longer in the plan
    /// (deleted, renamed, no longer images), and their entries (the CLI's `--prune`). Only a
    /// file that still holds exactly the bytes the manifest recorded is removed.
    package var prune: Bool = false
    /// For runs that draw rating badges: the rating of a source known from outside the file (its
    /// sidecar, a ratings file), looked up before deciding whether its outputs are up to date, so
    /// that a changed sidecar rebuilds them. Nil for runs without badges.
    package var externalRating: (@Sendable (FilePath) -> RatingLookup)?

    /// A configuration with the given inputs, outputs and settings; the other members keep their
    /// defaults (a checkpoint every 30 s, no source size limit, outputs synced to disk).
    package init(inputs: [FilePath], outputDirectory: FilePath, naming: OutputNaming, settings: String,
                jobs: Int = BatchConfiguration.defaultJobs, force: Bool = false, includeHidden: Bool = false,
                shard: Shard? = nil, toolVersion: String = ThumbKitVersion.string) {
        self.inputs = inputs
        self.outputDirectory = outputDirectory
        self.naming = naming
        self.jobs = jobs
        self.force = force
        self.includeHidden = includeHidden
        self.shard = shard
        self.settings = settings
        self.toolVersion = toolVersion
    }

    /// A configuration whose paths are given as text.
    package init(inputs: [String], outputDirectory: String, naming: OutputNaming, settings: String,
                 jobs: Int = BatchConfiguration.defaultJobs, force: Bool = false, includeHidden: Bool = false,
                 shard: Shard? = nil, toolVersion: String = ThumbKitVersion.string) {
        self.init(inputs: inputs.map { FilePath($0) }, outputDirectory: FilePath(outputDirectory), naming: naming,
                  settings: settings, jobs: jobs, force: force, includeHidden: includeHidden, shard: shard,
                  toolVersion: toolVersion)
    }

    /// The number of online cores (at least 1).
    package static var defaultJobs: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The manifest's file name: `thumbgen-manifest.json`, or the shard's own name.
    package var manifestName: String { shard?.manifestName ?? Manifest.defaultName }

    /// The manifest's full path.
    package var manifestPath: FilePath { outputDirectory.appending(FilePath(manifestName)) }
}
