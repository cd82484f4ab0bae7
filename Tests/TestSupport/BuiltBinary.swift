import Foundation

/// The `thumbgen` executable built with the tests (beside the test bundle), run as a process of
/// its own: for what only a whole process shows (exit statuses, signals, memory, output on a full
/// disk).
package enum BuiltBinary {
    /// Its path.
    package static let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("thumbgen").path

    /// How a run ended and what it printed.
    package struct Run: Sendable {
        package let status: Int32
        package let out: String
        package let err: String
        /// The run was killed for taking longer than it was given.
        package let timedOut: Bool

        /// Standard error's `thumbgen: …` lines: one for each failed file.
        package var failureLines: [String] { err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("thumbgen: ") } }
    }

    /// Runs the binary with `arguments` (or `executable`, given `arguments` with its own path
    /// first, e.g. `/usr/bin/time` around the binary), and kills it if it has not finished after
    /// `seconds`: a hang is a failure, not a stuck test run.
    package static func run(_ arguments: [String], executable: String? = nil, seconds: Double = 120) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path)
        process.arguments = executable == nil ? arguments : Array(arguments.dropFirst())
        // Output goes to files, so polling for the deadline cannot block on a full pipe.
        let folder = Fixtures.temporaryDirectory("run")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outPath = folder + "/out", errPath = folder + "/err"
        for file in [outPath, errPath] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        func text(_ file: String) -> String { String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self) }
        return Run(status: process.terminationStatus, out: text(outPath), err: text(errPath), timedOut: timedOut)
    }
}
