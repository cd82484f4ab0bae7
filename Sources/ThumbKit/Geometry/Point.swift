/// A point in drawing space: `x` grows rightward, `y` grows downward, units are pixels at the
/// scale being drawn. Pixel (i, j) is the unit square [i, i+1] × [j, j+1], so pixel centres sit at
/// half-integer coordinates.
///
/// Coordinates are `Double` so that geometry (star vertices, arc flattening, half-plane clipping)
/// loses nothing visible before the rasterizer turns it into coverage.
public struct Point: Sendable, Hashable {
    /// Horizontal coordinate, pixels, growing rightward.
    public var x: Double
    /// Vertical coordinate, pixels, growing downward.
    public var y: Double

    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (0, 0): the top-left corner of pixel (0, 0).
    public static let zero = Point(x: 0, y: 0)
}
