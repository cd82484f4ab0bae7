/// Joins the manifests of a sharded run (`thumbgen-manifest.K-of-N.json`, one per task) into one,
/// so that the union can be checked, pruned or shipped as a single file.
///
/// Output and source paths are relative to each manifest's folder, so entries are re-expressed
/// relative to the merged manifest's folder. Every output must be claimed by one manifest only:
/// two shards listing the same output means the shards disagreed on the split (different
/// inputs, `--base` or counts), and the merge refuses rather than pick one.
package enum ManifestMerge {
    /// Why manifests cannot be merged.
    package enum Failure: ThumbKitError, Equatable {
        case unreadable(BatchError)
        case claimedTwice(output: FilePath, first: FilePath, second: FilePath)

        package var message: String {
            switch self {
            case .unreadable(let error): return error.message
            case .claimedTwice(let output, let first, let second):
                return "output \(output) is claimed by both \(first) and \(second) (shards of different runs?)"
            }
        }
    }

    /// The union of the manifests at `paths`, its paths relative to `destination`'s folder.
    package static func merge(_ paths: [FilePath], into destination: FilePath) throws(Failure) -> Manifest {
        let target = destination.directory.isEmpty ? FilePath(".") : destination.directory
        var merged = Manifest()
        var claimedBy: [FilePath: FilePath] = [:]
        for path in paths {
            let manifest: Manifest
            do { manifest = try Manifest.load(path: path) } catch { throw .unreadable(error) }
            let folder = path.directory.isEmpty ? FilePath(".") : path.directory
            for entry in manifest.sortedEntries {
                var entry = entry
                entry.output = folder.resolving(entry.output).relative(from: target)
                entry.source = folder.resolving(entry.source).relative(from: target)
                if let first = claimedBy[entry.output] { throw .claimedTwice(output: entry.output, first: first, second: path) }
                claimedBy[entry.output] = path
                merged.entries[entry.output] = entry
            }
        }
        return merged
    }
}
