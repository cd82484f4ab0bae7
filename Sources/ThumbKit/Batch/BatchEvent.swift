/// What a running batch reports as it goes, for a progress bar or a log.
///
/// Events arrive one at a time (the runner serialises them), from worker threads. Those about a
/// file (`written`, `upToDate`, `failed`, `skipped`, `warning`) come in plan order whatever the job
/// count, each once the files before it are done, so a log of them is the same for any `-j`;
/// `progressed` comes as each file finishes, for a progress bar.
package enum BatchEvent: Sendable, Equatable {
    /// Work is about to start; `total` is the number of files to process (images plus files that
    /// already failed during planning), the denominator of the progress bar.
    case started(total: Int)
    /// A source was rendered and its outputs written; `path` is escaped for printing.
    case written(path: String)
    /// A source's outputs were already up to date.
    case upToDate(path: String)
    /// A file failed.
    case failed(BatchMessage)
    /// A file was not processed (not an image, hidden, …); for verbose listings.
    case skipped(BatchMessage)
    /// A problem with a source that did not stop it (a corrupt-but-readable JPEG, an unusable
    /// colour profile, a scale enlarged beyond the source); `path` is escaped for printing.
    case warning(path: String, reason: String)
    /// A file finished (in completion order): the counters moved.
    case progressed
    /// An output whose source is gone was removed (`BatchConfiguration.prune`); `path` is the
    /// output's, escaped for printing.
    case pruned(path: String)
    /// A file's outcome in detail (outputs, bytes, time), right after its own event, in plan order.
    case file(FileReport)
    /// The run is over; the manifest has been written.
    case finished(BatchSummary)
}

/// Counters sent with every event.
package struct BatchProgress: Sendable, Equatable {
    /// Files finished (written, up to date or failed).
    package var done: Int
    /// Files to process in all.
    package var total: Int
    /// Seconds since the run started.
    package var elapsedSeconds: Double

    /// Counters as given; `done` is at most `total`.
    package init(done: Int, total: Int, elapsedSeconds: Double) {
        self.done = done
        self.total = total
        self.elapsedSeconds = elapsedSeconds
    }
}

/// Receives events; called under the runner's lock, so it never runs twice at once.
package typealias BatchProgressHandler = @Sendable (BatchEvent, BatchProgress) -> Void
