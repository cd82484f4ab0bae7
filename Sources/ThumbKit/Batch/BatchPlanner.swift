/// Turns a configuration into a `BatchPlan`: finds the images among the inputs (`SourceFinder`),
/// names the outputs, rejects colliding outputs, and keeps this shard's slice.
///
/// Only the first few bytes of each file are read here; files are hashed and decoded one per
/// worker while running, in bounded pieces, so memory stays bounded by the jobs in flight.
package struct BatchPlanner: Sendable {
    package let configuration: BatchConfiguration

    package init(configuration: BatchConfiguration) {
        self.configuration = configuration
    }

    /// Plans the run. Throws `BatchError.outputCollision` (naming both sources) when two sources
    /// would write the same output, before anything is written; collisions are checked across all
    /// shards so every shard of a batch agrees.
    package func plan() throws(BatchError) -> BatchPlan {
        var outputIdentity: SourceWalker.DirectoryID?
        if case .success(let st) = FileSystem.status(configuration.outputDirectory), st.isDirectory {
            outputIdentity = .init(device: st.device, inode: st.inode)
        }
        let finder = SourceFinder(inputs: configuration.inputs, includeHidden: configuration.includeHidden,
                                  outputDirectory: outputIdentity, jobs: configuration.jobs)
        let found = try finder.find()
        var planned = found.map { (item: item(for: $0), relative: $0.relative) }
        let items = planned.map(\.item)
        try checkCollisions(items)
        var allOutputs: Set<FilePath> = []
        for case .source(let source) in items { allOutputs.formUnion(source.outputs.map(\.relativePath)) }
        if let shard = configuration.shard {
            planned = planned.filter { shard.contains(relativePath: $0.relative.bytes) }
        }
        return BatchPlan(items: planned.map(\.item), outputsOfAllShards: allOutputs)
    }

    /// A found image gets its outputs' names.
    private func item(for found: SourceFinder.Found) -> BatchPlan.Item {
        switch found.kind {
        case .skipped(let reason): return .skipped(path: found.shownPath, reason: reason)
        case .failed(let reason): return .failed(path: found.shownPath, reason: reason)
        case .image(let size):
            let outputs = configuration.naming.outputs(forSource: found.relative).map { BatchPlan.Output(suffix: $0.suffix, relativePath: $0.path) }
            return .source(.init(path: found.path, relativePath: found.relative, outputs: outputs, size: size))
        }
    }

    private func checkCollisions(_ items: [BatchPlan.Item]) throws(BatchError) {
        var owner: [FilePath: FilePath] = [:]
        for case .source(let source) in items {
            for output in source.outputs {
                if let first = owner[output.relativePath] {
                    throw .outputCollision(output: output.relativePath, first: first, second: source.path)
                }
                owner[output.relativePath] = source.path
            }
        }
    }
}
