/// SplitMix64: a tiny deterministic generator so random tests are the same on every run.
package struct SeededGenerator: RandomNumberGenerator {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
    /// A whole number in 0..<n (0 when n <= 0); the modulo bias is irrelevant for tests.
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    /// A uniform Double in [lo, hi), from the top 53 bits (platform-independent, unlike
    /// `Double.random(in:using:)`, whose algorithm is not promised to stay the same).
    package mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / 9_007_199_254_740_992
    }
}
