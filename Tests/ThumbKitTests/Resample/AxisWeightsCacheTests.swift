import Testing
@testable import ThumbKit

/// The cache hands out the very weights it would compute, keeps sets it was asked for again, and
/// holds no more than it was told to.
@Suite struct AxisWeightsCacheTests {
    /// Whether two sets share their weights' storage: a cache hit, not a recomputation.
    static func sameStorage(_ a: AxisWeights, _ b: AxisWeights) -> Bool {
        a.weights.withUnsafeBufferPointer { a in b.weights.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    static func equal(_ a: AxisWeights, _ b: AxisWeights) -> Bool {
        a.starts == b.starts && a.counts == b.counts && a.stride == b.stride && a.isIdentity == b.isIdentity
            && a.weights.map(\.bitPattern) == b.weights.map(\.bitPattern)
    }

    @Test func cachedWeightsAreTheComputedOnes() {
        let cache = AxisWeightsCache()
        for (input, output, origin, span, kernel) in [(5120, 256, 0.0, 5120.0, ResamplingKernel.lanczos3), (1920, 256, 0.0, 1920.0, .lanczos2),
                                                      (100, 40, 12.5, 75.0, .lanczos3), (16, 64, 0.0, 16.0, .nearest)] {
            let fresh = AxisWeights(inputSize: input, outputSize: output, origin: origin, span: span, kernel: kernel)
            let first = cache.weights(inputSize: input, outputSize: output, origin: origin, span: span, kernel: kernel)
            let again = cache.weights(inputSize: input, outputSize: output, origin: origin, span: span, kernel: kernel)
            #expect(Self.equal(fresh, first) && Self.equal(fresh, again), "\(input) → \(output), \(kernel)")
            #expect(Self.sameStorage(first, again), "asked twice, \(input) → \(output) is computed once")
        }
    }

    @Test func argumentsThatDifferInAnyWayAreDifferentSets() {
        let cache = AxisWeightsCache()
        let base = cache.weights(inputSize: 1000, outputSize: 100, origin: 0, span: 1000, kernel: .lanczos3)
        let shifted = cache.weights(inputSize: 1000, outputSize: 100, origin: 0.5, span: 999.5, kernel: .lanczos3)
        let otherKernel = cache.weights(inputSize: 1000, outputSize: 100, origin: 0, span: 1000, kernel: .lanczos2)
        #expect(!Self.sameStorage(base, shifted) && !Self.equal(base, shifted))
        #expect(!Self.sameStorage(base, otherKernel) && !Self.equal(base, otherKernel))
    }

    @Test func holdsAtMostItsCapacityLeastRecentlyUsedGoingFirst() {
        let cache = AxisWeightsCache(capacity: 2)
        let ask = { (input: Int) in cache.weights(inputSize: input, outputSize: 10, origin: 0, span: Double(input), kernel: .lanczos3) }
        let a = ask(100), b = ask(200)
        #expect(Self.sameStorage(a, ask(100)))   // a is now the most recently used
        _ = ask(300)                             // evicts b
        #expect(Self.sameStorage(a, ask(100)))
        #expect(!Self.sameStorage(b, ask(200)))
    }

    @Test func keepsNoSetLargerThanItsLimit() {
        let cache = AxisWeightsCache(largestFloats: 1000)
        let ask = { cache.weights(inputSize: 4000, outputSize: 400, origin: 0, span: 4000, kernel: .lanczos3) }
        let first = ask()
        #expect(first.weights.count > 1000)
        #expect(!Self.sameStorage(first, ask()))
    }
}
