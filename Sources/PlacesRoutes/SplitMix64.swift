/// A small, fast, seedable random number generator (SplitMix64, Steele et al. 2014).
///
/// The solver takes a seed rather than a system generator so that the same input and
/// seed give the same route (as long as the time budget is not what stops the search).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (`bound` > 0); Lemire's multiply-shift, bias < 2⁻³².
    @inline(__always) mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: ((next() >> 32) &* UInt64(bound)) >> 32)
    }
}
