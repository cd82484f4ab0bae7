/// A rectangle of the source image, in source pixel units, that a `Resampler` maps onto the whole
/// output. Edges may be fractional (a `cover` crop rarely falls on pixel boundaries).
///
/// Coordinates follow the pixel-area convention: pixel `(i, j)` covers `[i, i+1) × [j, j+1)`, so the
/// whole image is `(0, 0, width, height)`. Invariants (checked by the resampler): `width > 0`,
/// `height > 0`, and the rectangle lies inside the image.
public struct SourceRegion: Sendable, Hashable {
    /// Left edge, in source pixels from the image's left edge.
    public var x: Double
    /// Top edge, in source pixels from the image's top edge.
    public var y: Double
    /// Width in source pixels.
    public var width: Double
    /// Height in source pixels.
    public var height: Double

    /// A region with the given origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of a `width` × `height` image.
    public init(width: Int, height: Int) {
        self.init(x: 0, y: 0, width: Double(width), height: Double(height))
    }

    /// True when the region is exactly the whole of a `width` × `height` image.
    public func isWhole(width: Int, height: Int) -> Bool {
        x == 0 && y == 0 && self.width == Double(width) && self.height == Double(height)
    }

    /// True when the region lies inside a `width` × `height` image and is not empty. The far edges
    /// may overshoot by a millionth of a pixel: `x + width` computed in floating point can land one
    /// ulp past the image edge for an exactly aligned crop (tap ranges are clamped to the image).
    func fits(width: Int, height: Int) -> Bool {
        let slack = 1e-6
        return x >= 0 && y >= 0 && self.width > 0 && self.height > 0
            && x + self.width <= Double(width) + slack && y + self.height <= Double(height) + slack
    }
}
