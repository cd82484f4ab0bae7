/// A premultiplied-alpha RGBA bitmap with 32-bit float channels: the offscreen drawing surface.
///
/// Invariants:
/// - `pixels.count == width * height * 4`, row-major, y grows downward, channels red, green, blue,
///   alpha;
/// - colour channels are premultiplied by alpha (`0 <= c <= a <= 1` for anything drawn by ThumbKit);
/// - `light` says whether the colour channels are linear light or sRGB-encoded values.
///
/// Float channels keep 16-bit sources and linear-light filtering free of visible rounding; a bitmap
/// becomes 8-bit only when it is turned back into an `Image` for encoding.
public struct Bitmap: Sendable, Equatable {
    /// Columns, > 0.
    public let width: Int
    /// Rows, > 0.
    public let height: Int
    /// Whether `pixels` hold linear light or sRGB-encoded values.
    public let light: Bitmap.LightEncoding
    /// Premultiplied R G B A channels, row-major, each in [0, 1]. Read-only outside the package,
    /// so the count and the premultiplication invariant hold (draw with `Canvas`, or make a new
    /// bitmap with `init(width:height:light:pixels:)`).
    public package(set) var pixels: [Float]

    /// A fully transparent bitmap. `width` and `height` must be positive.
    public init(width: Int, height: Int, light: Bitmap.LightEncoding = .linear) {
        precondition(width > 0 && height > 0, "bitmap dimensions must be positive")
        self.width = width
        self.height = height
        self.light = light
        self.pixels = [Float](repeating: 0, count: width * height * 4)
    }

    /// Wraps premultiplied channels that already satisfy the invariants.
    public init(width: Int, height: Int, light: Bitmap.LightEncoding, pixels: [Float]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "bitmap size mismatch")
        self.width = width
        self.height = height
        self.light = light
        self.pixels = pixels
    }

    /// The premultiplied pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> SIMD4<Float> {
        get {
            let i = (y * width + x) * 4
            return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue[0]
            pixels[i + 1] = newValue[1]
            pixels[i + 2] = newValue[2]
            pixels[i + 3] = newValue[3]
        }
    }

    /// Fills every pixel with one colour.
    public mutating func fill(_ color: Color) {
        let p = color.premultiplied(in: light)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = p[0]; pixels[i + 1] = p[1]; pixels[i + 2] = p[2]; pixels[i + 3] = p[3]
        }
    }
}
