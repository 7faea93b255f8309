/// The SDK's three FFT bands, as bin ranges of the 256-point spectrum (spec §3; Δf = 250/256 Hz, "bin ≈ Hz").
public enum SDKBand: Int, Sendable, Codable, CaseIterable {
    /// `data1`/`data1_`: bins 3–6 (2.93–5.86 Hz; documented as 3–7 Hz).
    case theta
    /// `data2`/`data2_`: bins 7–13 (6.84–12.70 Hz).
    case alpha
    /// `data3`/`data3_`: bins 14–24 (13.67–23.44 Hz).
    case beta

    /// The band's bins, in scan order.
    public var bins: ClosedRange<Int> {
        switch self {
        case .theta: 3...6
        case .alpha: 7...13
        case .beta: 14...24
        }
    }

    /// The output name (`theta`, `alpha`, `beta`).
    public var name: String {
        switch self {
        case .theta: "theta"
        case .alpha: "alpha"
        case .beta: "beta"
        }
    }

    /// The SDK's key of the dominant bin (`data1`…`data3`); the band mean's key adds `_`.
    public var sdkKey: String { "data\(rawValue + 1)" }
}
