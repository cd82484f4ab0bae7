import Glibc

/// Removes outputs the manifest lists that nothing makes any more, so the outputs mirror the
/// sources: on the command line, those whose source was deleted or stopped being an image
/// (`PruneRule.orphans`); for a project, also every output the project no longer makes
/// (`PruneRule.notPlanned`: a width removed, a group renamed).
///
/// Only what thumbgen wrote is removed, and only inside this run's output folders: an output whose
/// file still has the recorded SHA-256 and lies below one of them (a manifest shared by runs into
/// several folders is pruned by each in its own). A file changed since (edited, replaced) is kept
/// and reported as skipped. Folders that removing leaves empty are removed up to the output folder.
struct OutputPruner {
    let rule: BatchConfiguration.PruneRule
    /// The folder the manifest's paths are relative to.
    let manifestDirectory: FilePath
    /// The run's output folders: emptied folders are removed up to them.
    let outputDirectories: [FilePath]
    /// Every output the plan makes (manifest keys), in any shard: never pruned.
    let made: Set<FilePath>
    /// Sources whose outputs could not be named this run: their outputs are kept.
    let unnamedSources: Set<FilePath>

    /// Prunes `manifest`'s outputs as the rule says: each removal becomes `summary.pruned` and an
    /// event for `report`, and its entry goes; a file changed since is kept, reported as skipped,
    /// and its entry goes (thumbgen no longer claims it); a removal that fails is a failure, and
    /// its entry stays so the next run tries again.
    func prune(_ manifest: inout Manifest, into summary: inout BatchSummary, report: (BatchEvent) -> Void) {
        for entry in manifest.sortedEntries where !made.contains(entry.output) && !unnamedSources.contains(entry.source) {
            let path = manifestDirectory.resolving(entry.output)
            guard insideAnOutputDirectory(path), rule == .notPlanned || isOrphan(entry) else { continue }
            switch AtomicFile.removeIfUnchanged(path, sha256: entry.fileSHA256) {
            case .success(true):
                manifest.entries[entry.output] = nil
                summary.pruned.append(path.description)
                report(.pruned(path: path.description))
                removeEmptyFolders(above: path)
            case .success(false):
                // Someone else's file now: kept on disk, and no longer claimed by the manifest.
                manifest.entries[entry.output] = nil
                let message = BatchMessage(path: path.description, reason: "not pruned: changed since thumbgen wrote it")
                summary.skipped.append(message)
                report(.skipped(message))
            case .failure(let failure) where failure == SystemFailure(code: ENOENT):
                manifest.entries[entry.output] = nil   // already gone
            case .failure(let failure):
                summary.failed.append(BatchMessage(path: path.description, reason: "cannot prune: \(failure.reason)"))
            }
        }
    }

    /// True when `path` lies strictly below one of the run's output folders (lexically).
    func insideAnOutputDirectory(_ path: FilePath) -> Bool {
        let components = path.absolute.components
        return outputDirectories.contains { directory in
            let folder = directory.absolute.components
            return components.count > folder.count && Array(components.prefix(folder.count)) == folder
        }
    }

    /// True when the entry's source no longer exists, or is no longer an image (a folder, or a
    /// file whose first bytes are no image format's).
    private func isOrphan(_ entry: ManifestEntry) -> Bool {
        let source = manifestDirectory.resolving(entry.source)
        switch FileSystem.status(source) {
        case .failure(let failure):
            return failure == SystemFailure(code: ENOENT) || failure == SystemFailure(code: ENOTDIR)
        case .success(let status) where status.isDirectory:
            return true
        case .success:
            guard case .success(let head) = FileSystem.head(source.bytes, count: ImageFormat.detectionLength) else { return false }
            return ImageFormat.detect(head) == nil
        }
    }

    /// `rmdir` of each folder above `path`, deepest first, stopping at the first that is not empty
    /// (rmdir refuses it), at an output folder or the manifest's folder, or at a path that leaves
    /// them (`..`).
    private func removeEmptyFolders(above path: FilePath) {
        let stops = Set((outputDirectories + [manifestDirectory]).map(\.normalized))
        var folder = path.directory
        while !folder.isEmpty, !stops.contains(folder.normalized), folder.lastComponent.bytes != [0x2E, 0x2E] {
            guard folder.withCString({ rmdir($0) }) == 0 else { return }
            folder = folder.directory
        }
    }
}
