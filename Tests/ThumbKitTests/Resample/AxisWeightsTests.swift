import Testing
@testable import ThumbKit

@Suite("AxisWeights")
struct AxisWeightsTests {
    /// Normalised (sum 1 within float rounding), inside the image, and with tap starts that never
    /// decrease — for every kernel over reductions, enlargements and fractional crops.
    @Test(arguments: ResamplingKernel.allCases)
    func weightsAreNormalisedAndOrdered(_ kernel: ResamplingKernel) {
        let inputs = [1, 2, 3, 5, 8, 13, 64, 100, 257, 1000]
        let outputs = [1, 2, 3, 7, 10, 33, 64, 99, 256, 400]
        for input in inputs {
            for output in outputs {
                for (origin, spanFraction) in [(0.0, 1.0), (0.5, 0.5), (0.25, 0.7), (0.0, 0.333)] {
                    let origin = origin * Double(input)
                    let span = max(Double(input) * spanFraction, 0.01)
                    guard origin + span <= Double(input) else { continue }
                    let w = AxisWeights(inputSize: input, outputSize: output, origin: origin, span: span, kernel: kernel)
                    var previousStart = 0
                    #expect(w.stride % AxisWeights.tapBlock == 0)
                    for i in 0..<output {
                        #expect((w.counts[i]..<w.stride).allSatisfy { w.weights[i * w.stride + $0] == 0 })
                        let start = w.starts[i], count = w.counts[i]
                        #expect(start >= previousStart && count >= 1 && start + count <= input)
                        previousStart = start
                        let sum = (0..<count).reduce(0.0) { $0 + Double(w.weights[i * w.stride + $1]) }
                        #expect(abs(sum - 1) < 1e-5, "\(kernel) \(input)→\(output) origin \(origin) pixel \(i): \(sum)")
                    }
                }
            }
        }
    }

    /// The documented convention, by hand: halving with a box filter averages pixel pairs.
    @Test func boxHalvingAveragesPairs() {
        let w = AxisWeights(inputSize: 8, outputSize: 4, origin: 0, span: 8, kernel: .box)
        for i in 0..<4 {
            let taps = (0..<w.counts[i]).map { (w.starts[i] + $0, w.weights[i * w.stride + $0]) }.filter { $0.1 != 0 }
            #expect(taps.map(\.0) == [2 * i, 2 * i + 1])
            #expect(taps.map(\.1) == [0.5, 0.5])
        }
    }

    /// Lanczos-3 reducing 4×: support 12 source pixels each side of the centre.
    @Test func lanczosIsStretchedWhenReducing() {
        let w = AxisWeights(inputSize: 400, outputSize: 100, origin: 0, span: 400, kernel: .lanczos3)
        // Output 50 is centred at 50.5 × 4 − 0.5 = 201.5: taps 190 ... 213.
        #expect(w.starts[50] == 190 && w.counts[50] == 24)
    }

    @Test func unscaledAxisIsACopy() {
        let w = AxisWeights(inputSize: 50, outputSize: 20, origin: 7, span: 20, kernel: .mitchell)
        #expect(w.isIdentity && w.starts == Array(7..<27) && w.counts.allSatisfy { $0 == 1 })
        #expect((0..<20).allSatisfy { i in (0..<w.stride).allSatisfy { w.weights[i * w.stride + $0] == ($0 == 0 ? 1 : 0) } })
    }
}
