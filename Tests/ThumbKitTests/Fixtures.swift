import Foundation

/// Paths of the checked-in test files (found from this source file, so no bundle is needed).
enum Fixtures {
    static let directory: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
    }()

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
