import FFTW

/// Welch's power spectral density estimator: the mean of the modified periodograms of overlapping segments,
/// equal to `scipy.signal.welch` with the same parameters (one-sided, `average='mean'`).
///
/// The FFTW plan, the window and the work buffers are made once in `init` and reused for every segment, so an
/// estimate allocates nothing per segment. An instance (and the accumulators made from it) must be used by one
/// thread at a time; make one per thread.
public final class Welch {
    /// The parameters.
    public let parameters: WelchParameters
    private let plan: FFTWRealPlan
    private let window: UnsafeMutableBufferPointer<Double>
    /// `1/(fs·Σw²)` (density) or `1/(Σw)²` (spectrum).
    private let scale: Double

    /// Makes the plan and the window. Throws on impossible parameters.
    public init(_ parameters: WelchParameters) throws(WelchParameterError) {
        try parameters.validate()
        self.parameters = parameters
        plan = FFTWRealPlan(count: parameters.fftLength)
        let coefficients = parameters.window.coefficients(count: parameters.segmentLength)
        window = .allocate(capacity: coefficients.count)
        _ = window.initialize(from: coefficients)
        switch parameters.scaling {
        case .density:
            scale = 1 / (parameters.samplingRate * coefficients.reduce(0) { $0 + $1 * $1 })
        case .spectrum:
            let sum = coefficients.reduce(0, +)
            scale = 1 / (sum * sum)
        }
    }

    deinit { window.deallocate() }

    /// The one-sided frequencies f_k = k·fs/nfft (computed as numpy's `rfftfreq` does), k = 0…nfft/2.
    public var frequencies: [Double] {
        let step = 1.0 / (Double(parameters.fftLength) * (1.0 / parameters.samplingRate))
        return (0..<parameters.frequencyCount).map { Double($0) * step }
    }

    /// The estimate over a whole signal; `nil` when it is shorter than one segment (scipy would shorten the
    /// segment instead; this estimator never does, so that every estimate has the same resolution).
    public func spectrum(of signal: [Double]) -> PowerSpectrum? {
        signal.withUnsafeBufferPointer { spectrum(of: $0) }
    }

    /// The estimate over a whole signal; `nil` when it is shorter than one segment.
    public func spectrum(of signal: UnsafeBufferPointer<Double>) -> PowerSpectrum? {
        let count = parameters.segmentCount(sampleCount: signal.count)
        guard count > 0, let base = signal.baseAddress else { return nil }
        var sums = [Double](repeating: 0, count: parameters.frequencyCount)
        sums.withUnsafeMutableBufferPointer { sums in
            for index in 0..<count {
                accumulatePeriodogram(of: base + index * parameters.step, into: sums.baseAddress!)
            }
        }
        return spectrum(fromSums: sums, segmentCount: count)
    }

    /// A streaming estimator over this plan: push samples in any batch sizes, read the estimate at any time.
    public func makeAccumulator() -> WelchAccumulator { WelchAccumulator(welch: self) }

    /// Adds `|X_k|²` of the detrended, windowed segment starting at `segment` (segmentLength samples) to `sums`.
    func accumulatePeriodogram(of segment: UnsafePointer<Double>, into sums: UnsafeMutablePointer<Double>) {
        let n = parameters.segmentLength
        let input = plan.input.baseAddress!
        let w = window.baseAddress!
        var mean = 0.0
        if parameters.detrend == .constant {
            var total = 0.0
            for i in 0..<n { total += segment[i] }
            mean = total / Double(n)
        }
        for i in 0..<n { input[i] = (segment[i] - mean) * w[i] }
        if parameters.fftLength > n {
            for i in n..<parameters.fftLength { input[i] = 0 }
        }
        let spectrum = plan.execute()
        let x = spectrum.baseAddress!
        for k in 0..<spectrum.count {
            let (re, im) = x[k]
            sums[k] += re * re + im * im
        }
    }

    /// The mean, scaled, one-sided estimate from summed `|X_k|²` of `segmentCount` segments.
    func spectrum(fromSums sums: [Double], segmentCount: Int) -> PowerSpectrum {
        let factor = scale / Double(segmentCount)
        let last = sums.count - 1
        // One-sided: every bin but DC, and Nyquist for an even nfft, counts twice.
        let doubledEnd = parameters.fftLength % 2 == 0 ? last : last + 1
        var values = sums
        for k in values.indices {
            values[k] *= (k >= 1 && k < doubledEnd) ? 2 * factor : factor
        }
        return PowerSpectrum(frequencies: frequencies, values: values, segmentCount: segmentCount,
                             frequencyResolution: parameters.frequencyResolution, scaling: parameters.scaling)
    }
}
