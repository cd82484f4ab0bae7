import Foundation
import Glibc
import Testing
import TestSupport

/// SIGINT and SIGTERM stop the real binary cleanly. Run as a separate process: the handler is
/// process-wide, and other suites run batches in this process at the same time, which would
/// take the signal or reset what the handler recorded.
@Suite struct SignalCancellationTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalCancelsTheRunAndIsTheExitStatus(_ signalNumber: Int32, _ status: Int32) throws {
        // Enough work that the signal lands mid-run: the sample photos many times over, one job.
        let tree = Fixtures.temporaryDirectory("signal")
        let photos = Fixtures.path("../../Assets/samples/photos")
        for i in 0..<4 {
            for name in try FileManager.default.contentsOfDirectory(atPath: photos) {
                try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: tree + "/\(i)-" + name)
            }
        }
        let out = Fixtures.temporaryDirectory("signalled")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path)
        process.arguments = [tree, "-o", out, "-j1", "-v", "--progress", "never", "--size", "200"]
        let err = Pipe()
        process.standardError = err
        // A child starts with its parent thread's signal mask, and the test runner's threads block
        // SIGINT and SIGTERM: unblocked here while the binary is started, as a shell would have them.
        var signals = sigset_t(), previous = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            try process.run()
        }
        // Signalled once the first file is written, so the handler is surely installed.
        var text = ""
        while !text.contains("written: ") {
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        kill(process.processIdentifier, signalNumber)
        text += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == status, "\(text)")
        #expect(text.contains(" not processed in "), "\(text)")
        // What completed is in the manifest, and a rerun finishes the job.
        let rerun = try BuiltBinary.run([tree, "-o", out, "--size", "200"])
        #expect(rerun.status == 0 && !rerun.err.contains(" 0 up to date"), "\(rerun.err)")
    }
}
