import Glibc
import Synchronization
import ThumbKit

/// Sets the batch's `CancellationFlag` when the process receives SIGINT or SIGTERM.
///
/// The first signal cancels the batch gracefully (in-flight files dropped, manifest written);
/// the handler then restores the default action, so a second Ctrl-C kills the process at once,
/// as users expect from a tool that seems stuck. A plain signal handler is used because
/// Dispatch signal sources on Linux use `signalfd`, which only works when the signal is blocked
/// in every thread, something that cannot be arranged once threads exist. The handler does
/// only async-signal-safe work: lock-free atomic loads and stores, and `signal(2)`.
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
        receivedSignalNumber.store(0, ordering: .relaxed)
        activeFlag.store(Unmanaged.passUnretained(flag), ordering: .releasing)
        for number in signals {
            signal(number) { received in
                receivedSignalNumber.store(received, ordering: .relaxed)
                // The progress bar goes at once, not when the files in flight are dropped (or
                // never, if a second Ctrl-C kills the process): write(2) is async-signal-safe.
                if progressLineShown.exchange(false, ordering: .acquiringAndReleasing) {
                    _ = withUnsafeBytes(of: clearLine) { write(2, $0.baseAddress, $0.count) }
                }
                activeFlag.load(ordering: .acquiring)?.takeUnretainedValue().cancel()
                signal(received, SIG_DFL)
            }
        }
    }

    /// The signal that cancelled the run (SIGINT or SIGTERM), or nil if none arrived; the CLI
    /// exits with 128 plus it, as shells report a death by signal.
    var receivedSignal: Int32? {
        let number = receivedSignalNumber.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    deinit {
        for number in signals { signal(number, SIG_DFL) }
        activeFlag.store(nil, ordering: .releasing)
    }
}

/// The flag the signal handler sets; see `SignalCancellation`. Atomic because the handler runs on
/// whichever thread the signal lands on.
private let activeFlag = Atomic<Unmanaged<CancellationFlag>?>(nil)

/// The last signal the handler saw (0 = none).
private let receivedSignalNumber = Atomic<Int32>(0)

/// True while a progress bar is drawn on standard error (`BatchDisplay` sets it); the signal
/// handler then erases it.
let progressLineShown = Atomic<Bool>(false)

/// `\r` and "erase to the end of the line" (ESC [ K), as bytes a signal handler can write.
private let clearLine: (UInt8, UInt8, UInt8, UInt8) = (0x0D, 0x1B, 0x5B, 0x4B)
