/// An axis-aligned rectangle in pixel units, y down: a shape's bounds in drawing space, or the part
/// of a source image that a `Resampler` maps onto its whole output.
///
/// Coordinates follow the pixel-area convention: pixel `(i, j)` covers `[i, i+1) × [j, j+1)`, so
/// the whole of a `w` × `h` image is `(0, 0, w, h)`. Edges may be fractional (a `cover` crop rarely
/// falls on pixel boundaries). `width` and `height` may be zero (an empty rectangle covers nothing)
/// but not negative.
public struct Rect: Sendable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Extent rightward from `x`, >= 0.
    public var width: Double
    /// Extent downward from `y`, >= 0.
    public var height: Double

    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        precondition(width >= 0 && height >= 0, "rectangle extents must not be negative")
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle covering whole pixels `0..<width` × `0..<height`.
    public init(width: Int, height: Int) {
        self.init(x: 0, y: 0, width: Double(width), height: Double(height))
    }

    /// Right edge, `x + width`.
    public var maxX: Double { x + width }
    /// Bottom edge, `y + height`.
    public var maxY: Double { y + height }

    /// True when the rectangle is exactly the whole of a `width` × `height` image.
    public func isWhole(width: Int, height: Int) -> Bool {
        x == 0 && y == 0 && self.width == Double(width) && self.height == Double(height)
    }

    /// True when the rectangle lies inside a `width` × `height` image and is not empty. The far
    /// edges may overshoot by a millionth of a pixel: `x + width` computed in floating point can
    /// land one ulp past the image edge for an exactly aligned crop (tap ranges are clamped to the
    /// image).
    func fits(width: Int, height: Int) -> Bool {
        let slack = 1e-6
        return x >= 0 && y >= 0 && self.width > 0 && self.height > 0
            && x + self.width <= Double(width) + slack && y + self.height <= Double(height) + slack
    }
}
