import Synchronization

/// The badges rendered while a log is bound to the current task, in order.
///
/// `StarBadge.render(scale:)` appends to `StarRenderLog.current` when there is one, so a test can
/// run a whole `thumbgen stars` and check that every badge was drawn exactly once. A task-local
/// rather than a global counter: tests run in parallel, and each sees only its own renders.
package final class StarRenderLog: Sendable {
    /// One `render(scale:)` call.
    package struct Entry: Sendable, Hashable {
        /// The badge's rating.
        package let rating: Double
        /// The scale it was rendered at, 1…3.
        package let scale: Int
    }

    /// The log renders in this task are recorded in, if any (`StarRenderLog.$current.withValue(log) { … }`).
    @TaskLocal package static var current: StarRenderLog?

    // Child tasks inherit the binding and may render on other threads.
    private let recorded = Mutex<[Entry]>([])

    /// An empty log, to bind with `$current.withValue`.
    package init() {}

    /// Every render recorded so far, in the order they happened.
    package var entries: [Entry] { recorded.withLock { $0 } }

    func record(rating: Double, scale: Int) {
        recorded.withLock { $0.append(Entry(rating: rating, scale: scale)) }
    }
}
