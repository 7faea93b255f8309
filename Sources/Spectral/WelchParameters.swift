/// The parameters of Welch's method, with the defaults of `scipy.signal.welch` (one-sided, mean average).
public struct WelchParameters: Sendable, Codable, Equatable {
    /// Sampling rate in Hz (`fs`).
    public var samplingRate: Double
    /// Samples per segment (`nperseg`, default 256).
    public var segmentLength: Int
    /// Samples shared by consecutive segments (`noverlap`, default half a segment).
    public var overlap: Int
    /// Transform length (`nfft`, ≥ segmentLength; default segmentLength). Segments are zero-padded to it.
    public var fftLength: Int
    /// Data window (`window`, default periodic Hann).
    public var window: WindowFunction
    /// Per-segment detrending (`detrend`, default constant).
    public var detrend: Detrend
    /// Density (unit²/Hz, default) or spectrum (unit²) scaling.
    public var scaling: SpectralScaling

    enum CodingKeys: String, CodingKey {
        case samplingRate = "fs", segmentLength = "nperseg", overlap = "noverlap", fftLength = "nfft"
        case window, detrend, scaling
    }

    public init(samplingRate: Double, segmentLength: Int = 256, overlap: Int? = nil, fftLength: Int? = nil,
                window: WindowFunction = .hann, detrend: Detrend = .constant, scaling: SpectralScaling = .density) {
        self.samplingRate = samplingRate
        self.segmentLength = segmentLength
        self.overlap = overlap ?? segmentLength / 2
        self.fftLength = fftLength ?? segmentLength
        self.window = window
        self.detrend = detrend
        self.scaling = scaling
    }

    /// Samples between the starts of consecutive segments.
    public var step: Int { segmentLength - overlap }

    /// Frequency resolution Δf = fs / nfft in Hz.
    public var frequencyResolution: Double { samplingRate / Double(fftLength) }

    /// Number of one-sided frequencies, nfft/2 + 1.
    public var frequencyCount: Int { fftLength / 2 + 1 }

    /// Number of whole segments in `sampleCount` samples (0 when shorter than one segment), as scipy counts them.
    public func segmentCount(sampleCount: Int) -> Int {
        sampleCount < segmentLength ? 0 : (sampleCount - segmentLength) / step + 1
    }

    /// Checks the parameters: fs > 0, nperseg ≥ 1, 0 ≤ noverlap < nperseg, nfft ≥ nperseg.
    public func validate() throws(WelchParameterError) {
        guard samplingRate > 0, samplingRate.isFinite else { throw .samplingRate(samplingRate) }
        guard segmentLength >= 1 else { throw .segmentLength(segmentLength) }
        guard overlap >= 0, overlap < segmentLength else { throw .overlap(overlap, segmentLength: segmentLength) }
        guard fftLength >= segmentLength else { throw .fftLength(fftLength, segmentLength: segmentLength) }
    }
}

/// Welch parameters that cannot work.
public enum WelchParameterError: Error, Equatable, CustomStringConvertible {
    case samplingRate(Double)
    case segmentLength(Int)
    case overlap(Int, segmentLength: Int)
    case fftLength(Int, segmentLength: Int)

    public var description: String {
        switch self {
        case .samplingRate(let fs): "Welch: expected a positive sampling rate, found \(fs)"
        case .segmentLength(let n): "Welch: expected a segment length of at least 1, found \(n)"
        case .overlap(let o, let n): "Welch: expected 0 ≤ overlap < segment length \(n), found \(o)"
        case .fftLength(let f, let n): "Welch: expected an FFT length ≥ segment length \(n), found \(f)"
        }
    }
}
