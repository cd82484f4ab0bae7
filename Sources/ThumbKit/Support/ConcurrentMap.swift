import Synchronization

/// Maps a list on several threads, the caller's among them, keeping the results in order.
///
/// For per-item work that is mostly system calls (planning reads the first bytes of every file
/// in the tree before any worker can start): with more jobs than one the wait before the first
/// image shrinks with them. Items are handed out in small batches from a shared counter, so a
/// slow item (a file on a slow disk) holds up only its own thread.
enum ConcurrentMap {
    /// Below this many items one thread does it all: starting threads costs more than it saves.
    static let minimumItems = 64
    /// Items a thread takes at a time.
    static let batchSize = 16
    /// Stack of the helper threads: the transforms they run are shallow.
    static let stackSize = 1 << 20

    /// `elements.map(transform)`, computed on up to `threads` threads. If helper threads cannot
    /// be started, the caller's thread does their share.
    static func map<Element: Sendable, Result: Sendable>(_ elements: [Element], threads: Int,
                                                         _ transform: @escaping @Sendable (Element) -> Result) -> [Result] {
        let helpers = min(threads, elements.count / minimumItems + 1) - 1
        guard helpers > 0 else { return elements.map(transform) }
        let results = Results<Result>(count: elements.count)
        let next = Counter()
        let work: @Sendable () -> Void = {
            while let range = next.take(batchSize, below: elements.count) {
                for index in range { results.store(transform(elements[index]), at: index) }
            }
        }
        let started = (0..<helpers).compactMap { _ in try? WorkerThread(stackSize: stackSize, work) }
        work()
        for thread in started { thread.join() }
        return results.values
    }

    /// The next batch of indices, shared by every thread of one `map`.
    private final class Counter: Sendable {
        private let next = Atomic<Int>(0)

        /// Relaxed: the counter only hands out indices; the results reach the caller through
        /// `join()`. Every thread overshoots `end` at most once, so the count cannot overflow.
        func take(_ count: Int, below end: Int) -> Range<Int>? {
            let start = next.wrappingAdd(count, ordering: .relaxed).oldValue
            guard start < end else { return nil }
            return start..<min(start + count, end)
        }
    }

    /// One slot per element. Each slot is written by exactly one thread, and read only after
    /// every thread has been joined, so the slots need no lock.
    private final class Results<Value>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<Value?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func store(_ value: Value, at index: Int) { slots[index] = value }

        var values: [Value] { slots.map { $0! } }
    }
}
