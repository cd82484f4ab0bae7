/// The outcome of a batch run. Every list is in plan order, so the summary is the same for any
/// job count (except `elapsedSeconds`).
package struct BatchSummary: Sendable, Equatable {
    /// Sources rendered and written.
    package var written: Int
    /// Output files written (sources × scales, for those written).
    package var filesWritten: Int
    /// Sources whose outputs were already up to date.
    package var upToDate: Int
    /// Files not processed and why (not images, hidden, output directory, symlink loops).
    package var skipped: [BatchMessage]
    /// Files that failed and why; also a manifest that could not be written.
    package var failed: [BatchMessage]
    /// Outputs removed by `--prune` (their sources are gone), escaped for printing, in output order.
    package var pruned: [String] = []
    /// The failure that stopped the run because it was the machine's (no space, I/O error,
    /// read-only or vanished output folder), also in `failed`; nil when none did.
    package var machineFailure: BatchMessage?
    /// True when the run was cancelled before every file was processed.
    package var cancelled: Bool
    /// Sources not processed because of cancellation.
    package var notProcessed: Int
    /// Wall-clock duration of the run.
    package var elapsedSeconds: Double

    /// A summary with the given counts and lists; all zero and empty by default.
    package init(written: Int = 0, filesWritten: Int = 0, upToDate: Int = 0, skipped: [BatchMessage] = [],
                failed: [BatchMessage] = [], cancelled: Bool = false, notProcessed: Int = 0, elapsedSeconds: Double = 0) {
        self.written = written
        self.filesWritten = filesWritten
        self.upToDate = upToDate
        self.skipped = skipped
        self.failed = failed
        self.cancelled = cancelled
        self.notProcessed = notProcessed
        self.elapsedSeconds = elapsedSeconds
    }

    /// The process exit status: 0 when everything succeeded, 1 when any file failed or the run was
    /// cancelled. (A CLI that stopped on a signal may prefer 128 + the signal number.)
    package var exitStatus: Int32 { failed.isEmpty && !cancelled ? 0 : 1 }

    /// The text to print at the end, one line each, ending with a newline:
    /// `prefix + path: reason` for each failure; then, with `counts`, the counts line, e.g.
    /// `3 written, 1 up to date, 2 skipped, 1 failed in 0.42 s` (`, 2 pruned` after `failed`
    /// when outputs were pruned).
    /// Skipped files are not listed here: a verbose display lists them as they come
    /// (`BatchEvent.skipped`), and listing them again at the end printed each twice.
    package func formatted(prefix: String = "", counts: Bool = true) -> String {
        var lines = failed.map { prefix + $0.line }
        if counts { lines.append(countsLine) }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// `3 written, 1 up to date, 2 skipped, 1 failed in 0.42 s`, without a newline.
    package var countsLine: String {
        var counts = "\(written) written, \(upToDate) up to date, \(skipped.count) skipped, \(failed.count) failed"
        if !pruned.isEmpty { counts += ", \(pruned.count) pruned" }
        if cancelled { counts += ", cancelled with \(notProcessed) not processed" }
        return counts + " in " + Self.seconds(elapsedSeconds)
    }

    /// Seconds with two decimals (`0.42 s`), or whole seconds from a minute up (`75 s`).
    static func seconds(_ value: Double) -> String {
        if value >= 60 { return "\(Int(value.rounded())) s" }
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
