/// A drawing context over a `Bitmap`: fills paths with exact anti-aliasing, clips, masks and
/// composites bitmaps.
///
/// Compositing is Porter–Duff source-over on premultiplied pixels, in the bitmap's own light
/// encoding (linear light for `.linear` bitmaps: physically right edges; encoded values for
/// `.sRGB`). A colour drawn with coverage c contributes `c × premultiplied(colour)`. When a clip
/// is set, coverage is multiplied by the clip's value at each pixel before compositing.
///
/// A value type: copying a canvas copies its bitmap and clip.
public struct Canvas: Sendable {
    /// The pixels drawn so far.
    public private(set) var bitmap: Bitmap
    /// The current clip, or nil when drawing is unclipped.
    package private(set) var clip: CoverageMask?

    /// A canvas drawing onto `bitmap`.
    public init(bitmap: Bitmap) {
        self.bitmap = bitmap
    }

    /// A canvas over a new, fully transparent bitmap.
    public init(width: Int, height: Int, light: Bitmap.LightEncoding = .linear) {
        self.bitmap = Bitmap(width: width, height: height, light: light)
    }

    /// Width in pixels.
    public var width: Int { bitmap.width }
    /// Height in pixels.
    public var height: Int { bitmap.height }

    /// The exact coverage of `path` on this canvas's pixel grid (not clipped).
    package func coverage(of path: Path, rule: Path.FillRule = .nonZero) -> CoverageMask {
        CoverageMask(path: path, width: width, height: height, rule: rule)
    }

    /// Fills `path` under `rule` with `color`, composited source-over.
    public mutating func fill(_ path: Path, color: Color, rule: Path.FillRule = .nonZero) {
        fill(coverage(of: path, rule: rule), color: color)
    }

    /// Fills a rectangle with `color`; edges off the pixel grid are anti-aliased exactly.
    public mutating func fill(rect: Rect, color: Color) {
        fill(Path.rectangle(rect), color: color)
    }

    /// Composites `color` scaled by the mask's coverage (and the clip) at every pixel.
    package mutating func fill(_ mask: CoverageMask, color: Color) {
        fill(regions: [(mask, color)])
    }

    /// Fills several regions that do not overlap in one compositing step: each pixel receives
    /// Σ coverageᵢ × colourᵢ, composited source-over once.
    ///
    /// Filling abutting regions one after another leaves a faint seam (or a darkened rim where a
    /// ring meets a disc), because a pixel half-covered twice is composited as 1 − ½·½ = ¾
    /// covered. Summing area-weighted colours of disjoint regions is exact: a pixel split between
    /// two colours gets each in proportion to its area. The regions' coverages at a pixel must sum
    /// to at most 1 (true when their shapes are disjoint).
    package mutating func fill(regions: [(mask: CoverageMask, color: Color)]) {
        guard !regions.isEmpty else { return }
        for region in regions {
            precondition(region.mask.width == width && region.mask.height == height, "mask size differs from canvas")
        }
        let colors = regions.map { $0.color.premultiplied(in: bitmap.light) }
        let count = width * height
        let clipValues = clip?.values
        if regions.count == 1 {
            // The common case (one path, one colour) composites straight from the mask.
            var mask = regions[0].mask
            if let clip { mask = mask.multiplied(by: clip) }
            let (r, g, b, a) = (colors[0][0], colors[0][1], colors[0][2], colors[0][3])
            mask.values.withUnsafeBufferPointer { m in
                bitmap.pixels.withUnsafeMutableBufferPointer { d in
                    for i in 0..<count {
                        let k = m[i]
                        if k == 0 { continue }
                        let keep = 1 - a * k
                        let di = 4 * i
                        d[di] = r * k + d[di] * keep
                        d[di + 1] = g * k + d[di + 1] * keep
                        d[di + 2] = b * k + d[di + 2] * keep
                        d[di + 3] = a * k + d[di + 3] * keep
                    }
                }
            }
            return
        }
        var source = [SIMD4<Float>](repeating: .zero, count: count)
        for (index, region) in regions.enumerated() {
            let c = colors[index]
            region.mask.values.withUnsafeBufferPointer { m in
                source.withUnsafeMutableBufferPointer { s in
                    for i in 0..<count where m[i] > 0 { s[i] += c * m[i] }
                }
            }
        }
        if let clipValues {
            for i in 0..<count { source[i] *= clipValues[i] }
        }
        compositeOver(source)
    }

