import Testing
@testable import ThumbKit

@Suite struct CanvasImageTests {
    @Test func drawsAnImageScaledIntoARectangle() {
        // A 40×20 opaque red image drawn into a 10×5 rectangle at (3, 2) on a white canvas.
        let red = Image(width: 40, height: 20, rgba8: [UInt8](repeating: 0, count: 40 * 20 * 4).enumerated().map { $0.offset % 4 == 1 || $0.offset % 4 == 2 ? 0 : 255 })
        var canvas = Canvas(width: 16, height: 9)
        canvas.fill(rect: Rect(width: 16, height: 9), color: .white)
        canvas.draw(red, x: 3, y: 2, width: 10, height: 5)
        let out = Image(canvas.bitmap).rgba8
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(out[(y * 16 + x) * 4..<(y * 16 + x) * 4 + 4]) }
        #expect(pixel(3, 2) == [255, 0, 0, 255] && pixel(12, 6) == [255, 0, 0, 255], "inside the rectangle")
        #expect(pixel(2, 2) == [255, 255, 255, 255] && pixel(13, 6) == [255, 255, 255, 255], "outside it")
        #expect(pixel(3, 7) == [255, 255, 255, 255] && pixel(3, 1) == [255, 255, 255, 255])
    }

    @Test func drawingIsClippedAndMatchesTheResampler() {
        let image = Image(width: 8, height: 8, rgba8: (0..<256).map { UInt8(($0 * 37) % 256) })
        var canvas = Canvas(width: 4, height: 4)
        canvas.draw(image, x: 0, y: 0, width: 4, height: 4, kernel: .mitchell)
        #expect(canvas.bitmap == Resampler(kernel: .mitchell).resample(image, to: 4, height: 4))
        var clipped = Canvas(width: 4, height: 4)
        clipped.clip(to: .rectangle(x: 0, y: 0, width: 2, height: 4))
        clipped.draw(image, x: 0, y: 0, width: 4, height: 4)
        #expect(clipped.bitmap[3, 3] == SIMD4<Float>(0, 0, 0, 0), "outside the clip nothing is drawn")
        #expect(clipped.bitmap[1, 1] != SIMD4<Float>(0, 0, 0, 0))
    }
}
