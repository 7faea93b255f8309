/// The SDK's conversion of raw ADC counts to nanovolts (spec §1, "Scaling").
public enum BrainiacScaling {
    /// `VRef = 2.4 / 6.0 / 32.0` (0.012499999999999999), computed in that order.
    public static let referenceVolts: Double = 2.4 / 6.0 / 32.0
    /// `K = 1_000_000_000 * VRef / 32767` = 381.48136844996486 nV per count.
    public static let nanovoltsPerCount: Double = 1_000_000_000 * referenceVolts / 32767

    /// `floor(raw × K)`: a whole number of nV, rounded toward −∞, as the SDK stored it.
    ///
    /// Floored through an integer conversion, which baseline x86-64 does in one instruction (`rounded(.down)`
    /// is a call to `floor` there): exact, since |raw × K| < 2^24 and truncation then differs from flooring
    /// only for negative non-integers, which are one above.
    @inlinable
    public static func nanovolts(_ raw: Int16) -> Double {
        let product = Double(raw) * nanovoltsPerCount
        let truncated = Double(Int64(product))
        return truncated > product ? truncated - 1 : truncated
    }

    /// The raw count a synthesizer writes for a value: `clamp(round_half_away(v / K), −32768, 32767)`.
    public static func rawCount(nanovolts value: Double) -> Int16 {
        let rounded = (value / nanovoltsPerCount).rounded()
        if rounded.isNaN { return 0 }
        return Int16(min(32767, max(-32768, rounded)))
    }
}
