/// Compositing one finished 8-bit image onto another, as an app lays an image view over a picture:
/// what a rating badge and a contact sheet's captions are drawn with.
extension Image {
    /// This image with `overlay` composited source-over, its top-left pixel at (`x`, `y`), in
    /// linear light; parts falling off this image are dropped. Pixels the overlay leaves fully
    /// transparent keep their samples exactly (no round trip through float).
    package func compositing(_ overlay: Image, x: Int, y: Int) -> Image {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + overlay.width), y1 = min(height, y + overlay.height)
        guard x0 < x1 && y0 < y1 else { return self }
        let regionWidth = x1 - x0, regionHeight = y1 - y0
        var samples = converted8().rgba8
        let top = overlay.converted8().rgba8
        var under = [UInt8](repeating: 0, count: regionWidth * regionHeight * 4)
        var over = under
        for row in 0..<regionHeight {
            let from = ((y0 + row) * width + x0) * 4, fromTop = ((y0 - y + row) * overlay.width + (x0 - x)) * 4
            under.replaceSubrange(row * regionWidth * 4 ..< (row + 1) * regionWidth * 4, with: samples[from ..< from + regionWidth * 4])
            over.replaceSubrange(row * regionWidth * 4 ..< (row + 1) * regionWidth * 4, with: top[fromTop ..< fromTop + regionWidth * 4])
        }
        var canvas = Canvas(bitmap: Bitmap(Image(width: regionWidth, height: regionHeight, rgba8: under), light: .linear))
        canvas.draw(Bitmap(Image(width: regionWidth, height: regionHeight, rgba8: over), light: .linear), at: 0, y: 0)
        let composited = Image(canvas.bitmap).rgba8
        for row in 0..<regionHeight {
            for column in 0..<regionWidth where over[(row * regionWidth + column) * 4 + 3] != 0 {
                let source = (row * regionWidth + column) * 4, target = ((y0 + row) * width + x0 + column) * 4
                samples.replaceSubrange(target ..< target + 4, with: composited[source ..< source + 4])
            }
        }
        return Image(width: width, height: height, rgba8: samples)
    }
}
