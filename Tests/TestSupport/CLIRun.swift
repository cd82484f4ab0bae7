import ThumbgenCLI

/// thumbgen run in this process, its output captured: what a command prints and its exit status,
/// without starting a process.
package struct CLIRun {
    package let status: ExitCode
    package let out: String
    package let err: String

    package init(_ arguments: [String]) {
        let console = Console.capture()
        status = ThumbgenMain.run(arguments, console: console)
        out = console.capturedOut
        err = console.capturedErr
    }

    /// Arguments as the process would get them, bytes that need not be UTF-8.
    package init(raw arguments: [[UInt8]]) {
        let console = Console.capture()
        status = ThumbgenMain.run(arguments.map { String(decoding: $0, as: UTF8.self) }, raw: arguments, console: console)
        out = console.capturedOut
        err = console.capturedErr
    }
}
