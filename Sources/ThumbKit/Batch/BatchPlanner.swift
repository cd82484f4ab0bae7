/// Turns a configuration into a `BatchPlan`: walks the inputs, recognises images by content,
/// names the outputs, rejects colliding outputs, and keeps this shard's slice.
///
/// Only the first few bytes of each file are read here; files are hashed and decoded one per
/// worker while running, in bounded pieces, so memory stays bounded by the jobs in flight.
package struct BatchPlanner: Sendable {
    package let configuration: BatchConfiguration

    /// Files per planning thread at least: a second thread starts from 64 files.
    static let filesPerThread = 64
    /// Files a planning thread takes at a time, so a file on a slow disk holds up only a few.
    static let filesPerBatch = 16

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
        let walker = SourceWalker(includeHidden: configuration.includeHidden, outputDirectory: outputIdentity)
        var walked: [(entry: SourceWalker.Entry, explicitFile: Bool)] = []
        for input in configuration.inputs {
            let explicitFile: Bool
            if case .success(let st) = FileSystem.status(input) { explicitFile = !st.isDirectory } else { explicitFile = true }
            for entry in try walker.walk(input: input) { walked.append((entry, explicitFile)) }
        }
        // Reading every file's first bytes is the larger part of planning, and nothing else runs
        // yet: it gets the run's jobs, though no more than one per `filesPerThread` files, since
        // starting a thread costs more than reading a few files' heads.
        let threads = min(configuration.jobs, walked.count / Self.filesPerThread + 1)
        let items = WorkerPool.map(walked, threads: threads, stackSize: WorkerPool.shallowStackSize, batchSize: Self.filesPerBatch) {
            classify($0.entry, explicitFile: $0.explicitFile)
        }
        var planned = zip(items, walked).map { (item: $0, relative: $1.entry.relative) }
        try checkCollisions(items)
        var allOutputs: Set<FilePath> = []
        for case .source(let source) in items { allOutputs.formUnion(source.outputs.map(\.relativePath)) }
        if let shard = configuration.shard {
            planned = planned.filter { shard.contains(relativePath: $0.relative) }
        }
        return BatchPlan(items: planned.map(\.item), outputsOfAllShards: allOutputs)
    }

    private func classify(_ entry: SourceWalker.Entry, explicitFile: Bool) -> BatchPlan.Item {
        let shown = PathEscaping.escape(bytes: entry.path)
        let fileSize: Int64
        switch entry.kind {
        case .skipped(let reason): return .skipped(path: shown, reason: reason)
        case .failed(let reason): return .failed(path: shown, reason: reason)
        case .file(let size): fileSize = size
        }
        let head: [UInt8]
        switch FileSystem.head(entry.path, count: ImageFormat.detectionLength) {
        case .failure(let failure):
            // An unreadable file the user did not mean as an image is not worth failing the run.
            if explicitFile || SourceWalker.hasImageExtension(entry.relative) {
                return .failed(path: shown, reason: "cannot read: \(failure.reason)")
            }
            return .skipped(path: shown, reason: "cannot read: \(failure.reason)")
        case .success(let bytes):
            head = bytes
        }
        guard ImageFormat.detect(head) != nil else {
            if explicitFile || SourceWalker.hasImageExtension(entry.relative) {
                return .failed(path: shown, reason: "not a supported image (content is not PNG, JPEG, WebP, GIF, TIFF or HEIF)")
            }
            return .skipped(path: shown, reason: "not an image")
        }
        // Names stay bytes from here on: a name that is not UTF-8 gets an output of the same bytes.
        let relative = FilePath(entry.relative)
        let outputs = configuration.naming.outputs(forSource: relative).map { BatchPlan.Output(suffix: $0.suffix, relativePath: $0.path) }
        return .source(.init(path: FilePath(entry.path), relativePath: relative, outputs: outputs, size: fileSize))
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
