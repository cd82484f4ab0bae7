/// An axis-aligned rectangle in drawing space (pixels, y down).
///
/// `width` and `height` may be zero (an empty rectangle covers nothing) but not negative.
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
}
