import Glibc
import ThumbKit

/// Sets the batch's `CancellationFlag` when the process receives SIGINT or SIGTERM.
///
/// The first signal cancels the batch gracefully (in-flight files dropped, manifest written);
/// the handler then restores the default action, so a second Ctrl-C kills the process at once,
/// as users expect from a tool that seems stuck. A plain `sigaction` handler is used because
/// Dispatch signal sources on Linux use `signalfd`, which only works when the signal is blocked
/// in every thread, something that cannot be arranged once threads exist. The handler does
/// only async-signal-safe work: a lock-free atomic store and `signal(2)`.
///
/// One instance at a time (the handler has no context pointer, so the flag lives in a global).
/// Keep the value alive for the whole run; releasing it restores the default actions.
final class SignalCancellation: Sendable {
    private let signals: [Int32]
    private let flag: CancellationFlag

    /// Starts turning `signals` (default SIGINT and SIGTERM) into `flag.cancel()`.
    init(_ flag: CancellationFlag, signals: [Int32] = [SIGINT, SIGTERM]) {
        self.signals = signals
        self.flag = flag
        // Published before the handler can run; the instance keeps the flag alive.
        activeFlag = Unmanaged.passUnretained(flag)
        for number in signals {
            signal(number) { received in
                receivedSignalNumber = received
                activeFlag?.takeUnretainedValue().cancel()
                signal(received, SIG_DFL)
            }
        }
    }

    /// The signal that cancelled the run (SIGINT or SIGTERM), or nil if none arrived; the CLI
    /// exits with 128 plus it, as shells report a death by signal.
    var receivedSignal: Int32? { receivedSignalNumber == 0 ? nil : receivedSignalNumber }

    deinit {
        for number in signals { signal(number, SIG_DFL) }
        activeFlag = nil
    }
}

/// The flag the signal handler sets; see `SignalCancellation`.
nonisolated(unsafe) private var activeFlag: Unmanaged<CancellationFlag>?

/// The last signal the handler saw (0 = none); a plain aligned store, safe in a signal handler.
nonisolated(unsafe) private var receivedSignalNumber: Int32 = 0
