import Glibc
import Testing
@testable import ThumbgenCLI
import ThumbKit

@Suite struct SignalCancellationTests {
    @Test func signalSetsTheFlagOnce() async throws {
        let flag = CancellationFlag()
        let handler = SignalCancellation(flag, signals: [SIGUSR2])
        #expect(!flag.isCancelled && handler.receivedSignal == nil)
        kill(getpid(), SIGUSR2)
        for _ in 0..<200 where !flag.isCancelled { try await Task.sleep(for: .milliseconds(5)) }
        #expect(flag.isCancelled)
        #expect(handler.receivedSignal == SIGUSR2)
        withExtendedLifetime(handler) {}
    }
}
