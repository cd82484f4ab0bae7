/// The process exit statuses thumbgen uses.
package enum ExitCode: Int32 {
    case success = 0
    /// At least one input failed; the others were processed.
    case failure = 1
    /// The command line was wrong (EX_USAGE from sysexits.h, as swift-argument-parser uses).
    case usage = 64
    /// The machine failed, not the input (no space, I/O error, read-only or vanished output
    /// folder): EX_TEMPFAIL from sysexits.h, so a scheduler can retry the task elsewhere.
    case temporaryFailure = 75
    /// Stopped by SIGINT (128 + 2, as shells report it).
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15).
    case terminated = 143
}

