import Testing
import ThumbKit
import XCTest

/// Fails the current test (XCTest or Swift Testing) unless `image` matches the golden PNG at
/// `path` to within `tolerance` levels per channel (0: identical RGBA8 samples).
///
/// - A relative `path` is taken from the folder of the calling test file.
/// - A missing golden is recorded from `image` and the test fails once, saying where: look at
///   the picture, then run again. `THUMBKIT_RECORD_GOLDENS=1` rewrites every golden compared and
///   passes.
/// - On a mismatch, `NAME.actual.png` (the image) and `NAME.diff.png` (differing pixels in red)
///   are written beside the golden and the message names them with the number of differing
///   pixels, the largest difference and the PSNR. A later pass removes them.
///
/// ```swift
/// let thumbnail = try Thumbnailer(options: options).thumbnail(of: image)
/// assertImage(thumbnail.image, matchesGolden: "Goldens/cat-64.png")
/// ```
public func assertImage(_ image: Image, matchesGolden path: String, tolerance: Int = 0,
                        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: Int = #column) {
    guard let failure = GoldenImage(path, relativeTo: "\(filePath)").check(image, tolerance: tolerance) else { return }
    report(failure, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// `assertImage(_:matchesGolden:tolerance:)` for a thumbnail's pixels (the picture that was encoded).
public func assertImage(_ thumbnail: Thumbnail, matchesGolden path: String, tolerance: Int = 0,
                        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: Int = #column) {
    assertImage(thumbnail.image, matchesGolden: path, tolerance: tolerance, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// An issue in the Swift Testing test that is running, else an XCTest failure.
private func report(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: Int) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message),
                     sourceLocation: SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: column))
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
