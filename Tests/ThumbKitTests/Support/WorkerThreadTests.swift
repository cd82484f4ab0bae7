import Glibc
import Synchronization
import Testing
@testable import ThumbKit

@Suite struct WorkerThreadTests {
    /// What a body saw of the thread it ran on; written there, read after `join()`.
    final class Seen: Sendable {
        private let values = Mutex<[(thread: pthread_t, stackSize: Int)]>([])

        func record() {
            let entry = (pthread_self(), WorkerThreadTests.currentStackSize())
            values.withLock { $0.append(entry) }
        }

        var all: [(thread: pthread_t, stackSize: Int)] { values.withLock { $0 } }
    }

    /// glibc's `pthread_getattr_np`, which Swift's Glibc module leaves out (a GNU extension).
    private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    private static let getAttributes: GetAttributes? = {
        dlsym(dlopen(nil, RTLD_NOW), "pthread_getattr_np").map { unsafeBitCast($0, to: GetAttributes.self) }
    }()

    /// The calling thread's stack size as the system reports it, 0 if it cannot tell.
    static func currentStackSize() -> Int {
        var attributes = pthread_attr_t()
        guard let getAttributes, getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var size = 0
        pthread_attr_getstacksize(&attributes, &size)
        return size
    }

    @Test(arguments: [1 << 20, 8 << 20, 24 << 20])
    func runsItsBodyOnANewThreadWithAtLeastTheStackAskedFor(_ stackSize: Int) throws {
        let seen = Seen()
        let thread = try WorkerThread(stackSize: stackSize) { seen.record() }
        thread.join()
        let values = seen.all
        try #require(values.count == 1)
        #expect(pthread_equal(values[0].thread, pthread_self()) == 0)
        #expect(values[0].stackSize >= stackSize)
    }

    @Test func aStackTooSmallIsRefusedWithTheSystemsReason() {
        #expect(throws: SystemFailure(reason: "invalid argument")) { _ = try WorkerThread(stackSize: 1) { } }
    }

    @Test(arguments: [1, 3])
    func batchWorkersHaveEightMiBStacks(_ jobs: Int) throws {
        let dir = ScratchDirectory()
        for i in 0..<6 { dir.write("in/img\(i).png", Fixture.png(seed: i)) }
        let seen = Seen()
        let render = Fixture.renderer()
        let summary = try BatchRunner(configuration: Fixture.configuration([dir.at("in")], out: dir.at("out"), jobs: jobs),
                                      renderer: { source in seen.record(); return try render(source) }).run()
        #expect(summary.written == 6)
        #expect(seen.all.count == 6)
        #expect(seen.all.allSatisfy { $0.stackSize >= 8 << 20 && pthread_equal($0.thread, pthread_self()) == 0 })
    }

    /// `check` renders on the same kind of thread as the batch: never the caller's, 8 MiB stacks.
    @Test(arguments: [1, 3])
    func checkRendersOnEightMiBStacks(_ jobs: Int) throws {
        let dir = ScratchDirectory()
        for i in 0..<6 { dir.write("in/img\(i).png", Fixture.png(seed: i)) }
        let configuration = Fixture.configuration([dir.at("in")], out: dir.at("out"), jobs: jobs)
        #expect(try BatchRunner(configuration: configuration, renderer: Fixture.renderer()).run().written == 6)
        let seen = Seen()
        let render = Fixture.renderer()
        let report = try BatchChecker(renderer: { source in seen.record(); return try render(source) }, jobs: jobs)
            .check(manifestPaths: [configuration.manifestPath])
        #expect(report.checked == 6 && report.mismatches.isEmpty)
        #expect(seen.all.count == 6)
        #expect(seen.all.allSatisfy { $0.stackSize >= 8 << 20 && pthread_equal($0.thread, pthread_self()) == 0 })
    }
}
