import Dispatch

/// Puts finished outputs in place on a thread of its own, so workers never wait for the disk.
///
/// Workers stage each source's files (`AtomicFile.stage`) and submit them here. While one group
/// of submissions is being synced (and until `gatherSeconds` after it began), the next ones queue
/// up; they are then synced together with
/// `AtomicFile.commit` (one `syncfs` for the whole group rather than an `fsync` per file, which on
/// small outputs cost more than making them) and renamed in submission order, so with one worker
/// files still land in plan order. If any of a source's files cannot be synced or renamed, its
/// completion gets the first error; the source then has no manifest entries, so whatever of it
/// did land is rebuilt by the next run.
final class OutputCommitter: @unchecked Sendable {
    typealias Completion = @Sendable (FileWriteError?) -> Void

    private struct Submission {
        let files: [StagedFile]
        let completion: Completion
    }

    private let syncData: Bool
    private let queue = DispatchQueue(label: "thumbgen.output-committer")
    private let lock = Mutex()
    private var pending: [Submission] = []
    private var draining = false
    /// Set by `finish()`: from then on nothing waits to be gathered.
    private var finishing = false
    private let finished = DispatchSemaphore(value: 0)
    /// When the last flush began (committer's thread only).
    private var lastFlush: DispatchTime?
    /// Groups committed so far (read by tests once `finish()` has returned).
    private(set) var flushes = 0

    /// Flushes begin at most this often. Each `syncfs` has a fixed cost (0.8 ms median on 406
    /// icons, 121 calls when taken greedily); at `-j2` that kernel time came out of the workers'
    /// cores. Gathering for this long makes a handful of flushes a second, and delays a rename by
    /// no more than it.
    static let gatherSeconds = 0.025

    init(syncData: Bool) {
        self.syncData = syncData
    }

    /// Queues `files` (one source's outputs) to be made durable and renamed into place;
    /// `completion` runs on the committer's thread once they are, or with the first error.
    func submit(_ files: [StagedFile], completion: @escaping Completion) {
        let startDrain = lock.withLock {
            pending.append(Submission(files: files, completion: completion))
            defer { draining = true }
            return !draining
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Returns when everything submitted so far is committed and its completion has run;
    /// called once no more work is coming, so the last group is flushed without gathering.
    func finish() {
        lock.withLock { finishing = true }
        finished.signal()
        queue.sync {}
    }

    private func drain() {
        while true {
            if syncData, let lastFlush, !lock.withLock({ finishing }) {
                let due = lastFlush + OutputCommitter.gatherSeconds
                if due > DispatchTime.now() { _ = finished.wait(timeout: due) }
            }
            let group: [Submission] = lock.withLock {
                let taken = pending
                pending.removeAll()
                if taken.isEmpty { draining = false }
                return taken
            }
            if group.isEmpty { return }
            lastFlush = DispatchTime.now()
            flushes += 1
            let errors = AtomicFile.commit(group.flatMap(\.files), syncData: syncData)
            var offset = 0
            for submission in group {
                let mine = errors[offset..<(offset + submission.files.count)]
                offset += submission.files.count
                submission.completion(mine.lazy.compactMap { $0 }.first)
            }
        }
    }
}
