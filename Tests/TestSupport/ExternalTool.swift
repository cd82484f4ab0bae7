import Foundation

/// Another program the tests check thumbgen's files with (Pillow's Python, heif-convert,
/// pngcheck, aapt, …), run to its end with standard output and error together.
package enum ExternalTool {
    /// The tool is not installed: the test fails, naming it and what installs it.
    package struct Missing: Error, CustomStringConvertible {
        package let path: String
        package var description: String { "\(path) is missing: make deps installs it" }
    }

    /// Runs `path` with `arguments`; its exit status and everything it printed.
    package static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, out: String) {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(path: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
