import Foundation
import Testing
import ThumbKit
import TestSupport

/// thumbgen against golden outputs from Pillow's float ('F') Lanczos resize, an independent
/// implementation of the same geometry (made by `Scripts/pillow_reference.py`, which feeds Pillow
/// premultiplied linear-light planes): within ±1 on every channel.
@Suite("Resampler vs Pillow goldens")
struct PillowReferenceTests {
    static let cases: [(String, Int, Int, Rect?)] = [
        ("cat-64x96", 64, 96, nil),
        ("cat-cover-100x100", 100, 100, Rect(x: 0, y: 80, width: 320, height: 320)),
        ("cat-crop-up-90x70", 90, 70, Rect(x: 100.25, y: 150.5, width: 60, height: 46.5)),
    ]

    @Test(arguments: cases)
    func matchesPillow(_ name: String, _ width: Int, _ height: Int, _ region: Rect?) throws {
        let root = Fixtures.tests
        let source = try PNGDecoder.decode(path: root.appendingPathComponent("Fixtures/photos/cat-rgba8.png").path)
        let golden = try PNGDecoder.decode(path: root.appendingPathComponent("Reference/pillow/\(name).png").path)
        let ours = Image(Resampler().resample(source, to: width, height: height, region: region))
        #expect(golden.width == width && golden.height == height)
        #expect(TestPatterns.maxDifference(ours.rgba8, golden.rgba8) <= 1)
    }
}
