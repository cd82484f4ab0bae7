/// The two separable passes of a `Resampler`, fed one source row at a time.
///
/// Each source row that some output row still needs is converted to premultiplied float (in the
/// chosen light) and filtered horizontally into a ring of `window` rows of output width; as soon as
/// the ring holds every row an output row reads, the vertical pass writes that output row. Memory is
/// O(window × output width) plus one source row, whatever the source height. Rows before the
/// first tap of the next output row are skipped without conversion or filtering.
import CThumbKernels

struct ResampleEngine {
    private let columns: AxisWeights
    private let rows: AxisWeights
    private let light: Bitmap.LightEncoding
    private let window: Int
    private let outputWidth: Int
    /// The next source row the engine expects (pushed or skipped).
    private(set) var nextSourceRow = 0
    /// The next output row to be written.
    private(set) var nextOutputRow = 0
    /// The source row `push(row:)` converts, for the engine's own use (several engines fed one
    /// `ConvertedRow` share theirs instead).
    private var scratch: ConvertedRow
    /// Whole blocks of taps per output pixel.
    private let blocks: [Int]
    /// Each output pixel's alpha after the horizontal pass over an opaque row: its weights summed
    /// as `convolve` sums a channel that is 1 everywhere (`1 * w` is exactly `w`).
    private let opaqueAlphas: [Float]
    /// `window` horizontally filtered rows; source row `y` lives in slot `y % window`.
    private var ring: [SIMD4<Float>]
    /// The finished rows, premultiplied, channels clamped to `0 ≤ c ≤ a ≤ 1`.
    private(set) var output: [Float]
    private let firstColumn: Int
    private let endColumn: Int
    /// The horizontal pass runs in C with AVX2 when the CPU has it: the same multiplies and adds
    /// in the same order as `convolve` (see thumbkernels.h), eight lanes at a time.
    static let hasVectorConvolve = tk_convolve_available() != 0
    /// Tests turn the vector pass off to check that both give the same bits.
    private let usesVectorConvolve: Bool

    init(columns: AxisWeights, rows: AxisWeights, light: Bitmap.LightEncoding,
         vectorConvolve: Bool = ResampleEngine.hasVectorConvolve) {
        precondition(!vectorConvolve || ResampleEngine.hasVectorConvolve, "the CPU has no AVX2")
        self.columns = columns
        self.rows = rows
        self.light = light
        self.window = rows.windowSize
        self.outputWidth = columns.outputSize
        self.firstColumn = columns.lowestTap
        self.endColumn = columns.endTap
        usesVectorConvolve = vectorConvolve
        blocks = columns.counts.map(AxisWeights.blockCount)
        opaqueAlphas = ResampleEngine.summedWeights(columns, blocks: blocks)
        scratch = ConvertedRow(width: columns.inputSize)
        ring = [SIMD4<Float>](repeating: .zero, count: window * columns.outputSize)
        output = [Float](repeating: 0, count: columns.outputSize * rows.outputSize * 4)
    }

    /// True once every output row is written; the source need not be read further.
    var isFinished: Bool { nextOutputRow == rows.outputSize }

    /// Whether the next source row feeds an output row still to come. Tap starts never decrease,
    /// so a row before the next output row's first tap is never needed again.
    var needsNextRow: Bool { !isFinished && nextSourceRow >= rows.starts[nextOutputRow] }

    /// Passes over a source row that `needsNextRow` said is not needed.
    mutating func skipRow() {
        nextSourceRow += 1
    }

    /// Consumes the next source row of 8-bit straight sRGB samples: RGBA, or RGB (opaque) when
    /// `channels` is 3.
    mutating func push(row: UnsafeBufferPointer<UInt8>, channels: Int = 4) {
        scratch.load(row, channels: channels, columns: firstColumn..<endColumn, light: light, planar: usesVectorConvolve)
        push(scratch)
    }

    /// The columns of a source row the horizontal pass reads.
    var columnRange: Range<Int> { firstColumn..<endColumn }

