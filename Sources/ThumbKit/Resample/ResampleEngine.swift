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
    private let light: LightEncoding
    private let window: Int
    private let outputWidth: Int
    /// The next source row the engine expects (pushed or skipped).
    private(set) var nextSourceRow = 0
    /// The next output row to be written.
    private(set) var nextOutputRow = 0
    /// One source row as premultiplied float; only `columns.lowestTap ..< columns.endTap` is used.
    private var converted: [SIMD4<Float>]
    /// `window` horizontally filtered rows; source row `y` lives in slot `y % window`.
    private var ring: [SIMD4<Float>]
    /// The finished rows, premultiplied, channels clamped to `0 ≤ c ≤ a ≤ 1`.
    private(set) var output: [Float]
    private let firstColumn: Int
    private let endColumn: Int
    /// The horizontal pass runs in C with AVX2 when the CPU has it: the same multiplies and adds
    /// in the same order as `convolve` (see thumbkernels.h), eight lanes at a time.
    private static let hasVectorConvolve = tk_convolve_rgba_available() != 0

    init(columns: AxisWeights, rows: AxisWeights, light: LightEncoding) {
        self.columns = columns
        self.rows = rows
        self.light = light
        self.window = rows.windowSize
        self.outputWidth = columns.outputSize
        self.firstColumn = columns.lowestTap
        self.endColumn = columns.endTap
        converted = [SIMD4<Float>](repeating: .zero, count: columns.inputSize)
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
        // The same arithmetic as `Bitmap(_:light:)` (`channel * (alpha / 255)`) so that unscaled
        // output is bit-identical to converting the image directly. A pixel is the sum of three
        // table entries, each holding its channel's value in its own lane and zeros elsewhere
        // (exact: adding zero changes nothing), so it is built and stored as one SIMD4 rather
        // than four scalar stores, which bounded this loop.
        let lanes = light == .linear ? ResampleEngine.linearLanes : ResampleEngine.encodedLanes
        lanes.withUnsafeBufferPointer { table in
            ResampleEngine.encodedFromByte.withUnsafeBufferPointer { alpha in
                converted.withUnsafeMutableBufferPointer { out in
                    let red = table.baseAddress!, green = red + 256, blue = red + 512
                    if channels == 3 {
                        var i = firstColumn &* 3
                        for x in firstColumn..<endColumn {
                            out[x] = red[Int(row[i])] + green[Int(row[i &+ 1])] + blue[Int(row[i &+ 2])]
                            i &+= 3
                        }
                        return
                    }
                    var i = firstColumn &* 4
                    for x in firstColumn..<endColumn {
                        let colour = red[Int(row[i])] + green[Int(row[i &+ 1])] + blue[Int(row[i &+ 2])]
                        let alphaCode = row[i &+ 3]
                        // Opaque: `colour * 1` is exact, so skipping it changes nothing.
                        out[x] = alphaCode == 255 ? colour : colour * alpha[Int(alphaCode)]
                        i &+= 4
                    }
                }
            }
        }
        filterConvertedRow()
    }

    /// `code / 255` for every 8-bit code: alpha, and colour when filtering sRGB values directly.
    static let encodedFromByte: [Float] = (0..<256).map { Float($0) / 255 }

    /// 768 entries: for each 8-bit code, its colour value in the red lane, then in the green
    /// lane, then in the blue lane with alpha 1; every other lane 0.
    private static func laneTable(_ colour: [Float]) -> [SIMD4<Float>] {
        colour.map { SIMD4($0, 0, 0, 0) } + colour.map { SIMD4(0, $0, 0, 0) } + colour.map { SIMD4(0, 0, $0, 1) }
    }

    private static let linearLanes = laneTable(SRGB.linearFromByte)
    private static let encodedLanes = laneTable(encodedFromByte)

    /// Consumes the next source row of 16-bit straight sRGB samples: RGBA, or RGB (opaque) when
    /// `channels` is 3.
    mutating func push(row: UnsafeBufferPointer<UInt16>, channels: Int = 4) {
        let linear = light == .linear
        SRGB.linearFromSample16.withUnsafeBufferPointer { table in
            converted.withUnsafeMutableBufferPointer { out in
                for x in firstColumn..<endColumn {
                    let i = x * channels
                    let a = channels == 4 ? Float(row[i + 3]) / 65535 : 1
                    let rgb = linear
                        ? SIMD4(table[Int(row[i])], table[Int(row[i + 1])], table[Int(row[i + 2])], 1)
                        : SIMD4(Float(row[i]) / 65535, Float(row[i + 1]) / 65535, Float(row[i + 2]) / 65535, 1)
                    out[x] = rgb * a
                }
            }
        }
        filterConvertedRow()
    }

    /// Horizontal pass into the ring, then every output row that has become complete.
    private mutating func filterConvertedRow() {
        let slot = nextSourceRow % window
        let width = outputWidth
        converted.withUnsafeBufferPointer { source in
            ring.withUnsafeMutableBufferPointer { ringBuffer in
                columns.starts.withUnsafeBufferPointer { starts in
                    columns.counts.withUnsafeBufferPointer { counts in
                        columns.weights.withUnsafeBufferPointer { weights in
                            let destination = ringBuffer.baseAddress! + slot * width
                            if ResampleEngine.hasVectorConvolve {
                                UnsafeRawPointer(source.baseAddress!).withMemoryRebound(
                                    to: Float.self, capacity: source.count * 4) { sourceFloats in
                                    UnsafeMutableRawPointer(destination).withMemoryRebound(
                                        to: Float.self, capacity: width * 4) { destinationFloats in
                                        tk_convolve_rgba(sourceFloats, starts.baseAddress!, counts.baseAddress!,
                                                         weights.baseAddress!, columns.stride, width, destinationFloats)
                                    }
                                }
                                return
                            }
                            ResampleEngine.convolve(source: source.baseAddress!, starts: starts.baseAddress!,
                                                    counts: counts.baseAddress!, weights: weights.baseAddress!,
                                                    stride: columns.stride, outputCount: width,
                                                    into: destination)
                        }
                    }
                }
            }
        }
        nextSourceRow += 1
        while !isFinished && rows.starts[nextOutputRow] + rows.counts[nextOutputRow] <= nextSourceRow {
            writeOutputRow(nextOutputRow)
            nextOutputRow += 1
        }
    }

    /// One horizontal pass: `outputCount` pixels, each a weighted sum of consecutive source pixels.
    /// Four accumulators break the add dependency chain; their order is fixed, so results are
    /// deterministic.
    @inline(__always)
    private static func convolve(source: UnsafePointer<SIMD4<Float>>, starts: UnsafePointer<Int>,
                                 counts: UnsafePointer<Int>, weights: UnsafePointer<Float>, stride: Int,
                                 outputCount: Int, into destination: UnsafeMutablePointer<SIMD4<Float>>) {
        for o in 0..<outputCount {
            let p = source + starts[o]
            let w = weights + o &* stride
            let n = counts[o]
            var a0 = SIMD4<Float>.zero, a1 = SIMD4<Float>.zero, a2 = SIMD4<Float>.zero, a3 = SIMD4<Float>.zero
            var k = 0
            while k &+ 4 <= n {
                a0 += p[k] * w[k]
                a1 += p[k &+ 1] * w[k &+ 1]
                a2 += p[k &+ 2] * w[k &+ 2]
                a3 += p[k &+ 3] * w[k &+ 3]
                k &+= 4
            }
            while k < n {
                a0 += p[k] * w[k]
                k &+= 1
            }
            destination[o] = (a0 + a1) + (a2 + a3)
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
                        let first = ringBuffer.baseAddress! + (start % window) * width
                        for x in 0..<width { out[x] = first[x] * w[0] }
                        for k in 1..<count {
                            let row = ringBuffer.baseAddress! + ((start + k) % window) * width
                            let wk = w[k]
                            for x in 0..<width { out[x] += row[x] * wk }
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
