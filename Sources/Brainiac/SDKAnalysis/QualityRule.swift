/// The SDK's per-channel signal-quality rule (spec §3, constants `GROUP_2_LOW_LEVEL`/`GROUP_2_HIGH_LEVEL`).
public enum QualityRule {
    /// `GROUP_2_LOW_LEVEL`: the theta mean (÷1000) must stay below it.
    public static let lowLevel = 22000.0
    /// `GROUP_2_HIGH_LEVEL`: the beta mean (÷1000) must stay below it.
    public static let highLevel = 6000.0

    /// Clear ⇔ L < 22000 ∧ H < 6000 ∧ (H < L ∨ H < A), with L, A, H the theta, alpha and beta band means divided
    /// by 1000 (divided first, then compared, as written). An all-zero window is not clear.
    public static func isClear(theta: Double, alpha: Double, beta: Double) -> Bool {
        let l = theta / 1000, a = alpha / 1000, h = beta / 1000
        return l < lowLevel && h < highLevel && (h < l || h < a)
    }
}
