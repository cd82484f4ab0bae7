import Synchronization

/// A flag that asks a running batch to stop.
///
/// Workers check it before starting each file and again before writing, so in-flight renders are
/// dropped and no output is half-written (writes are atomic anyway); the manifest is then written
/// for what completed. The flag is a lock-free atomic, so setting it is safe from any thread,
/// including a signal-handling one.
package final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A flag not yet cancelled.
    package init() {}

    /// Requests cancellation; cannot be undone.
    package func cancel() { flag.store(true, ordering: .releasing) }

    /// True once `cancel()` has been called.
    package var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
