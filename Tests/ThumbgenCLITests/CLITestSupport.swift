import Foundation
@testable import ThumbgenCLI

/// Runs thumbgen in-process with captured output.
struct CLIRun {
    let status: ExitCode
    let out: String
    let err: String

    init(_ arguments: [String]) {
        let console = Console.capture()
        status = ThumbgenMain.run(arguments, console: console)
        out = console.capturedOut
        err = console.capturedErr
    }

    /// Arguments as the process would get them, bytes that need not be UTF-8.
    init(raw arguments: [[UInt8]]) {
        let console = Console.capture()
        status = ThumbgenMain.run(arguments.map { String(decoding: $0, as: UTF8.self) }, raw: arguments, console: console)
        out = console.capturedOut
        err = console.capturedErr
    }
}

enum CLIFixtures {
    static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
    }()

    static func path(_ relative: String) -> String { directory + "/" + relative }

    static func temporaryDirectory(_ label: String) -> String {
        let path = NSTemporaryDirectory() + "thumbgen-cli-\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The built `thumbgen` binary, beside the test bundle.
    static let binary: String = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("thumbgen").path
    }()

    /// Runs the real binary; returns its exit status and standard error.
    static func runBinary(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
