import Synchronization

/// Runs a batch: plans it, renders the sources on worker threads, has `OutputCommitter` put
/// their outputs in place atomically, and writes the manifest.
///
/// Determinism: outputs depend only on the sources, the renderer and the settings; the summary
/// and manifest are assembled in plan order after all workers finish, so they are the same for
/// any job count. Memory: each worker holds one source and its outputs at a time, and nothing is
/// read ahead, so peak memory grows with `jobs`, not with the size of the tree.
package struct BatchRunner: Sendable {
    package let configuration: BatchConfiguration
    package let renderer: BatchRenderer
    package let cancellation: CancellationFlag
    package let progress: BatchProgressHandler?

    /// - Parameters:
    ///   - renderer: called once per source that needs rebuilding, concurrently.
    ///   - cancellation: set it (e.g. on SIGINT) to stop after the files in flight are dropped.
    ///   - progress: receives events as files finish.
    package init(configuration: BatchConfiguration, renderer: @escaping BatchRenderer,
                 cancellation: CancellationFlag = CancellationFlag(), progress: BatchProgressHandler? = nil) {
        self.configuration = configuration
        self.renderer = renderer
        self.cancellation = cancellation
        self.progress = progress
    }

    /// Plans and runs the batch. Throws only for problems that stop the whole run before any
    /// output is written (collisions, bad settings); per-file failures are in the summary.
    package func run() throws(BatchError) -> BatchSummary {
        guard configuration.jobs >= 1 else { throw .invalidJobCount(configuration.jobs) }
        let start = ContinuousClock.now
        let plan = try BatchPlanner(configuration: configuration).plan()
        return run(plan, start: start)
    }

    /// Runs an already computed plan (from `BatchPlanner` with the same configuration).
    package func run(_ plan: BatchPlan) -> BatchSummary { run(plan, start: ContinuousClock.now) }

    private func run(_ plan: BatchPlan, start: ContinuousClock.Instant) -> BatchSummary {
        // Temporaries left by a killed run go first, from every directory this run writes to.
        let directories = outputDirectories(plan)
        for directory in directories { AtomicFile.removeStaleTemporaries(in: directory) }
        let previous = Manifest.loadOrEmpty(path: configuration.manifestPath)

        // Results by plan index; planning outcomes are known already.
        var initial = [ItemResult?](repeating: nil, count: plan.items.count)
        var work: [Int] = []
        for (index, item) in plan.items.enumerated() {
            switch item {
            case .source: work.append(index)
            case .failed(let path, let reason): initial[index] = .failed(BatchMessage(path: path, reason: reason))
            case .skipped(let path, let reason): initial[index] = .skipped(BatchMessage(path: path, reason: reason))
            }
        }
        let state = SharedState(results: initial, total: plan.items.count - plan.items.count { if case .skipped = $0 { true } else { false } },
                                start: start, progress: progress)
        state.report(.started(total: state.total), countsAsDone: false)
        for result in initial {
            switch result {
            case .failed(let message): state.report(.failed(message), countsAsDone: true)
            case .skipped(let message): state.report(.skipped(message), countsAsDone: false)
            default: break
            }
        }

        let worker = BatchWorker(configuration: configuration, renderer: renderer, cancellation: cancellation, previous: previous)
        // Every result passes through the committer, written or not, so events keep the order
        // sources finish in (plan order with one worker).
        let committer = OutputCommitter(syncData: configuration.sync)
        let threadCount = min(max(configuration.jobs, 1), work.count)
        // With several workers, largest sources first (by file size, ties in plan order): with a
        // few big images at the end of the plan, one worker would otherwise finish alone while the
        // others idle. Results are still assembled in plan order, so outputs, manifest and messages
        // do not depend on this; one worker keeps plan order (same throughput, and `-v` lines in
        // plan order).
        let queue = threadCount > 1 ? Self.largestFirst(work, plan: plan) : work
        let takeItemsUntilDone: @Sendable () -> Void = {
            while !cancellation.isCancelled, let index = state.nextWorkIndex(queue) {
                guard case .source(let source) = plan.items[index] else { continue }
                let shown = source.path.description
                // Runs on the committer's thread, once the outputs are in place.
                let record: @Sendable (ItemResult) -> Void = { result in
                    state.store(result, at: index, path: shown)
                    // A long run keeps its manifest current so a SIGKILL loses little work.
                    if let snapshot = state.takeCheckpoint(every: configuration.checkpointSeconds) {
                        syncOutputDirectories(directories)
                        _ = writeManifest(Self.assemble(plan, results: snapshot, previous: previous).manifest)
                        state.finishCheckpoint()
                    }
                }
                switch worker.process(source) {
                case .finished(let result):
                    committer.submit([]) { _ in record(result) }
                case .staged(let files, let entries):
                    committer.submit(files) { error in
                        record(error.map { .failed(BatchMessage(path: shown, reason: $0.message)) } ?? .written(entries))
                    }
                }
            }
        }
        WorkerPool.run(threads: threadCount, stackSize: WorkerPool.renderStackSize, takeItemsUntilDone)
        committer.finish()

        var (summary, manifest) = Self.assemble(plan, results: state.snapshot, previous: previous)
        summary.cancelled = summary.notProcessed > 0
        // A cancelled run prunes nothing: what it did not reach is not known to be gone.
        if configuration.prune && !summary.cancelled {
            OutputPruner(outputDirectory: configuration.outputDirectory, keep: plan.outputsOfAllShards)
                .prune(previous, into: &summary, manifest: &manifest) { state.report($0, countsAsDone: false) }
        }
        syncOutputDirectories(directories)
        if let failure = writeManifest(manifest) { summary.failed.append(failure) }
        summary.elapsedSeconds = Self.seconds(since: start)
        state.report(.finished(summary), countsAsDone: false)
        return summary
    }

    /// The summary and manifest for a plan's results, in plan order. Unfinished sources keep the
    /// previous run's entries: their outputs were not touched (or, if cancelled between two
    /// writes, are caught by the fingerprint and settings checks next time).
    static func assemble(_ plan: BatchPlan, results: [ItemResult?], previous: Manifest) -> (summary: BatchSummary, manifest: Manifest) {
        var summary = BatchSummary()
        var manifest = Manifest()
        for (index, item) in plan.items.enumerated() {
            switch results[index] {
            case .written(let entries)?:
                summary.written += 1
                summary.filesWritten += entries.count
                for entry in entries { manifest.entries[entry.output] = entry }
            case .upToDate(let entries)?:
                summary.upToDate += 1
                for entry in entries { manifest.entries[entry.output] = entry }
            case .failed(let message)?:
                // The old outputs no longer describe this source; their entries are dropped.
                summary.failed.append(message)
            case .skipped(let message)?:
                summary.skipped.append(message)
            case .dropped?, nil:
                summary.notProcessed += 1
                if case .source(let source) = item {
                    for output in source.outputs {
                        if let entry = previous.entries[output.relativePath] { manifest.entries[entry.output] = entry }
                    }
                }
            }
        }
        return (summary, manifest)
    }

    /// Writes the manifest; a failure becomes a summary message rather than losing the summary.
    /// An empty manifest where there was none is not written, so a run that produced nothing (a
    /// build step's one file that failed) leaves nothing on disk, not even the output directory.
    private func writeManifest(_ manifest: Manifest) -> BatchMessage? {
        if manifest.entries.isEmpty, case .failure = FileSystem.status(configuration.manifestPath) { return nil }
        do {
            try manifest.write(to: configuration.manifestPath)
            return nil
        } catch {
            return BatchMessage(path: configuration.manifestPath.description, reason: error.message)
        }
    }

    /// Plan indexes sorted by source file size, largest first, ties in plan order.
    private static func largestFirst(_ work: [Int], plan: BatchPlan) -> [Int] {
        // Sizes as the walk saw them: a file that changed since only affects the order.
        let sizes = work.map { index -> Int64 in
            guard case .source(let source) = plan.items[index] else { return 0 }
            return source.size
        }
        return work.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }.map { work[$0] }
    }

    /// Makes the renames of every output written so far durable before a manifest lists them:
    /// one directory sync per output directory, instead of one per file.
    private func syncOutputDirectories(_ directories: [FilePath]) {
        guard configuration.sync else { return }
        for directory in directories { AtomicFile.syncDirectory(directory) }
    }

    /// Every directory outputs of the plan go to, sorted.
    private func outputDirectories(_ plan: BatchPlan) -> [FilePath] {
        var directories: Set<FilePath> = [configuration.outputDirectory]
        for source in plan.sources {
            for output in source.outputs {
                directories.insert(configuration.outputDirectory.appending(output.relativePath).directory)
            }
        }
        return directories.sorted().map { $0.isEmpty ? "." : $0 }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}

