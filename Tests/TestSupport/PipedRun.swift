import Foundation

/// The built `thumbgen` run with standard input read from a file (or a pipe that is closed at
/// once), its standard output kept as bytes: for what only a pipe shows (`thumbgen - -o -`).
package struct PipedRun {
    package let status: Int32
    package let out: [UInt8]
    package let err: String

    /// `environment` is added to this process's (an LD_PRELOAD shim, a scheduler's variables).
    package init(_ arguments: [String], stdin inputPath: String?, environment: [String: String] = [:],
                 executable: String = BuiltBinary.path) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let folder = Fixtures.temporaryDirectory("piped")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outPath = folder + "/out", errPath = folder + "/err"
        for file in [outPath, errPath] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        if let inputPath {
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        status = process.terminationStatus
        self.out = [UInt8](FileManager.default.contents(atPath: outPath) ?? Data())
        self.err = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
    }
}
