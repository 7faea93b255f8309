/// Band power from a power spectral density: `Σ PSD_k·Δf` over the bins with `lo ≤ f_k ≤ hi`, summed in
/// ascending frequency order (a rectangle rule, as a researcher does with `psd[mask].sum() * df`).
public enum BandPower {
    /// The absolute power in `band` (unit² for a PSD in unit²/Hz); 0 when no bin lies in it.
    public static func absolute(_ spectrum: PowerSpectrum, band: FrequencyBand) -> Double {
        var total = 0.0
        for k in spectrum.frequencies.indices where band.contains(spectrum.frequencies[k]) {
            total += spectrum.values[k] * spectrum.frequencyResolution
        }
        return total
    }

    /// The power in `band` divided by the power over `reference` (default 1–45 Hz); `nil` when that is 0.
    public static func relative(_ spectrum: PowerSpectrum, band: FrequencyBand,
                                reference: FrequencyBand = .relativeReference) -> Double? {
        let total = absolute(spectrum, band: reference)
        return total > 0 ? absolute(spectrum, band: band) / total : nil
    }
}
