import Dispatch

/// Puts finished outputs in place on a thread of its own, so workers never wait for the disk.
///
/// Workers stage each source's files (`AtomicFile.stage`) and submit them here. While one group
/// of submissions is being synced, the next ones queue up; they are then synced together with
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

    /// Returns when everything submitted so far is committed and its completion has run.
    func waitUntilIdle() {
        queue.sync {}
    }

    private func drain() {
        while true {
            let group: [Submission] = lock.withLock {
                let taken = pending
                pending.removeAll()
                if taken.isEmpty { draining = false }
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
}
