import Dispatch
import Synchronization

/// Puts finished outputs in place on a thread of its own, so workers never wait for the disk
/// (when syncing; otherwise the workers rename their files themselves, see `submit`).
///
/// Workers stage each source's files (`AtomicFile.stage`) and submit them here. While one group
/// of submissions is being synced (and until `gatherSeconds` after it began, or until
/// `gatherFiles` files wait), the next ones queue up; they are then synced together with
/// `AtomicFile.commit` (one `syncfs` for the whole group rather than an `fsync` per file, which on
/// small outputs cost more than making them) and renamed in submission order, so with one worker
/// files still land in plan order. If any of a source's files cannot be synced or renamed, its
/// completion gets the first error; the source then has no manifest entries, so whatever of it
/// did land is rebuilt by the next run.
final class OutputCommitter: Sendable {
    typealias Completion = @Sendable (FileWriteError?) -> Void

    private struct Submission {
        let files: [StagedFile]
        let completion: Completion
    }

    /// What `submit`, `finish` and the committer's thread share.
    private struct State {
        var pending: [Submission] = []
        /// Files in `pending`.
        var pendingFiles = 0
        var draining = false
        /// Set by `finish()`: from then on nothing waits to be gathered.
        var finishing = false
        /// When the last flush began.
        var lastFlush: DispatchTime?
        /// Groups committed so far.
        var flushes = 0
    }

    private let syncData: Bool
    private let queue = DispatchQueue(label: "thumbgen.output-committer")
    private let shared = Mutex(State())
    /// Held while a worker commits a source's files itself (when not syncing).
    private let inline = Mutex(())
    /// Signalled by `finish()` and when `gatherFiles` files wait: either ends the gathering.
    private let wake = DispatchSemaphore(value: 0)

    /// Groups committed so far (read by tests once `finish()` has returned).
    var flushes: Int { shared.withLock { $0.flushes } }

    /// Flushes begin at most this often. Each `syncfs` has a fixed cost (0.8 ms median on 406
    /// icons, 121 calls when taken greedily); at `-j2` that kernel time came out of the workers'
    /// cores. Gathering for this long makes a handful of flushes a second, and delays a rename by
    /// no more than it.
    static let defaultGatherSeconds = 0.025
    /// ... or sooner, once this many files wait. Without it the last group of a run of small
    /// files held everything finished in the last 25 ms (150-230 icons at `-j2`), and syncing and
    /// renaming it took 6-9 ms after the last worker finished, with every core idle but one.
    static let defaultGatherFiles = 32

    let gatherSeconds: Double
    let gatherFiles: Int

    init(syncData: Bool, gatherSeconds: Double = OutputCommitter.defaultGatherSeconds,
         gatherFiles: Int = OutputCommitter.defaultGatherFiles) {
        self.syncData = syncData
        self.gatherSeconds = gatherSeconds
        self.gatherFiles = gatherFiles
    }

    /// Queues `files` (one source's outputs) to be made durable and renamed into place;
    /// `completion` runs on the committer's thread once they are, or with the first error.
    /// Without syncing, there is nothing to gather and a commit is only renames: the submitting
    /// worker does it, one at a time under `inline`, so files still land in submission order.
    /// Handing each source to the committer's thread cost more than the renames (a thread wake-up
    /// per source: on 406 small icons, 5% of the run's CPU).
    func submit(_ files: [StagedFile], completion: @escaping Completion) {
        guard syncData else {
            inline.withLock { _ in
                completion(AtomicFile.commit(files, syncData: false).lazy.compactMap { $0 }.first)
            }
            return
        }
        let (startDrain, enoughGathered) = shared.withLock { state in
            state.pending.append(Submission(files: files, completion: completion))
            let before = state.pendingFiles
            state.pendingFiles += files.count
            defer { state.draining = true }
            return (!state.draining, before < gatherFiles && state.pendingFiles >= gatherFiles)
        }
        if enoughGathered { wake.signal() }
        if startDrain { queue.async { self.drain() } }
    }

    /// Returns when everything submitted so far is committed and its completion has run;
    /// called once no more work is coming, so the last group is flushed without gathering.
    func finish() {
        shared.withLock { $0.finishing = true }
        wake.signal()
        queue.sync {}
    }

    private func drain() {
        while true {
            if syncData, let lastFlush = shared.withLock({ $0.lastFlush }) { gather(until: lastFlush + gatherSeconds) }
            let group: [Submission] = shared.withLock { state in
                let taken = state.pending
                state.pending.removeAll()
                state.pendingFiles = 0
                if taken.isEmpty {
                    state.draining = false
                } else {
                    state.lastFlush = DispatchTime.now()
                    state.flushes += 1
                }
                return taken
            }
            if group.isEmpty { return }
            let errors = AtomicFile.commit(group.flatMap(\.files), syncData: syncData)
            var offset = 0
            for submission in group {
                let mine = errors[offset..<(offset + submission.files.count)]
                offset += submission.files.count
                submission.completion(mine.lazy.compactMap { $0 }.first)
            }
        }
    }

    /// Lets submissions queue up until `due`, until `gatherFiles` files wait, or until `finish()`.
    /// A signal left over from a group already taken only ends one wait early; the loop rechecks.
    private func gather(until due: DispatchTime) {
        while shared.withLock({ !$0.finishing && $0.pendingFiles < gatherFiles }) && DispatchTime.now() < due {
            _ = wake.wait(timeout: due)
        }
    }
}
