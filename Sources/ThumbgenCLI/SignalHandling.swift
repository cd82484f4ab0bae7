import Glibc
import ThumbKit

/// SIGINT and SIGTERM stop a batch cleanly: the handler only sets a flag (an atomic store, safe in
/// a signal handler); workers finish or drop the image in hand, and the manifest is written for
/// what completed. A second signal ends the process at once (nothing partial is under a final
/// name either way: every write is atomic).
enum SignalHandling {
    static let cancellation = CancellationFlag()
    nonisolated(unsafe) private(set) static var receivedSignal: Int32 = 0

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { number in
                if SignalHandling.cancellation.isCancelled {
                    signal(number, SIG_DFL)
                    raise(number)
                    return
                }
                SignalHandling.receivedSignal = number
                SignalHandling.cancellation.cancel()
            }
        }
    }
}
