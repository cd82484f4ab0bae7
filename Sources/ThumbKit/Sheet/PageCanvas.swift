/// A sheet page's 8-bit pixels at one scale, filled with the background, which many workers write
/// at once, each into its own tile.
///
/// The pixels are in memory the page owns rather than in a Swift array: workers on several
/// threads write into disjoint tiles of it, which an array's copy-on-write storage cannot be
/// shared for.
final class PageCanvas: @unchecked Sendable {
    let width: Int
    let height: Int
    private var pixels: UnsafeMutableBufferPointer<UInt8>?

    /// A page of `background` (transparent when nil).
    init(width: Int, height: Int, background: Color?) {
        self.width = width
        self.height = height
        let pixels = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * height * 4)
        let fill: [UInt8] = background.map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? [0, 0, 0, 0]
        if fill.allSatisfy({ $0 == fill[0] }) {
            pixels.initialize(repeating: fill[0])
        } else {
            for i in stride(from: 0, to: pixels.count, by: 4) {
                pixels[i] = fill[0]; pixels[i + 1] = fill[1]; pixels[i + 2] = fill[2]; pixels[i + 3] = fill[3]
            }
        }
        self.pixels = pixels
    }

    deinit { pixels?.deallocate() }

    /// The finished page as an image; the canvas's own memory is released.
    func finish() -> Image {
        let pixels = self.pixels!
        let image = Image(width: width, height: height, rgba8: Array(pixels))
        pixels.deallocate()
        self.pixels = nil
        return image
    }

    /// Replaces the pixels under `image` (placed at `x`, `y`, clipped to the page) with it.
    func copy(_ image: Image, x: Int, y: Int) {
        let samples = image.converted8().rgba8
        let x0 = max(0, x), x1 = min(width, x + image.width)
        guard x0 < x1, let pixels else { return }
        for row in max(0, y) ..< min(height, y + image.height) {
            let from = ((row - y) * image.width + (x0 - x)) * 4, to = (row * width + x0) * 4
            samples.withUnsafeBufferPointer { source in
                _ = UnsafeMutableBufferPointer(rebasing: pixels[to ..< to + (x1 - x0) * 4])
                    .update(fromContentsOf: source[from ..< from + (x1 - x0) * 4])
            }
        }
    }

    /// Composites `image` over the pixels under it (`Image.compositing`).
    func composite(_ image: Image, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1 && y0 < y1, let pixels else { return }
        var under: [UInt8] = []
        under.reserveCapacity((x1 - x0) * (y1 - y0) * 4)
        for row in y0 ..< y1 { under += pixels[(row * width + x0) * 4 ..< (row * width + x1) * 4] }
        copy(Image(width: x1 - x0, height: y1 - y0, rgba8: under).compositing(image, x: x - x0, y: y - y0), x: x0, y: y0)
    }
}
