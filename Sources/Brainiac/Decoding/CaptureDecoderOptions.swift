/// Options of the capture decoder (spec §2.2–2.5), with the spec's defaults.
public struct CaptureDecoderOptions: Sendable, Codable, Equatable {
    /// The byte order (already resolved: `auto` is settled by ``ByteOrderDetector`` first).
    public var byteOrder: BrainiacByteOrder = .be
    /// Order-number step per packet, `s` (`--order-step`, default 2).
    public var orderStep: Int = 2
    /// The longest plausible gap in samples (`--max-gap`, default 2500 = 10 s).
    public var maxGapSamples: Int = 2500
    /// Whether a discontinuity starts a new segment (`--no-split` turns this off).
    public var splitSegments = true
    /// How lost samples are handled (`--gaps`).
    public var gaps: GapHandling = .sdk

    public init(byteOrder: BrainiacByteOrder = .be, orderStep: Int = 2, maxGapSamples: Int = 2500,
                splitSegments: Bool = true, gaps: GapHandling = .sdk) {
        self.byteOrder = byteOrder
        self.orderStep = orderStep
        self.maxGapSamples = maxGapSamples
        self.splitSegments = splitSegments
        self.gaps = gaps
    }

    /// A jump `Δ = s(m+1)` with `m ≥ 1` and `2m ≤ maxGap`: returns `m`, the lost packets, or `nil`.
    public func plausibleGap(_ delta: Int) -> Int? {
        guard orderStep > 0, delta % orderStep == 0 else { return nil }
        let lost = delta / orderStep - 1
        return lost >= 1 && 2 * lost <= maxGapSamples ? lost : nil
    }
}
