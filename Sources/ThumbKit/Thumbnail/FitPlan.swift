/// Where a thumbnail's pixels come from and where they go, computed from sizes alone (no pixels).
///
/// Apply it by resampling `region` of the source to `width` × `height`, then (for `contain`) drawing
/// that at (`x`, `y`) on a `canvasWidth` × `canvasHeight` canvas. For other modes the canvas is the
/// output itself and (`x`, `y`) is (0, 0).
///
/// Sizes are exact integer arithmetic: `inside` scales the limiting side to the box side and rounds
/// the other half up (`(2·a·b + c) / (2·c)`), at least 1.
///
/// When the `ThumbnailSize.ScaleRule` forbids the scaling a mode would need:
/// - `inside`, `contain`: the image keeps the source size (`contain` still centres it on the box,
///   or on the source size if that is larger);
/// - `fill`: each axis independently keeps the source side where it would otherwise grow (or shrink);
/// - `cover`: the output is the largest integer rectangle with the box's aspect ratio (rounded half
///   up) that fits in the source, cut out at the gravity position on whole pixels, unscaled — so a
///   small source still gets the box's shape without being blown up or blurred.
package struct FitPlan: Sendable, Hashable {
    /// Width of the resampled image in pixels.
    package let width: Int
    /// Height of the resampled image in pixels.
    package let height: Int
    /// The part of the source mapped onto the resampled image, in source pixels; may be fractional
    /// for `cover`.
    package let region: Rect
    /// Width of the final canvas (the box for `contain`, else `width`).
    package let canvasWidth: Int
    /// Height of the final canvas (the box for `contain`, else `height`).
    package let canvasHeight: Int
    /// Left edge of the image on the canvas.
    package let x: Int
    /// Top edge of the image on the canvas.
    package let y: Int

    /// The largest source or box side a plan takes (2^24, PNG decoding's dimension limit): keeps
    /// every integer product in the plan exact.
    package static let maximumSide = 1 << 24

    /// Plans fitting a `sourceWidth` × `sourceHeight` image to a `boxWidth` × `boxHeight` box.
    /// All sizes must be positive and at most 2^24 (PNG decoding's dimension limit; keeps the
    /// integer products exact).
    package init(sourceWidth: Int, sourceHeight: Int, boxWidth: Int, boxHeight: Int,
                mode: FitMode = .inside, gravity: Gravity = .centre, scale: ThumbnailSize.ScaleRule = .shrinkOnly) {
        let limit = FitPlan.maximumSide
        precondition((1...limit).contains(sourceWidth) && (1...limit).contains(sourceHeight)
                     && (1...limit).contains(boxWidth) && (1...limit).contains(boxHeight),
                     "fit sizes must be 1...2^24")
        let w = sourceWidth, h = sourceHeight, bw = boxWidth, bh = boxHeight
        let whole = Rect(width: w, height: h)
        let fitsInBox = w <= bw && h <= bh
        // Would this mode's scaling enlarge or shrink the source?
        func allowed(enlarges: Bool, shrinks: Bool) -> Bool {
            switch scale {
            case .any: return true
            case .shrinkOnly: return !enlarges
            case .enlargeOnly: return !shrinks
            }
        }

        switch mode {
        case .inside, .contain:
            var size = FitPlan.insideSize(w, h, bw, bh)
            if !allowed(enlarges: fitsInBox && (size.0 > w || size.1 > h), shrinks: !fitsInBox) {
                size = (w, h)
            }
            let region = whole
            if mode == .inside {
                self.init(size.0, size.1, region, size.0, size.1, 0, 0)
            } else {
                let cw = max(bw, size.0), ch = max(bh, size.1)
                let (hn, hd) = gravity.horizontal, (vn, vd) = gravity.vertical
                self.init(size.0, size.1, region, cw, ch, (cw - size.0) * hn / hd, (ch - size.1) * vn / vd)
            }
        case .fill:
            func side(_ source: Int, _ box: Int) -> Int {
                allowed(enlarges: box > source, shrinks: box < source) ? box : source
            }
            let fw = side(w, bw), fh = side(h, bh)
            self.init(fw, fh, whole, fw, fh, 0, 0)
        case .cover:
            // Source relatively wider than the box (w/h ≥ bw/bh): full height, cropped width.
            let wider = w * bh >= h * bw
            let (hn, hd) = gravity.horizontal, (vn, vd) = gravity.vertical
            // The cover scale is max(bw/w, bh/h); it enlarges when either side is short.
            let enlarges = w < bw || h < bh
            let shrinks = w > bw && h > bh
            if allowed(enlarges: enlarges, shrinks: shrinks) {
                let region: Rect
                if wider {
                    let rw = Double(h) * Double(bw) / Double(bh)
                    region = Rect(x: (Double(w) - rw) * Double(hn) / Double(hd), y: 0, width: rw, height: Double(h))
                } else {
                    let rh = Double(w) * Double(bh) / Double(bw)
                    region = Rect(x: 0, y: (Double(h) - rh) * Double(vn) / Double(vd), width: Double(w), height: rh)
                }
                self.init(bw, bh, region, bw, bh, 0, 0)
            } else {
                let cw = wider ? max(1, min(w, FitPlan.roundedRatio(h, bw, bh))) : w
                let ch = wider ? h : max(1, min(h, FitPlan.roundedRatio(w, bh, bw)))
                let region = Rect(x: Double((w - cw) * hn / hd), y: Double((h - ch) * vn / vd),
                                          width: Double(cw), height: Double(ch))
                self.init(cw, ch, region, cw, ch, 0, 0)
            }
        }
    }

    /// Plans a fit from a parsed size; `gravity` anchors `cover` crops and `contain` placement.
    package init(sourceWidth: Int, sourceHeight: Int, size: ThumbnailSize, gravity: Gravity = .centre) {
        self.init(sourceWidth: sourceWidth, sourceHeight: sourceHeight, boxWidth: size.width,
                  boxHeight: size.height, mode: size.mode, gravity: gravity, scale: size.scale)
    }

    /// Plans a fit that never enlarges unless `enlarge` is true (then it scales either way).
    package init(sourceWidth: Int, sourceHeight: Int, boxWidth: Int, boxHeight: Int, mode: FitMode,
                gravity: Gravity = .centre, enlarge: Bool) {
        self.init(sourceWidth: sourceWidth, sourceHeight: sourceHeight, boxWidth: boxWidth,
                  boxHeight: boxHeight, mode: mode, gravity: gravity, scale: enlarge ? .any : .shrinkOnly)
    }

    private init(_ width: Int, _ height: Int, _ region: Rect, _ canvasWidth: Int, _ canvasHeight: Int,
                 _ x: Int, _ y: Int) {
        self.width = width
        self.height = height
        self.region = region
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.x = x
        self.y = y
    }

    /// The plan at `scale`: the same region of the source, every size exactly `scale` times this
    /// plan's (rounded half up), and `contain`'s placement worked out again on the scaled canvas by
    /// `gravity`, as at @1x. `@Nx` outputs are made this way, so they are always N times the @1x.
    package func scaled(by scale: Scale, gravity: Gravity = .centre) -> FitPlan {
        guard scale != .one else { return self }
        let w = scale.apply(to: width), h = scale.apply(to: height)
        // A canvas that is the image itself stays so; a larger one (contain) scales on its own.
        let cw = canvasWidth == width ? w : max(w, scale.apply(to: canvasWidth))
        let ch = canvasHeight == height ? h : max(h, scale.apply(to: canvasHeight))
        let (hn, hd) = gravity.horizontal, (vn, vd) = gravity.vertical
        return FitPlan(w, h, region, cw, ch, (cw - w) * hn / hd, (ch - h) * vn / vd)
    }

    /// True when the resampled image has more pixels than the region of the source it shows, on
    /// either axis: the plan enlarges.
    package var enlarges: Bool {
        Double(width) > region.width + 1e-9 || Double(height) > region.height + 1e-9
    }

    /// True when the plan copies the whole source unscaled: resampling can be skipped.
    package func isIdentity(sourceWidth: Int, sourceHeight: Int) -> Bool {
        width == sourceWidth && height == sourceHeight && region.isWhole(width: sourceWidth, height: sourceHeight)
    }

    /// `a · b / c` rounded half up, exactly.
    static func roundedRatio(_ a: Int, _ b: Int, _ c: Int) -> Int {
        (2 * a * b + c) / (2 * c)
    }

    /// The aspect-fit size of `w` × `h` in `bw` × `bh`: the limiting side equals the box side.
    static func insideSize(_ w: Int, _ h: Int, _ bw: Int, _ bh: Int) -> (Int, Int) {
        if w * bh >= h * bw {
            return (bw, max(1, roundedRatio(h, bw, w)))
        }
        return (max(1, roundedRatio(w, bh, h)), bh)
    }
}
