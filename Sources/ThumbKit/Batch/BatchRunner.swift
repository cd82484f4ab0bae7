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
        let previous = Manifest.loadOrEmpty(path: configuration.shardManifestPath)
        let plan = try BatchPlanner(configuration: configuration, previous: previous).plan()
        return run(plan, previous: previous, start: start)
    }

    /// Runs an already computed plan (from `BatchPlanner` with the same configuration).
    package func run(_ plan: BatchPlan) -> BatchSummary {
        run(plan, previous: Manifest.loadOrEmpty(path: configuration.shardManifestPath), start: ContinuousClock.now)
    }

    private func run(_ plan: BatchPlan, previous: Manifest, start: ContinuousClock.Instant) -> BatchSummary {
        // Temporaries left by a killed run go first, from every directory this run writes to.
        let directories = outputDirectories(plan)
        for directory in directories { AtomicFile.removeStaleTemporaries(in: directory) }

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
        let state = SharedState(cancellation: cancellation, results: initial, total: plan.items.count - plan.items.count { if case .skipped = $0 { true } else { false } },
                                start: start, progress: progress, paths: plan.items.map(Self.shownPath),
                                manifestDirectory: configuration.manifestDirectory)
        state.begin()

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
                let began = ContinuousClock.now
                // Runs on the committer's thread, once the outputs are in place.
                let record: @Sendable (ItemResult) -> Void = { result in
                    state.store(result, at: index, path: shown, milliseconds: Int((Self.seconds(since: began) * 1000).rounded()))
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
                case .staged(let files, let entries, let warnings, let bytes):
                    committer.submit(files) { error in
                        record(error.map { .failed(BatchMessage(path: shown, reason: $0.message, isMachineFailure: $0.isMachineFailure)) }
                               ?? .written(entries, warnings: warnings, bytes: bytes))
                    }
                }
            }
        }
        WorkerPool.run(threads: threadCount, stackSize: WorkerPool.renderStackSize, takeItemsUntilDone)
        committer.finish()

        var (summary, manifest) = Self.assemble(plan, results: state.snapshot, previous: previous)
        summary.machineFailure = summary.failed.first(where: \.isMachineFailure)
        summary.cancelled = summary.notProcessed > 0
        // A cancelled run prunes nothing: what it did not reach is not known to be gone.
        if let rule = configuration.prune, !summary.cancelled {
            OutputPruner(rule: rule, manifestDirectory: configuration.manifestDirectory,
                         outputDirectories: configuration.pruneRoots ?? configuration.groups.map(\.outputDirectory),
                         made: plan.outputsOfAllShards, unnamedSources: plan.unnamedSources)
                .prune(&manifest, into: &summary) { state.report($0) }
        }
        syncOutputDirectories(directories)
        if let failure = writeManifest(manifest) {
            summary.failed.append(failure)
            if failure.isMachineFailure && summary.machineFailure == nil { summary.machineFailure = failure }
        }
        summary.elapsedSeconds = Self.seconds(since: start)
        state.report(.finished(summary))
        return summary
    }

    /// The summary and manifest for a plan's results, in plan order. The manifest keeps every
    /// entry of the previous one and replaces or adds those of the outputs written or found up to
    /// date: a source that failed, or was not reached, keeps its old entries (its old outputs are
    /// still on disk, so pruning and `check` must still see them).
    static func assemble(_ plan: BatchPlan, results: [ItemResult?], previous: Manifest) -> (summary: BatchSummary, manifest: Manifest) {
        var summary = BatchSummary()
        var manifest = previous
        for result in results {
            switch result {
            case .written(let entries, _, _)?:
                summary.written += 1
                summary.filesWritten += entries.count
                for entry in entries { manifest.entries[entry.output] = entry }
            case .upToDate(let entries)?:
                summary.upToDate += 1
                for entry in entries { manifest.entries[entry.output] = entry }
            case .failed(let message)?:
                summary.failed.append(message)
            case .skipped(let message)?:
                summary.skipped.append(message)
            case .dropped?, nil:
                summary.notProcessed += 1
            }
        }
        return (summary, manifest)
    }

    /// An item's path as messages show it.
    static func shownPath(_ item: BatchPlan.Item) -> String {
        switch item {
        case .source(let source): return source.path.description
        case .failed(let path, _), .skipped(let path, _): return path
        }
    }

    /// Writes the manifest; a failure becomes a summary message rather than losing the summary.
    /// An empty manifest where there was none is not written, so a run that produced nothing (a
    /// build step's one file that failed) leaves nothing on disk, not even the output directory.
    private func writeManifest(_ manifest: Manifest) -> BatchMessage? {
        let path = configuration.shardManifestPath
        if manifest.entries.isEmpty, case .failure = FileSystem.status(path) { return nil }
        do {
            try manifest.write(to: path, direct: configuration.writeMode == .direct)
            return nil
        } catch {
            return BatchMessage(path: path.description, reason: error.message, isMachineFailure: error.isMachineFailure)
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

    /// Every directory outputs of the plan go to, and the manifest's, sorted.
    private func outputDirectories(_ plan: BatchPlan) -> [FilePath] {
        var directories = Set(configuration.groups.map(\.outputDirectory))
        directories.insert(configuration.manifestDirectory)
        for source in plan.sources {
            for membership in source.memberships {
                let group = configuration.groups[membership.group]
                for output in membership.outputs ?? [] {
                    directories.insert(group.outputDirectory.appending(output.relativePath).directory)
                }
            }
        }
        return directories.sorted().map { $0.isEmpty ? "." : $0 }
    }

    /// Seconds from `start` to now, on the monotonic clock.
    package static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}

/// How one plan item ended.
enum ItemResult: Sendable {
    case written([ManifestEntry], warnings: [String], bytes: Int)
    case upToDate([ManifestEntry])
    case failed(BatchMessage)
    case skipped(BatchMessage)
    /// Cancelled while in flight; nothing was recorded.
    case dropped
}

/// The state workers share: the next item to take, the results, and progress counters, all
/// behind one lock (contention is negligible next to decoding and encoding an image).
///
/// Events about files are reported in plan order: a result is held until every item before it
/// has one, so `-v` lines and warnings are the same for any job count.
private final class SharedState: Sendable {
    private struct Guarded {
        var next = 0
        var done = 0
        /// The first item whose events are not reported yet.
        var nextToReport = 0
        /// A failure that is the machine's has been stored.
        var machineFailed = false
        /// Each item's time in its worker, in milliseconds.
        var milliseconds: [Int]
        var lastCheckpoint: ContinuousClock.Instant
        var results: [ItemResult?]
    }

    private let guarded: Mutex<Guarded>
    /// What output keys are relative to (reports name outputs from the working directory).
    private let manifestDirectory: FilePath
    /// Set by the first failure that is the machine's: the rest of the run would fail alike.
    private let cancellation: CancellationFlag
    let total: Int
    private let start: ContinuousClock.Instant
    private let progress: BatchProgressHandler?
    /// Each item's path as messages show it.
    private let paths: [String]

    init(cancellation: CancellationFlag, results: [ItemResult?], total: Int, start: ContinuousClock.Instant,
         progress: BatchProgressHandler?, paths: [String], manifestDirectory: FilePath) {
        self.cancellation = cancellation
        self.guarded = Mutex(Guarded(milliseconds: Array(repeating: 0, count: results.count), lastCheckpoint: start, results: results))
        self.manifestDirectory = manifestDirectory
        self.total = total
        self.start = start
        self.progress = progress
        self.paths = paths
    }

    /// Reports the start, and the items planning already decided, up to the first to render.
    func begin() {
        guarded.withLock { state in
            report(.started(total: total), in: &state)
            state.done = state.results.count { if case .failed = $0 { true } else { false } }
            reportInOrder(in: &state)
        }
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

    func store(_ result: ItemResult, at index: Int, path: String, milliseconds: Int = 0) {
        guarded.withLock { state in
            var result = result
            state.milliseconds[index] = milliseconds
            if case .failed(let message) = result, message.isMachineFailure {
                // One line for a full disk, not one per file in flight: the first stops the run,
                // the others are dropped like files a Ctrl-C caught.
                if state.machineFailed { result = .dropped } else { state.machineFailed = true }
                cancellation.cancel()
            }
            state.results[index] = result
            if case .dropped = result { return }
            state.done += 1
            report(.progressed, in: &state)
            reportInOrder(in: &state)
        }
    }

    func report(_ event: BatchEvent) {
        guarded.withLock { report(event, in: &$0) }
    }

    /// The events of every item from `nextToReport` on that has a result, stopping at the first
    /// that has none yet.
    private func reportInOrder(in state: inout Guarded) {
        while state.nextToReport < state.results.count, let result = state.results[state.nextToReport] {
            let path = paths[state.nextToReport]
            state.nextToReport += 1
            let index = state.nextToReport - 1
            var file = FileReport(path: path, outcome: .written, outputs: [], bytes: 0, reason: nil,
                                  milliseconds: state.milliseconds[index])
            switch result {
            case .written(let entries, let warnings, let bytes):
                for warning in warnings { report(.warning(path: path, reason: warning), in: &state) }
                report(.written(path: path), in: &state)
                file.outputs = entries.map { manifestDirectory.resolving($0.output).description }
                file.bytes = bytes
            case .upToDate(let entries):
                report(.upToDate(path: path), in: &state)
                (file.outcome, file.outputs) = (.upToDate, entries.map { manifestDirectory.resolving($0.output).description })
            case .failed(let message):
                report(.failed(message), in: &state)
                (file.outcome, file.reason) = (.failed, message.reason)
            case .skipped(let message):
                report(.skipped(message), in: &state)
                (file.outcome, file.reason) = (.skipped, message.reason)
            case .dropped: continue
            }
            report(.file(file), in: &state)
        }
    }

    /// Runs under the lock, so the handler is never called twice at once.
    private func report(_ event: BatchEvent, in state: inout Guarded) {
        progress?(event, BatchProgress(done: state.done, total: total, elapsedSeconds: BatchRunner.seconds(since: start)))
    }
}
