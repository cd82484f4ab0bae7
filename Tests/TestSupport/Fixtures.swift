import Foundation

/// The checked-in test files, and fresh scratch folders, for every test target (found from this
/// source file, so no bundle is needed).
package enum Fixtures {
    /// The package's `Tests/` folder.
    package static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The package's root folder (README.md, Assets/, Plugins/).
    package static let repository = tests.deletingLastPathComponent()

    /// `Tests/Fixtures`.
    package static let directory = tests.appendingPathComponent("Fixtures").path

    /// A path below `Tests/Fixtures`.
    package static func path(_ relative: String) -> String { directory + "/" + relative }

    /// The bytes of a file below `Tests/Fixtures`.
    package static func bytes(_ relative: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else { preconditionFailure("no fixture \(relative)") }
        return [UInt8](data)
    }

    /// A fresh empty directory under the system's temporary folder.
    package static func temporaryDirectory(_ label: String = "test") -> String {
        let path = NSTemporaryDirectory() + "thumbgen-\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Everything below `directory` (files and folders), as paths relative to it, sorted.
    package static func entries(under directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []).sorted()
    }

    /// The files below `directory` (no folders), as paths relative to it, sorted.
    package static func files(under directory: String) -> [String] {
        entries(under: directory).filter { entry in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + entry, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
