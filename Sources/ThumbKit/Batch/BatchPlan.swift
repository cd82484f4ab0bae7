/// What a batch will do, item by item, decided before any work starts.
///
/// The order of `items` is the plan order: groups in order, each group's inputs in the order
/// given, each walked depth first in byte-wise name order (a source several groups share is an
/// item once, where it is first met). Every summary, manifest, message list and `-v` line is in
/// this order, so results do not depend on which worker finished first.
package struct BatchPlan: Sendable, Equatable {
    /// One output file of a source.
    package struct Output: Sendable, Equatable {
        /// Which output of the group's set it is.
        package var variant: ThumbnailVariant
        /// The path below the group's output directory.
        package var relativePath: FilePath
        /// The path relative to the manifest's folder: the manifest's key.
        package var key: FilePath
        /// For a file of an icon set, its path below the group's output folder.
        package var iconFile: String? = nil
    }

    /// What one group makes of a source.
    package struct Membership: Sendable, Equatable {
        /// The group's index in the configuration.
        package var group: Int
        /// The source's path below the group's base or input: the part its outputs mirror.
        package var relativePath: FilePath
        /// The source's upright size, where naming needed it (a set of widths): from the manifest
        /// when the file is unchanged, else from its header.
        package var sourceWidth: Int?
        package var sourceHeight: Int?
        /// The outputs, in the set's order; nil when they could not be named (a set of widths and
        /// a header that could not be read: the source will fail as it is rendered).
        package var outputs: [Output]?
    }

    /// An image to render.
    package struct Source: Sendable, Equatable {
        /// The path to open (the input path joined with its path below the input).
        package var path: FilePath
        /// The source's path relative to the manifest's folder, as the manifest records it.
        package var key: FilePath
        /// Each group that makes outputs of it.
        package var memberships: [Membership]
        /// Its size in bytes when planned: several workers take the largest sources first.
        package var size: Int64 = 0

        /// The path below the first group's base or input (what shards hash).
        package var relativePath: FilePath { memberships[0].relativePath }
        /// Every output it has, in membership order.
        package var outputs: [Output] { memberships.flatMap { $0.outputs ?? [] } }
    }

    /// One thing the walk found.
    package enum Item: Sendable, Equatable {
        /// An image to render.
        case source(Source)
        /// A file that promised an image but is not a supported one, or could not be examined.
        /// `path` is already escaped for printing.
        case failed(path: String, reason: String)
        /// Something that is not an image, or was not walked (hidden, output directory, loop).
        case skipped(path: String, reason: String)
    }

    /// The items, in plan order.
    package var items: [Item]
    /// The manifest key of every output the plan makes, in this shard or another.
    package var outputsOfAllShards: Set<FilePath> = []
    /// Sources (by manifest key) in any shard whose outputs could not be named: their recorded
    /// outputs are kept whatever the prune rule.
    package var unnamedSources: Set<FilePath> = []

    /// The sources to render, in plan order.
    package var sources: [Source] {
        items.compactMap { if case .source(let s) = $0 { return s } else { return nil } }
    }
}