    /// Whether the engine may take the planar vector pass (`ConvertedRow.load(planar:)`).
    var takesPlanes: Bool { usesVectorConvolve }

    /// Consumes the next source row, already converted (over at least `columnRange`, in the
    /// engine's light): the planar vector pass for planes, else the RGBA pass. Both give the same
    /// bits, so engines fed one row converted for all of them give what each would alone.
    mutating func push(_ row: ConvertedRow) {
        if row.isPlanar {
            row.planes.withUnsafeBufferPointer { filterPlanes($0) }
        } else {
            row.pixels.withUnsafeBufferPointer { filterConvertedRow($0) }
        }
    }

    /// The planar vector pass over the planes into the ring, then every output row that has
    /// become complete.
    private mutating func filterPlanes(_ planes: UnsafeBufferPointer<Float>) {
        let length = planes.count / 3
        let slot = nextSourceRow % window
        let width = outputWidth
        do {
            let red = planes.baseAddress!, green = red + length, blue = green + length
            ring.withUnsafeMutableBufferPointer { ringBuffer in
                columns.starts.withUnsafeBufferPointer { starts in
                    blocks.withUnsafeBufferPointer { blocks in
                        columns.weights.withUnsafeBufferPointer { weights in
                            opaqueAlphas.withUnsafeBufferPointer { alphas in
                                UnsafeMutableRawPointer(ringBuffer.baseAddress! + slot * width).withMemoryRebound(
                                    to: Float.self, capacity: width * 4) { destination in
                                    tk_convolve_rgb_planes(red, green, blue, starts.baseAddress!, blocks.baseAddress!,
                                                           weights.baseAddress!, columns.stride, alphas.baseAddress!,
                                                           width, destination)
                                }
                            }
                        }
                    }
                }
            }
        }
        finishRow()
    }

    /// Consumes the next source row of 16-bit straight sRGB samples: RGBA, or RGB (opaque) when
    /// `channels` is 3.
    mutating func push(row: UnsafeBufferPointer<UInt16>, channels: Int = 4) {
        scratch.load(row, channels: channels, columns: firstColumn..<endColumn, light: light, planar: usesVectorConvolve)
        push(scratch)
    }

    /// Horizontal pass into the ring, then every output row that has become complete.
    private mutating func filterConvertedRow(_ source: UnsafeBufferPointer<SIMD4<Float>>) {
        let slot = nextSourceRow % window
        let width = outputWidth
        let vector = usesVectorConvolve
        do {
            ring.withUnsafeMutableBufferPointer { ringBuffer in
                columns.starts.withUnsafeBufferPointer { starts in
                    blocks.withUnsafeBufferPointer { blocks in
                        columns.weights.withUnsafeBufferPointer { weights in
                            let destination = ringBuffer.baseAddress! + slot * width
                            if vector {
                                UnsafeRawPointer(source.baseAddress!).withMemoryRebound(
                                    to: Float.self, capacity: source.count * 4) { sourceFloats in
                                    UnsafeMutableRawPointer(destination).withMemoryRebound(
                                        to: Float.self, capacity: width * 4) { destinationFloats in
                                        tk_convolve_rgba(sourceFloats, starts.baseAddress!, blocks.baseAddress!,
                                                         weights.baseAddress!, columns.stride, width, destinationFloats)
                                    }
                                }
                                return
                            }
                            ResampleEngine.convolve(source: source.baseAddress!, starts: starts.baseAddress!,
                                                    blocks: blocks.baseAddress!, weights: weights.baseAddress!,
                                                    stride: columns.stride, outputCount: width,
                                                    into: destination)
                        }
                    }
                }
            }
        }
        finishRow()
    }

    /// Counts the row just filtered, then writes every output row that has become complete.
    private mutating func finishRow() {
        nextSourceRow += 1
        while !isFinished && rows.starts[nextOutputRow] + rows.counts[nextOutputRow] <= nextSourceRow {
            writeOutputRow(nextOutputRow)
            nextOutputRow += 1
        }
    }

