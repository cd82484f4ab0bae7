import Synchronization
import ThumbKit

/// Counts a contact sheet's cells as they are drawn and shows them on a `BatchDisplay` bar, as the
/// thumbnail command shows its files: the cells of all pages are one run.
final class SheetProgress: Sendable {
    private let total: Int
    private let start = ContinuousClock.now
    private let display: BatchDisplay
    /// Cells drawn so far; the display is called under this lock, so never twice at once.
    private let done = Mutex(0)

    init(total: Int, display: BatchDisplay) {
        self.total = total
        self.display = display
    }

    /// What `ContactSheet.render` calls as each cell is drawn, from any worker.
    var cellDone: @Sendable () -> Void {
        { [self] in
            done.withLock { count in
                count += 1
                display.handle(.progressed, BatchProgress(done: count, total: total, elapsedSeconds: BatchRunner.seconds(since: start)))
            }
        }
    }
}
