/// Why a batch could not start, or a manifest could not be used.
///
/// Failures of single files are not errors of this kind: they become `BatchMessage`s in the
/// summary so that one bad file never stops the others. These cases stop the whole run before any
/// output is written.
package enum BatchError: ThumbKitError, Equatable {
    /// Sources would write the same output files: every such output with the two sources that
    /// claim it, in plan order, so one run lists them all.
    case outputCollisions([OutputCollision])
    /// The output name format is unusable; `reason` says why.
    case invalidNameFormat(format: String, reason: String)
    /// An input does not lie inside the base its outputs' paths are taken below (`--base`).
    case outsideBase(input: FilePath, base: FilePath)
    /// `index` must be in 1...count and `count` at least 1.
    case invalidShard(index: Int, count: Int)
    /// The job count must be at least 1.
    case invalidJobCount(Int)
    /// A directory input is the output directory itself, so its outputs would be walked as sources.
    case inputIsOutputDirectory(FilePath)
    /// A manifest file could not be read or parsed.
    case unreadableManifest(path: FilePath, reason: String)

    /// One line saying what is wrong, paths escaped as `BatchMessage.path` says.
    package var message: String {
        switch self {
        case .outputCollisions(let collisions):
            // One line however many: the count first, then each collision, `; ` between them.
            let each = collisions.map { "\($0.first) and \($0.second) both map to output \($0.output)" }
            return collisions.count == 1 ? each[0] : "\(collisions.count) output collisions: " + each.joined(separator: "; ")
        case .invalidNameFormat(let format, let reason):
            return "invalid name format \"\(PathEscaping.escape(format))\": \(reason)"
        case .outsideBase(let input, let base):
            return "input \(input) is not inside the base folder \(base)"
        case .invalidShard(let index, let count):
            return "invalid shard \(index)/\(count) (expected K/N with 1 <= K <= N)"
        case .invalidJobCount(let jobs):
            return "invalid job count \(jobs) (expected at least 1)"
        case .inputIsOutputDirectory(let path):
            return "input \(path) is the output directory"
        case .unreadableManifest(let path, let reason):
            return "cannot read manifest \(path): \(reason)"
        }
    }
}