    /// One horizontal pass: `outputCount` pixels, each a weighted sum of whole blocks of eight
    /// consecutive source pixels (zero weights past the real taps). Eight partial sums, one per
    /// position in the block, break the add dependency chain and are combined in a fixed tree,
    /// so results are deterministic and equal to the vector passes' (thumbkernels.h).
    @inline(__always)
    private static func convolve(source: UnsafePointer<SIMD4<Float>>, starts: UnsafePointer<Int>,
                                 blocks: UnsafePointer<Int>, weights: UnsafePointer<Float>, stride: Int,
                                 outputCount: Int, into destination: UnsafeMutablePointer<SIMD4<Float>>) {
        for o in 0..<outputCount {
            var p = source + starts[o]
            var w = weights + o &* stride
            var s0 = SIMD4<Float>.zero, s1 = SIMD4<Float>.zero, s2 = SIMD4<Float>.zero, s3 = SIMD4<Float>.zero
            var s4 = SIMD4<Float>.zero, s5 = SIMD4<Float>.zero, s6 = SIMD4<Float>.zero, s7 = SIMD4<Float>.zero
            for _ in 0..<blocks[o] {
                s0 += p[0] * w[0]
                s1 += p[1] * w[1]
                s2 += p[2] * w[2]
                s3 += p[3] * w[3]
                s4 += p[4] * w[4]
                s5 += p[5] * w[5]
                s6 += p[6] * w[6]
                s7 += p[7] * w[7]
                p += 8
                w += 8
            }
            destination[o] = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
        }
    }

    private static func summedWeights(_ columns: AxisWeights, blocks: [Int]) -> [Float] {
        (0..<columns.outputSize).map { o in
            var partial = [Float](repeating: 0, count: AxisWeights.tapBlock)
            for b in 0..<blocks[o] {
                for j in 0..<AxisWeights.tapBlock { partial[j] += columns.weights[o * columns.stride + b * AxisWeights.tapBlock + j] }
            }
            return ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]))
        }
    }

    /// Vertical pass for output row `y`: all its taps are in the ring.
    private mutating func writeOutputRow(_ y: Int) {
        let width = outputWidth
        let window = self.window
        let start = rows.starts[y]
        let count = rows.counts[y]
        let weightOffset = y * rows.stride
        rows.weights.withUnsafeBufferPointer { weights in
            ring.withUnsafeBufferPointer { ringBuffer in
                output.withUnsafeMutableBufferPointer { floats in
                    floats.withMemoryRebound(to: SIMD4<Float>.self) { pixels in
                        let out = pixels.baseAddress! + y * width
                        let w = weights.baseAddress! + weightOffset
                        func row(_ k: Int) -> UnsafePointer<SIMD4<Float>> {
                            ringBuffer.baseAddress! + ((start + k) % window) * width
                        }
                        let first = row(0)
                        for x in 0..<width { out[x] = first[x] * w[0] }
                        // Four taps a pass over the row: the same adds in the same order as one
                        // tap a pass, with a quarter of the loads and stores of `out`.
                        var k = 1
                        while k + 4 <= count {
                            let r0 = row(k), r1 = row(k + 1), r2 = row(k + 2), r3 = row(k + 3)
                            let w0 = w[k], w1 = w[k + 1], w2 = w[k + 2], w3 = w[k + 3]
                            for x in 0..<width {
                                var sum = out[x]
                                sum += r0[x] * w0
                                sum += r1[x] * w1
                                sum += r2[x] * w2
                                sum += r3[x] * w3
                                out[x] = sum
                            }
                            k += 4
                        }
                        while k < count {
                            let r = row(k), wk = w[k]
                            for x in 0..<width { out[x] += r[x] * wk }
                            k += 1
                        }
                        // Negative lobes can overshoot: keep Bitmap's invariant 0 ≤ c ≤ a ≤ 1.
                        for x in 0..<width {
                            let p = out[x]
                            let a = min(max(p.w, 0), 1)
                            var q = p.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: a))
                            q.w = a
                            out[x] = q
                        }
                    }
                }
            }
        }
    }
}
