/// The dominant frequency of a band in a spectrum: the largest bin (the lowest one on ties) and its position
/// refined by parabolic interpolation over the bin and its two neighbours.
public struct SpectralPeak: Sendable, Equatable {
    /// The bin index k of the largest value in the band.
    public var bin: Int
    /// `k·Δf` in Hz.
    public var binFrequency: Double
    /// `(k + δ)·Δf` in Hz, δ = ½(m[k−1] − m[k+1]) / (m[k−1] − 2m[k] + m[k+1]) (0 when the denominator is 0 or
    /// a neighbour is missing).
    public var interpolatedFrequency: Double
    /// δ, the offset from the bin in bins.
    public var offset: Double

    /// The peak of `values` over bins `bins` (ascending, non-empty), scanning upward and replacing the best only
    /// on a strictly greater value. Neighbours outside `bins` are used for the interpolation when they exist.
    public static func find(in values: UnsafeBufferPointer<Double>, bins: ClosedRange<Int>,
                            binWidth: Double) -> SpectralPeak {
        var best = bins.lowerBound
        for k in bins where values[k] > values[best] { best = k }
        var delta = 0.0
        if best >= 1, best + 1 < values.count {
            let left = values[best - 1], centre = values[best], right = values[best + 1]
            let denominator = left - 2 * centre + right
            if denominator != 0 { delta = 0.5 * (left - right) / denominator }
        }
        return SpectralPeak(bin: best, binFrequency: Double(best) * binWidth,
                            interpolatedFrequency: (Double(best) + delta) * binWidth, offset: delta)
    }

    /// The peak of a power spectrum within `band`; `nil` when no bin lies in the band.
    public static func find(in spectrum: PowerSpectrum, band: FrequencyBand) -> SpectralPeak? {
        let bins = spectrum.bins(in: band)
        guard let first = bins.first, let last = bins.last else { return nil }
        return spectrum.values.withUnsafeBufferPointer {
            find(in: $0, bins: first...last, binWidth: spectrum.frequencyResolution)
        }
    }

    public init(bin: Int, binFrequency: Double, interpolatedFrequency: Double, offset: Double) {
        self.bin = bin
        self.binFrequency = binFrequency
        self.interpolatedFrequency = interpolatedFrequency
        self.offset = offset
    }
}
