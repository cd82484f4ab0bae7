/// Batch thumbnailing of files and directory trees (`thumbgen images/`), independent of how one
/// image is rendered: the caller injects a `BatchRenderer` and a digest of its settings.
///
/// Typical use from a command line tool:
///
/// ```swift
/// let configuration = BatchConfiguration(inputs: ["images"], outputDirectory: "thumbs",
///     naming: try OutputNaming(format: "%s", scales: [1, 2]), settings: digest)
/// let cancellation = CancellationFlag()   // call cancel() from any thread (a SIGINT handler) to stop
/// let summary = try Batch.run(configuration, renderer: render, cancellation: cancellation) { event, progress in
///     // show progress.done of progress.total, or log the event
/// }
/// print(summary.formatted(prefix: "thumbgen: "), terminator: "")
/// exit(summary.exitStatus)
/// ```
///
/// (thumbgen's own command line draws a progress bar from the events and turns SIGINT and
/// SIGTERM into `cancel()`; both live in the ThumbgenCLI target, not here.)
///
/// ## Policy
/// - **Recognition.** Images are recognised by content (`ImageFormat`), not by name. A file
///   named `.png`/`.jpg`/`.jpeg` (any case) that is not a supported image fails; other files
///   are skipped.
/// - **Walking.** Directories are walked depth first in byte-wise name order. Hidden names are
///   skipped unless asked for. Symlinks are followed; a link to a directory already on the
///   current path is skipped (device + inode). The output directory is never walked. Only
///   regular files are opened (`O_NONBLOCK`, then `fstat`): a FIFO or device named like an image,
///   or given as an input, fails; otherwise it is skipped.
/// - **Naming.** Outputs mirror the input tree below the output directory (a file input: just its
///   name), named by `OutputNaming`; two sources mapping to one output stop the run before any
///   work, naming both.
/// - **Determinism.** Outputs, manifest bytes and summary order are identical for any job count:
///   results are gathered by plan order, and the manifest is sorted, byte-stable JSON.
/// - **Incremental.** An output is rebuilt when its source's content (SHA-256), the settings
///   digest or the tool version changed, or it is missing; unchanged stat data (size, mtime,
///   ctime, inode) lets a no-op run skip hashing. A no-op run writes nothing at all. Outputs edited
///   by hand are not noticed by a run; `check` finds them.
/// - **Manifest.** `thumbgen-manifest.json` (or `thumbgen-manifest.K-of-N.json` for a shard)
///   lists each output of this run's plan; entries of sources no longer in the plan are dropped.
///   It is written atomically at the end, on cancellation, and every `checkpointSeconds`. After a
///   SIGKILL, outputs without a matching entry are rebuilt.
/// - **Hashes.** The pixel hash (decoded RGBA8) survives libdeflate upgrades; the file hash
///   does not. Compare pixel hashes across machines and library versions.
/// - **Failures.** A bad file never stops the others; each failure is one line `path: reason`,
///   paths escaped as `BatchMessage.path` says. Exit status 0 when all succeeded, 1 otherwise.
/// - **Names.** Paths are bytes (`FilePath`) from the walk to the write: a name that is not
///   UTF-8 is thumbnailed under an output name of the same bytes, escaped (reversibly) only in
///   messages and the manifest. A stem too long for `NAME@3x.png` to fit NAME_MAX is shortened
///   as `OutputNaming` says; temporary files have short names of their own.
/// - **Pruning.** With `prune`, outputs the previous manifest lists whose sources are no longer
///   in the plan (of any shard) are removed with their entries, if they still hold the bytes
///   thumbgen wrote (`OutputPruner`).
/// - **Memory.** Each worker holds one source and its outputs; nothing is read ahead.
///
/// ## Out of scope
/// Watching for changes; locking against two runs writing the same output directory at once.
package enum Batch {
    /// Plans and runs a batch: walks and recognises the inputs, renders each source that needs it
    /// on `configuration.jobs` worker threads, puts the outputs in place atomically and writes the
    /// manifest.
    ///
    /// Throws only for what stops the whole run before any output is written (two sources mapping
    /// to one output, an input that is the output directory, fewer than one job); a file that fails
    /// is a `BatchMessage` in the summary. `renderer` is called concurrently, once per source that
    /// needs rebuilding. Cancelling `cancellation` drops the files in flight and writes the
    /// manifest for what completed. `progress` hears every event, one at a time.
    package static func run(_ configuration: BatchConfiguration, renderer: @escaping BatchRenderer,
                           cancellation: CancellationFlag = CancellationFlag(),
                           progress: BatchProgressHandler? = nil) throws(BatchError) -> BatchSummary {
        try BatchRunner(configuration: configuration, renderer: renderer, cancellation: cancellation, progress: progress).run()
    }

    /// Verifies every output the manifests list (all shard manifests of a batch may be given
    /// together): the file on disk against its recorded file and pixel hashes, and a fresh
    /// rendering of its source, made in memory, against them too.
    ///
    /// Output paths are resolved against each manifest's directory, source paths as recorded.
    /// With `settings`, entries recorded with other settings are reported as `settingsDiffer`
    /// rather than regenerated; with nil, each entry is regenerated with the settings it recorded
    /// (handed to `renderer` in `BatchSource.settings`). Sources are rendered on `jobs` threads;
    /// the report does not depend on it. Throws only when a manifest cannot be read or parsed.
    package static func check(manifestPaths: [FilePath], renderer: @escaping BatchRenderer, settings: String? = nil,
                             jobs: Int = BatchConfiguration.defaultJobs, options: CheckOptions = CheckOptions()) throws(BatchError) -> CheckReport {
        try BatchChecker(renderer: renderer, settings: settings, jobs: jobs, options: options).check(manifestPaths: manifestPaths)
    }

    /// `check(manifestPaths:renderer:settings:jobs:)` for manifests named as text.
    package static func check(manifestPaths: [String], renderer: @escaping BatchRenderer, settings: String? = nil,
                             jobs: Int = BatchConfiguration.defaultJobs) throws(BatchError) -> CheckReport {
        try check(manifestPaths: manifestPaths.map { FilePath($0) }, renderer: renderer, settings: settings, jobs: jobs)
    }

    /// The manifests directly inside `outputDirectory` (unsharded and every shard's), sorted, so
    /// `check` can be pointed at an output directory.
    package static func manifestPaths(in outputDirectory: FilePath) -> [FilePath] {
        guard case .success(let names) = FileSystem.entries(outputDirectory.bytes) else { return [] }
        return names.compactMap(PathEscaping.validString).filter { name in
            name == Manifest.defaultName || (name.hasPrefix("thumbgen-manifest.") && name.hasSuffix(".json")
                && name.contains("-of-") && !name.hasPrefix("."))
        }.map { outputDirectory.appending(FilePath($0)) }
    }
}