/// How one plan item ended.
enum ItemResult: Sendable {
    case written([ManifestEntry])
    case upToDate([ManifestEntry])
    case failed(BatchMessage)
    case skipped(BatchMessage)
    /// Cancelled while in flight; nothing was recorded.
    case dropped
}

/// The state workers share: the next item to take, the results, and progress counters, all
/// behind one lock (contention is negligible next to decoding and encoding an image).
private final class SharedState: Sendable {
    private struct Guarded {
        var next = 0
        var done = 0
        var lastCheckpoint: ContinuousClock.Instant
        var results: [ItemResult?]
    }

    private let guarded: Mutex<Guarded>
    let total: Int
    private let start: ContinuousClock.Instant
    private let progress: BatchProgressHandler?

    init(results: [ItemResult?], total: Int, start: ContinuousClock.Instant, progress: BatchProgressHandler?) {
        self.guarded = Mutex(Guarded(lastCheckpoint: start, results: results))
        self.total = total
        self.start = start
        self.progress = progress
    }

    /// A copy of the results when a checkpoint is due; the caller writes it outside the lock and
    /// then calls `finishCheckpoint()`. Only the committer's thread checkpoints, so two
    /// checkpoints never overlap.
    func takeCheckpoint(every seconds: Double) -> [ItemResult?]? {
        guarded.withLock { BatchRunner.seconds(since: $0.lastCheckpoint) >= seconds ? $0.results : nil }
    }