    /// Restricts later drawing to `path`: the clip becomes the product of the old clip and the
    /// path's coverage.
    public mutating func clip(to path: Path, rule: Path.FillRule = .nonZero) {
        clip(to: coverage(of: path, rule: rule))
    }

    /// Restricts later drawing by a mask (multiplied into any existing clip).
    package mutating func clip(to mask: CoverageMask) {
        precondition(mask.width == width && mask.height == height, "mask size differs from canvas")
        clip = clip.map { $0.multiplied(by: mask) } ?? mask
    }

    /// Removes the clip.
    public mutating func resetClip() {
        clip = nil
    }

    /// Multiplies every pixel already drawn by the path's coverage: transparent outside the path,
    /// untouched well inside, exact partial alpha along its edge. This is how thumbnails get
    /// rounded corners.
    public mutating func mask(by path: Path, rule: Path.FillRule = .nonZero) {
        mask(by: coverage(of: path, rule: rule))
    }

    /// Multiplies every pixel already drawn by the mask's coverage.
    package mutating func mask(by mask: CoverageMask) {
        precondition(mask.width == width && mask.height == height, "mask size differs from canvas")
        let count = width * height
        mask.values.withUnsafeBufferPointer { m in
            bitmap.pixels.withUnsafeMutableBufferPointer { p in
                for i in 0..<count {
                    let k = m[i]
                    p[4 * i] *= k; p[4 * i + 1] *= k; p[4 * i + 2] *= k; p[4 * i + 3] *= k
                }
            }
        }
    }

    /// Composites `source` source-over with its top-left pixel at (`x`, `y`); parts falling off the
    /// canvas are dropped. Both bitmaps must have the same light encoding.
    public mutating func draw(_ source: Bitmap, at x: Int, y: Int) {
        precondition(source.light == bitmap.light, "bitmaps must share a light encoding")
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + source.width), y1 = min(height, y + source.height)
        guard x0 < x1 && y0 < y1 else { return }
        let w = width
        let clipValues = clip?.values
        source.pixels.withUnsafeBufferPointer { s in
            bitmap.pixels.withUnsafeMutableBufferPointer { d in
                for row in y0..<y1 {
                    for col in x0..<x1 {
                        let si = ((row - y) * source.width + (col - x)) * 4
                        let di = (row * w + col) * 4
                        var src = SIMD4(s[si], s[si + 1], s[si + 2], s[si + 3])
                        if let clipValues { src *= clipValues[row * w + col] }
                        let keep = 1 - src[3]
                        d[di] = src[0] + d[di] * keep
                        d[di + 1] = src[1] + d[di + 1] * keep
                        d[di + 2] = src[2] + d[di + 2] * keep
                        d[di + 3] = src[3] + d[di + 3] * keep
                    }
                }
            }
        }
    }

    /// Composites everything drawn over an opaque `background` (its alpha is taken as 1), leaving
    /// every pixel opaque. Ignores the clip.
    public mutating func flatten(onto background: Color) {
        var opaque = background
        opaque.alpha = 255
        let b = opaque.premultiplied(in: bitmap.light)
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let keep = 1 - p[i + 3]
                p[i] += b[0] * keep
                p[i + 1] += b[1] * keep
                p[i + 2] += b[2] * keep
                p[i + 3] = 1
            }
        }
    }

    /// Source-over of premultiplied per-pixel colours.
    private mutating func compositeOver(_ source: [SIMD4<Float>]) {
        source.withUnsafeBufferPointer { s in
            bitmap.pixels.withUnsafeMutableBufferPointer { d in
                for i in 0..<s.count {
                    let src = s[i]
                    if src[3] == 0 && src[0] == 0 && src[1] == 0 && src[2] == 0 { continue }
                    let keep = 1 - src[3]
                    let di = 4 * i
                    d[di] = src[0] + d[di] * keep
                    d[di + 1] = src[1] + d[di + 1] * keep
                    d[di + 2] = src[2] + d[di + 2] * keep
                    d[di + 3] = src[3] + d[di + 3] * keep
                }
            }
        }
    }
}
