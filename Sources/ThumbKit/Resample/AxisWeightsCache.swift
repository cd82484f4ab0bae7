import Synchronization

/// The axis weights computed most recently: a folder of photos from one camera, or of wallpapers
/// in a few screen sizes, asks for the same weights again and again, and each set costs thousands
/// of kernel evaluations (a 24-megapixel photo into a 256 box, about 72,000; on the bench's PNG
/// photos, 2% of the run). Weights depend only on the arguments, so a cached set is the one that
/// would have been computed, bit for bit.
///
/// Memory stays small and bounded: at most `capacity` sets, none of over `largestFloats` weights.
final class AxisWeightsCache: Sendable {
    /// The cache every resampler uses.
    static let shared = AxisWeightsCache()

    private struct Key: Hashable {
        let inputSize: Int
        let outputSize: Int
        let origin: UInt64  // bit patterns: equal keys mean identical arguments
        let span: UInt64
        let kernel: ResamplingKernel
    }

    let capacity: Int
    let largestFloats: Int
    /// Most recently used last.
    private let recent = Mutex<[(key: Key, weights: AxisWeights)]>([])

    init(capacity: Int = 8, largestFloats: Int = 1 << 18) {
        self.capacity = capacity
        self.largestFloats = largestFloats
    }

    /// The weights for these arguments: the cached set when there is one, else newly computed.
    func weights(inputSize: Int, outputSize: Int, origin: Double, span: Double, kernel: ResamplingKernel) -> AxisWeights {
        let key = Key(inputSize: inputSize, outputSize: outputSize, origin: origin.bitPattern, span: span.bitPattern, kernel: kernel)
        let found: AxisWeights? = recent.withLock { recent in
            guard let index = recent.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = recent.remove(at: index)
            recent.append(entry)
            return entry.weights
        }
        if let found { return found }
        // Computed outside the lock; two threads may both compute a set, and get the same one.
        let weights = AxisWeights(inputSize: inputSize, outputSize: outputSize, origin: origin, span: span, kernel: kernel)
        if capacity > 0 && weights.weights.count <= largestFloats {
            recent.withLock { recent in
                guard !recent.contains(where: { $0.key == key }) else { return }
                if recent.count >= capacity { recent.removeFirst() }
                recent.append((key, weights))
            }
        }
        return weights
    }
}
