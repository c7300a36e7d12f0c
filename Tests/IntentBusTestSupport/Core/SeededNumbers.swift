/// A fixed sequence of numbers for generated test inputs (a 64-bit linear congruential
/// generator, Knuth's MMIX constants): the same seed gives the same inputs in every run, so a
/// failure names an input that can be made again.
package struct SeededNumbers {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// The next number in 0..<n (n > 0).
    package mutating func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }
}
