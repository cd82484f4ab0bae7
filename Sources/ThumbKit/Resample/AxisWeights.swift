/// The precomputed filter taps for one axis: for each output pixel, the first input pixel it reads,
/// how many it reads, and their normalised weights (Pillow `Resample.c`'s `precompute_coeffs`).
///
/// Geometry convention (pixel centres at integer + ½ in area coordinates, so pixel `j`'s centre is
/// at index coordinate `j`): mapping the span `[origin, origin + span)` of an axis of `inputSize`
/// pixels onto `outputSize` pixels, output pixel `i` is centred at input coordinate
///
///     centre(i) = origin + (i + 0.5) · span / outputSize − 0.5
///
/// With `scale = span / outputSize`, the kernel is stretched by `max(scale, 1)`: reducing averages
/// over each output pixel's whole footprint (support `3·scale` for Lanczos-3), enlarging
/// interpolates with the kernel at its natural width. Input pixel `j` gets weight
/// `k((j − centre) / max(scale, 1))` for `j` in `[ceil(centre − support), floor(centre + support)]`.
/// Taps outside `0..<inputSize` are dropped and the rest renormalised to sum to 1, which is the
/// same as extending the image by its own weighted average rather than by black or by mirroring.
/// Taps are not trimmed of zero weights, so `start` never decreases as `i` grows: the streaming
/// vertical pass relies on that.
struct AxisWeights: Sendable {
    let inputSize: Int
    let outputSize: Int
    /// First input pixel of each output pixel.
    let starts: [Int]
    /// Number of taps of each output pixel (at least 1).
    let counts: [Int]
    /// `outputSize * stride` weights; output `i` uses `weights[i * stride ..< i * stride + counts[i]]`
    /// and the slots after those up to the next output hold zeros.
    let weights: [Float]
    /// Slots per output pixel in `weights`: the largest count rounded up to a whole `tapBlock`, so
    /// the horizontal pass sums whole blocks of taps (a zero weight adds an exact zero).
    let stride: Int
    /// Taps are summed in blocks of this many: eight partial sums, one per position in the block.
    static let tapBlock = 8
    /// True when every output pixel copies exactly one input pixel with weight 1.
    let isIdentity: Bool

    init(inputSize: Int, outputSize: Int, origin: Double, span: Double, kernel: ResamplingKernel) {
        precondition(inputSize > 0 && outputSize > 0 && span > 0, "axis sizes must be positive")
        self.inputSize = inputSize
        self.outputSize = outputSize
        let scale = span / Double(outputSize)

        // An unscaled axis starting on a pixel boundary maps pixel for pixel. Evaluating the kernel
        // would give the same result only approximately (sin(πn) is not exactly 0 in floating
        // point), so it is a copy by construction.
        if scale == 1 && origin == origin.rounded() {
            let first = Int(origin)
            starts = (0..<outputSize).map { first + $0 }
            counts = [Int](repeating: 1, count: outputSize)
            weights = AxisWeights.singleTaps(outputSize)
            stride = AxisWeights.tapBlock
            isIdentity = true
            return
        }
        isIdentity = false

        let last = inputSize - 1
        if kernel == .nearest {
            // The source pixel whose area contains the output pixel's centre.
            starts = (0..<outputSize).map { i in
                let centre = origin + (Double(i) + 0.5) * scale
                return min(max(Int(centre.rounded(.down)), 0), last)
            }
            counts = [Int](repeating: 1, count: outputSize)
            weights = AxisWeights.singleTaps(outputSize)
            stride = AxisWeights.tapBlock
            return
        }

        let stretch = max(scale, 1)
        let support = kernel.support * stretch
        // Taps span [ceil(c − s), floor(c + s)]: at most floor(2s) + 1 of them.
        let maxTaps = AxisWeights.roundedToBlock(Int((2 * support).rounded(.down)) + 1)
        var starts = [Int](repeating: 0, count: outputSize)
        var counts = [Int](repeating: 0, count: outputSize)
        var weights = [Float](repeating: 0, count: outputSize * maxTaps)
        var taps = [Double](repeating: 0, count: maxTaps)
        for i in 0..<outputSize {
            let centre = origin + (Double(i) + 0.5) * scale - 0.5
            let low = max(Int((centre - support).rounded(.up)), 0)
            let high = min(Int((centre + support).rounded(.down)), last)
            var total = 0.0
            var count = 0
            if low <= high {
                count = high - low + 1
                for k in 0..<count {
                    let w = kernel.weight((Double(low + k) - centre) / stretch)
                    taps[k] = w
                    total += w
                }
            }
            if count == 0 || total == 0 {
                // Only reachable at the very edge with a narrow kernel: fall back to the nearest pixel.
                starts[i] = min(max(Int(centre.rounded()), 0), last)
                counts[i] = 1
                weights[i * maxTaps] = 1
                continue
            }
            starts[i] = low
            counts[i] = count
            for k in 0..<count {
                weights[i * maxTaps + k] = Float(taps[k] / total)
            }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.stride = maxTaps
    }

    /// Whole blocks of `tapBlock` that hold `taps` taps.
    static func blockCount(_ taps: Int) -> Int {
        (taps + tapBlock - 1) / tapBlock
    }

    private static func roundedToBlock(_ taps: Int) -> Int {
        blockCount(taps) * tapBlock
    }

    /// One tap of weight 1 per output pixel, padded to whole blocks.
    private static func singleTaps(_ outputSize: Int) -> [Float] {
        var weights = [Float](repeating: 0, count: outputSize * tapBlock)
        for i in 0..<outputSize { weights[i * tapBlock] = 1 }
        return weights
    }

    /// The input pixels any output pixel reads: `lowestTap ..< endTap`. Whole blocks of taps may
    /// reach up to `tapBlock - 1` pixels past `endTap` (with zero weights).
    var lowestTap: Int { starts.first ?? 0 }
    var endTap: Int {
        var end = 0
        for i in 0..<outputSize { end = max(end, starts[i] + counts[i]) }
        return end
    }

    /// Rows of horizontally filtered input a streaming vertical pass must keep: for each output
    /// row, the distance from its first tap back to the furthest row read so far.
    var windowSize: Int {
        var furthest = 0
        var window = 1
        for i in 0..<outputSize {
            furthest = max(furthest, starts[i] + counts[i])
            window = max(window, furthest - starts[i])
        }
        return window
    }
}
