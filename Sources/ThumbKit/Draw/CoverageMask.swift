/// Per-pixel coverage in [0, 1]: how much of each pixel square a shape covers.
///
/// Invariants: `values.count == width * height`, row-major, y down, every value in [0, 1].
/// Value (x, y) is the area of the shape inside the unit square [x, x+1] × [y, y+1]. Masks are
/// built once and reused: as a clip, to cut a bitmap's corners, or to fill several colours.
package struct CoverageMask: Sendable, Equatable {
    /// Columns, > 0.
    package let width: Int
    /// Rows, > 0.
    package let height: Int
    /// Coverage per pixel, row-major.
    package private(set) var values: [Float]

    /// A mask with every pixel set to `value` (0: covers nothing; 1: covers everything).
    package init(width: Int, height: Int, value: Float = 0) {
        precondition(width > 0 && height > 0, "mask dimensions must be positive")
        precondition(value >= 0 && value <= 1, "coverage is in [0, 1]")
        self.width = width
        self.height = height
        self.values = [Float](repeating: value, count: width * height)
    }

    /// The exact coverage of `path` under `rule`, over pixels `0..<width` × `0..<height`.
    ///
    /// Each value is the area of the filled region inside the pixel square, exact up to float
    /// rounding (well within 1/255); geometry outside the mask is ignored.
    package init(path: Path, width: Int, height: Int, rule: Path.FillRule = .nonZero) {
        self.init(width: width, height: height)
        var rasterizer = Rasterizer(width: width, height: height)
        rasterizer.rasterize(path, rule: rule, into: &values)
    }

    init(width: Int, height: Int, values: [Float]) {
        precondition(width > 0 && height > 0 && values.count == width * height, "mask size mismatch")
        self.width = width
        self.height = height
        self.values = values
    }

    /// The coverage of pixel (`x`, `y`).
    package subscript(x: Int, y: Int) -> Float {
        values[y * width + x]
    }

    /// The pixelwise product with `other` (same size): the usual way masks combine as clips.
    ///
    /// A product is not the coverage of the intersection of two shapes at pixels both cut; to
    /// intersect shapes exactly, cut the geometry (`Path.clipped(to:)`) instead.
    package func multiplied(by other: CoverageMask) -> CoverageMask {
        precondition(width == other.width && height == other.height, "mask sizes differ")
        var out = values
        for i in out.indices { out[i] *= other.values[i] }
        return CoverageMask(width: width, height: height, values: out)
    }
}
