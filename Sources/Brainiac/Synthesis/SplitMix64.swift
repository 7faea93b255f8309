/// SplitMix64 (Steele, Lea and Flood 2014): the one seeded generator behind every random choice of
/// `bt-synth`, so the same seed gives the same bytes on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1) from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal value (Box–Muller, one value per call).
    public mutating func gaussian() -> Double {
        let u1 = 1 - unit()  // (0, 1]
        let u2 = unit()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * .pi * u2)
    }
}

import Foundation
private func _log(_ x: Double) -> Double { Foundation.log(x) }
private func _cos(_ x: Double) -> Double { Foundation.cos(x) }
