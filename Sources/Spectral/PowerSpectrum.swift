/// A one-sided power spectrum (density in unit²/Hz, or power in unit²) at frequencies `k·Δf`.
public struct PowerSpectrum: Sendable, Equatable {
    /// The frequencies in Hz, k = 0…nfft/2.
    public var frequencies: [Double]
    /// The PSD (unit²/Hz) or power (unit²) per frequency, depending on ``scaling``.
    public var values: [Double]
    /// Number of segments averaged (Welch).
    public var segmentCount: Int
    /// Δf in Hz.
    public var frequencyResolution: Double
    /// How ``values`` are scaled.
    public var scaling: SpectralScaling

    public init(frequencies: [Double], values: [Double], segmentCount: Int, frequencyResolution: Double,
                scaling: SpectralScaling) {
        self.frequencies = frequencies
        self.values = values
        self.segmentCount = segmentCount
        self.frequencyResolution = frequencyResolution
        self.scaling = scaling
    }

    /// The bins whose frequency lies in `band` (edges included), in ascending order.
    public func bins(in band: FrequencyBand) -> [Int] {
        frequencies.indices.filter { band.contains(frequencies[$0]) }
    }
}