    func finishCheckpoint() {
        guarded.withLock { $0.lastCheckpoint = .now }
    }

    /// A copy of the results so far.
    var snapshot: [ItemResult?] { guarded.withLock { $0.results } }

    /// The next plan index to process, or nil when all are taken.
    func nextWorkIndex(_ work: [Int]) -> Int? {
        guarded.withLock { state in
            guard state.next < work.count else { return nil }
            state.next += 1
            return work[state.next - 1]
        }
    }

    func store(_ result: ItemResult, at index: Int, path: String) {
        guarded.withLock { state in
            state.results[index] = result
            let event: BatchEvent
            switch result {
            case .written: event = .written(path: path)
            case .upToDate: event = .upToDate(path: path)
            case .failed(let message): event = .failed(message)
            case .skipped(let message): event = .skipped(message)
            case .dropped: return
            }
            report(event, countsAsDone: true, in: &state)
        }
    }

    func report(_ event: BatchEvent, countsAsDone: Bool) {
        guarded.withLock { report(event, countsAsDone: countsAsDone, in: &$0) }
    }

    /// Runs under the lock, so the handler is never called twice at once and sees `done` rise.
    private func report(_ event: BatchEvent, countsAsDone: Bool, in state: inout Guarded) {
        if countsAsDone { state.done += 1 }
        progress?(event, BatchProgress(done: state.done, total: total, elapsedSeconds: BatchRunner.seconds(since: start)))
    }
}
