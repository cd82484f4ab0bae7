import Glibc

/// A POSIX thread with a stack of a chosen size, running one closure; `join()` waits for it.
///
/// Written over pthreads rather than using Foundation's `Thread` so the `thumbgen` executable
/// does not link Foundation, whose loading alone roughly doubles the start-up of every run.
/// Dispatch cannot set a stack size, and the default stack of a new thread depends on the stack
/// rlimit (2 MiB when it is unlimited), so the size is always asked for explicitly.
final class WorkerThread {
    private let thread: pthread_t

    /// Starts `body` on a new thread whose stack is at least `stackSize` bytes.
    init(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(SystemFailure) {
        var attributes = pthread_attr_t()
        var rc = pthread_attr_init(&attributes)
        guard rc == 0 else { throw SystemFailure(code: rc) }
        defer { pthread_attr_destroy(&attributes) }
        rc = pthread_attr_setstacksize(&attributes, stackSize)
        guard rc == 0 else { throw SystemFailure(code: rc) }
        // The closure travels to the new thread as a retained reference that the thread releases.
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        rc = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemFailure(code: rc)
        }
        self.thread = thread
    }

    /// Waits until the body has returned. Call it exactly once: a joined thread is gone.
    func join() {
        pthread_join(thread, nil)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
