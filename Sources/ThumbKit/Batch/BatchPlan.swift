/// What a batch will do, item by item, decided before any work starts.
///
/// The order of `items` is the plan order: inputs in the order given, each walked depth first in
/// byte-wise name order. Every summary, manifest and message list is sorted by it, so results do
/// not depend on which worker finished first.
package struct BatchPlan: Sendable, Equatable {
    /// One output file of a source.
    package struct Output: Sendable, Equatable {
        /// `""`, `"@2x"` or `"@3x"`; the renderer labels its outputs with the same suffixes.
        package var suffix: String
        /// The path below the output directory; the manifest's key.
        package var relativePath: FilePath
    }

    /// An image to render.
    package struct Source: Sendable, Equatable {
        /// The path to open (the input path joined with `relativePath`).
        package var path: FilePath
        /// The path below its input (a file input's base name).
        package var relativePath: FilePath
        /// The outputs it produces, in ascending scale order.
        package var outputs: [Output]
        /// Its size in bytes when planned: several workers take the largest sources first.
        package var size: Int64 = 0
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
    /// Every output the inputs map to, in this shard or another: what `--prune` keeps.
    package var outputsOfAllShards: Set<FilePath> = []

    /// The sources to render, in plan order.
    package var sources: [Source] {
        items.compactMap { if case .source(let s) = $0 { return s } else { return nil } }
    }
}
