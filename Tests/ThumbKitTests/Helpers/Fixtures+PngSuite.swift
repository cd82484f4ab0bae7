import Foundation
import TestSupport

/// The PngSuite (`Tests/Fixtures/pngsuite`), by name.
extension Fixtures {
    static let pngSuite = path("pngsuite")

    /// Every PngSuite image name, sorted.
    static let pngSuiteNames: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: pngSuite)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
    }()

    static var validPngSuiteNames: [String] { pngSuiteNames.filter { !$0.hasPrefix("x") } }
    static var invalidPngSuiteNames: [String] { pngSuiteNames.filter { $0.hasPrefix("x") } }
}
