import Synchronization

/// The one way ThumbKit runs work on several threads: `WorkerThread`s started for the job, each
/// running the same body, all joined before returning.
///
/// The threads are the package's own rather than Dispatch's so that their stack size is chosen,
/// not inherited: renderers decode and resample with deep call chains, and the default stack of a
/// new thread depends on the stack rlimit (2 MiB when it is unlimited).
enum WorkerPool {
    /// Stack of every thread that renders, a batch's workers and a check's alike.
    static let renderStackSize = 8 << 20
    /// Stack of threads whose work is shallow (planning's reads of each file's first bytes).
    static let shallowStackSize = 1 << 20

    /// Runs `body` on `threads` new threads with stacks of at least `stackSize` bytes, and returns
    /// once every one has returned. `body` should take work from shared state until none is left:
    /// then the threads that did start finish the job, and if the system starts none, the caller's
    /// thread runs `body` itself rather than leave the work undone.
    static func run(threads: Int, stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        let started = (0..<threads).compactMap { _ in try? WorkerThread(stackSize: stackSize, body) }
        if started.isEmpty && threads > 0 { body() }
        for thread in started { thread.join() }
    }

    /// `elements.map(transform)`, computed on up to `threads` threads of `run(threads:stackSize:_:)`,
    /// results in the elements' order. Items are handed out `batchSize` at a time from a shared
    /// counter, so a slow item (a file on a slow disk, a large image) holds up only its own thread.
    static func map<Element: Sendable, Result: Sendable>(_ elements: [Element], threads: Int, stackSize: Int, batchSize: Int = 1,
                                                         _ transform: @escaping @Sendable (Element) -> Result) -> [Result] {
        let results = Results<Result>(count: elements.count)
        let next = Counter()
        let batches = (elements.count + batchSize - 1) / batchSize
        run(threads: min(threads, batches), stackSize: stackSize) {
            while let range = next.take(batchSize, below: elements.count) {
                for index in range { results.store(transform(elements[index]), at: index) }
            }
        }
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
