import Foundation

/// Paths of the checked-in test files (found from this source file, so no bundle is needed).
enum Fixtures {
    /// The package's `Tests/` folder: the nearest folder of that name above this file, so test
    /// files can sit in subfolders that mirror the sources.
    static let tests: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.lastPathComponent != "Tests" && folder.path != "/" { folder.deleteLastPathComponent() }
        return folder
    }()

    /// The package's root folder (README.md, Assets/).
    static let repository = tests.deletingLastPathComponent()

    static let directory = tests.appendingPathComponent("Fixtures").path

    static func path(_ relative: String) -> String { directory + "/" + relative }

    static let pngSuite = path("pngsuite")

    /// Every PngSuite image name, sorted.
    static let pngSuiteNames: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: pngSuite)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
    }()

    static var validPngSuiteNames: [String] { pngSuiteNames.filter { !$0.hasPrefix("x") } }
    static var invalidPngSuiteNames: [String] { pngSuiteNames.filter { $0.hasPrefix("x") } }

    /// A fresh empty directory under the system's temporary folder.
    static func temporaryDirectory(_ label: String = "test") -> String {
        let path = NSTemporaryDirectory() + "thumbgen-\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
