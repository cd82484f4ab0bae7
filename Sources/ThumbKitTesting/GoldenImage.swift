import Foundation
import ThumbKit

/// A golden image on disk and what a comparison with it writes beside it.
///
/// The golden is a PNG (RGBA8, lossless). When a comparison fails, the image that was checked is
/// written as `NAME.actual.png` and a picture of the differences (`ImageComparison.diffImage()`)
/// as `NAME.diff.png` in the golden's folder; a passing comparison removes them.
struct GoldenImage {
    /// The golden's path.
    let path: String

    /// `path`, or `path` relative to the folder of the test file that asks (`#filePath`).
    init(_ path: String, relativeTo testFile: String) {
        if path.hasPrefix("/") {
            self.path = path
        } else {
            self.path = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent(path).path
        }
    }

    /// THUMBKIT_RECORD_GOLDENS=1 (or any value but 0 and empty) rewrites every golden compared.
    static var recordsAll: Bool {
        let value = ProcessInfo.processInfo.environment["THUMBKIT_RECORD_GOLDENS"] ?? ""
        return !value.isEmpty && value != "0"
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// `NAME.actual.png` or `NAME.diff.png` beside the golden.
    func sibling(_ kind: String) -> String {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(stem).\(kind).png").path
    }

    /// Writes `image` as a PNG at `file`, making its folder.
    static func write(_ image: Image, to file: String) throws {
        let bytes = try PNGEncoder().encode(image.converted8())
        let url = URL(fileURLWithPath: file)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Checks `image` against the golden, recording or writing the failure files as needed.
    /// Returns nil when it passes, else the failure's message.
    func check(_ image: Image, tolerance: Int) -> String? {
        do {
            if Self.recordsAll || !exists {
                let missing = !exists
                try Self.write(image, to: path)
                removeFailureFiles()
                // A golden that was missing is recorded and the test fails once, so that a golden
                // nobody looked at never passes silently; THUMBKIT_RECORD_GOLDENS=1 is asking.
                return missing && !Self.recordsAll
                    ? "no golden at \(path); recorded this image there: look at it, then run again" : nil
            }
            let golden = try ImageSource.file(path).decode()
            let comparison = ImageComparison(image, golden)
            if comparison.matches(tolerance: tolerance) {
                removeFailureFiles()
                return nil
            }
            try Self.write(image, to: sibling("actual"))
            var written = [sibling("actual")]
            if let diff = comparison.diffImage() {
                try Self.write(diff, to: sibling("diff"))
                written.append(sibling("diff"))
            }
            return "\(path): \(comparison.summary) (tolerance \(tolerance)); wrote \(written.joined(separator: " and "))"
                + "; THUMBKIT_RECORD_GOLDENS=1 accepts the new image"
        } catch {
            return "\(path): \((error as? any ThumbKitError)?.message ?? String(describing: error))"
        }
    }

    private func removeFailureFiles() {
        for kind in ["actual", "diff"] { try? FileManager.default.removeItem(atPath: sibling(kind)) }
    }
}
