import Glibc

/// Removes the outputs a previous manifest lists that the current plan no longer makes (their
/// source was deleted or renamed, or stopped being an image), so the output tree mirrors the input.
///
/// Only what thumbgen wrote is removed: an output listed in the manifest whose file still has the
/// recorded SHA-256. A file changed since (edited, replaced) is kept and reported as skipped; an
/// entry whose path leaves the output directory (`..`, absolute) is never followed. Folders
/// that removing leaves empty are removed up to the output directory.
struct OutputPruner {
    let outputDirectory: FilePath
    /// Outputs of every shard's sources: never pruned, whichever shard runs.
    let keep: Set<FilePath>

    /// Prunes `previous`'s orphaned outputs: each removal becomes `summary.pruned` and an event
    /// for `report`; a removal that fails is a failure, and its entry stays in `manifest` so the
    /// next run tries again.
    func prune(_ previous: Manifest, into summary: inout BatchSummary, manifest: inout Manifest,
               report: (BatchEvent) -> Void) {
        for entry in previous.sortedEntries where !keep.contains(entry.output) && manifest.entries[entry.output] == nil {
            guard Self.staysInside(entry.output) else { continue }
            let path = outputDirectory.appending(entry.output)
            switch AtomicFile.removeIfUnchanged(path, sha256: entry.fileSHA256) {
            case .success(true):
                summary.pruned.append(path.description)
                report(.pruned(path: path.description))
                removeEmptyFolders(above: entry.output)
            case .success(false):
                let message = BatchMessage(path: path.description, reason: "not pruned: changed since thumbgen wrote it")
                summary.skipped.append(message)
                report(.skipped(message))
            case .failure(let failure) where failure == SystemFailure(code: ENOENT):
                continue   // already gone
            case .failure(let failure):
                summary.failed.append(BatchMessage(path: path.description, reason: "cannot prune: \(failure.reason)"))
                manifest.entries[entry.output] = entry
            }
        }
    }

    /// True for a relative path with no empty, `.` or `..` component.
    static func staysInside(_ relative: FilePath) -> Bool {
        let components = relative.bytes.split(separator: FilePath.slash, omittingEmptySubsequences: false)
        return !relative.isEmpty && components.allSatisfy { !$0.isEmpty && $0.elementsEqual([0x2E]) == false && $0.elementsEqual([0x2E, 0x2E]) == false }
    }

    /// `rmdir` of each folder above `relative`, deepest first, stopping at the first that is not
    /// empty (rmdir refuses it) and never touching the output directory itself.
    private func removeEmptyFolders(above relative: FilePath) {
        var folder = relative.directory
        while !folder.isEmpty {
            guard outputDirectory.appending(folder).withCString({ rmdir($0) }) == 0 else { return }
            folder = folder.directory
        }
    }
}
