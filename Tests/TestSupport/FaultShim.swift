import Foundation

/// `Tests/Fixtures/shims/fsfault.c` built as a shared object, for `LD_PRELOAD`: makes chosen
/// file system calls fail below a folder (a full disk, a read-only mount, a mount that refuses
/// rename) without needing one.
package enum FaultShim {
    /// The built shim's path.
    package static let path: String = {
        let folder = Fixtures.temporaryDirectory("shim")
        let library = folder + "/fsfault.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        process.arguments = ["-shared", "-fPIC", "-O1", "-o", library, Fixtures.path("shims/fsfault.c"), "-ldl"]
        try? process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "cannot build the fsfault shim")
        return library
    }()

    /// The environment that makes `calls` (e.g. "write:ENOSPC,rename:EXDEV") fail below `folder`,
    /// logging each failed call to `log`.
    package static func environment(failing calls: String, below folder: String, log: String) -> [String: String] {
        ["LD_PRELOAD": path, "FSFAULT": calls, "FSFAULT_DIR": folder, "FSFAULT_LOG": log]
    }
}
