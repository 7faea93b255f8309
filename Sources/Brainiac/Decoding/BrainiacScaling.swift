/// The SDK's conversion of raw ADC counts to nanovolts (spec §1, "Scaling").
public enum BrainiacScaling {
    /// `VRef = 2.4 / 6.0 / 32.0` (0.012499999999999999), computed in that order.
    public static let referenceVolts: Double = 2.4 / 6.0 / 32.0
    /// `K = 1_000_000_000 * VRef / 32767` = 381.48136844996486 nV per count.
    public static let nanovoltsPerCount: Double = 1_000_000_000 * referenceVolts / 32767

    /// `floor(raw × K)`: a whole number of nV, rounded toward −∞, as the SDK stored it.
    @inlinable
    public static func nanovolts(_ raw: Int16) -> Double {
        nanovolts(SIMD4(repeating: raw))[0]
    }

    /// `floor(raw × K)` of four counts at once (a sample's four channels).
    ///
    /// Floored without a call to libm's `floor`, which baseline x86-64 has no instruction for: adding and
    /// subtracting 1.5 × 2^52 rounds a product to the nearest whole number (exact, since |raw × K| < 2^24), and
    /// one is taken off where that rounded up. The whole computation stays in SIMD registers.
    @inlinable @inline(__always)
    public static func nanovolts(_ raw: SIMD4<Int16>) -> SIMD4<Double> {
        let product = SIMD4<Double>(SIMD4<Int32>(truncatingIfNeeded: raw)) * nanovoltsPerCount
        let roundingConstant = SIMD4<Double>(repeating: 0x1.8p52)
        let nearest = (product + roundingConstant) - roundingConstant
        return nearest.replacing(with: nearest - 1, where: nearest .> product)
    }

    /// Four values in nV as whole nV, each the nearest (ties to even): received samples are whole already
    /// (`floor(raw × K)`), interpolated fills are rounded. For |value| < 2^31, which every Brainiac value is
    /// (|raw × K| < 2^24): the low 32 bits of `value + 1.5 × 2^52` hold the nearest whole number.
    @inlinable @inline(__always)
    public static func wholeNanovolts(_ nanovolts: SIMD4<Double>) -> SIMD4<Int32> {
        let shifted = nanovolts + SIMD4(repeating: 0x1.8p52)
        return SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<Int64>.self))
    }

    /// The raw count a synthesizer writes for a value: `clamp(round_half_away(v / K), −32768, 32767)`.
    public static func rawCount(nanovolts value: Double) -> Int16 {
        let rounded = (value / nanovoltsPerCount).rounded()
        if rounded.isNaN { return 0 }
        return Int16(min(32767, max(-32768, rounded)))
    }
}
