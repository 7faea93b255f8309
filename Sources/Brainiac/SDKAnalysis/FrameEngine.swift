import Spectral

/// Computes the SDK's FFT frames from a stream of one segment's samples, as `CBManager` did live (spec §3):
/// every 250 received samples, the last 250 zero-padded to 256, no window, magnitudes `2·|X_k|` (vDSP's scale).
///
/// The FFT plan and the buffers are made once; nothing is allocated per frame but the frame itself. The
/// bypass (``FFTFrame/Channel/clear``) is left to the caller: frames come out with `clear == clearRule`.
public final class FrameEngine {
    /// Samples per frame (1 s at 250 Hz).
    public static let windowLength = 250
    /// The zero-padded FFT length.
    public static let fftLength = 256
    /// Δf = 250/256 Hz per bin.
    public static let binWidth = BrainiacHeadband.samplingRate / Double(fftLength)

    private let spectrum = AmplitudeSpectrum(length: FrameEngine.fftLength)
    /// Channel-major: channel c's window at `c·250 ..< (c+1)·250`.
    private var window = [Double](repeating: 0, count: 4 * FrameEngine.windowLength)
    private var magnitudes = [Double](repeating: 0, count: FrameEngine.fftLength / 2 + 1)
    /// Samples received in this segment.
    public private(set) var counter = 0
    private var windowSpansGap = false

    public init() {}

    /// Starts a new segment.
    public func reset() {
        counter = 0
        windowSpansGap = false
    }

    /// Takes the next received (or filled) sample; returns the frame the SDK computed after it, if any.
    public func push(_ sample: BrainiacSample) -> FFTFrame? {
        withUnsafePointer(to: sample) { push(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Takes the next samples; returns the frame computed after the last of them, if any. The samples must not
    /// reach past the end of the current 1-s window (at most `250 − counter % 250` of them; the rest are ignored).
    public func push(_ samples: UnsafeBufferPointer<BrainiacSample>) -> FFTFrame? {
        let start = counter % FrameEngine.windowLength
        let count = min(samples.count, FrameEngine.windowLength - start)
        guard count > 0 else { return nil }
        window.withUnsafeMutableBufferPointer { window in
            for i in 0..<count {
                let sample = samples[i], position = start + i
                for c in 0..<4 { window[c * FrameEngine.windowLength + position] = sample.nanovolts[c] }
                // A gap before the window's first sample lies outside the window.
                if (position > 0 && sample.followsGap) || sample.filled { windowSpansGap = true }
            }
        }
        counter += count
        guard counter % FrameEngine.windowLength == 0 else { return nil }
        let frame = FFTFrame(index: counter / FrameEngine.windowLength - 1, counter: counter,
                             endSeconds: Double(samples[count - 1].sampleIndex + 1) / BrainiacHeadband.samplingRate,
                             spansGap: windowSpansGap, channels: (0..<4).map(channel))
        windowSpansGap = false
        return frame
    }

    /// The frame values of channel `c` from the current window.
    private func channel(_ c: Int) -> FFTFrame.Channel {
        window.withUnsafeBufferPointer { all in
            let block = UnsafeBufferPointer(rebasing: all[(c * FrameEngine.windowLength)..<((c + 1) * FrameEngine.windowLength)])
            return magnitudes.withUnsafeMutableBufferPointer { mag in
                spectrum.magnitudes(of: block, into: mag)
                // vDSP's packed real FFT is twice the DFT (spec §3); mag[0] (DC/Nyquist packed) is never used.
                for k in mag.indices { mag[k] *= 2 }
                return FrameEngine.channel(fromSDKMagnitudes: UnsafeBufferPointer(mag))
            }
        }
    }

    /// The band values and quality rule of one channel from the SDK's magnitudes `mag[k] = 2·|X_k|`
    /// (k = 0…128) of its zero-padded window.
    public static func channel(fromSDKMagnitudes mag: UnsafeBufferPointer<Double>) -> FFTFrame.Channel {
        let bands = SDKBand.allCases.map { band -> FFTFrame.Band in
            let peak = SpectralPeak.find(in: mag, bins: band.bins, binWidth: binWidth)
            var sum = 0.0
            for k in band.bins { sum += mag[k] }
            return FFTFrame.Band(dominantBin: peak.bin, peakHz: peak.interpolatedFrequency,
                                 mean: sum / Double(band.bins.count))
        }
        let rule = QualityRule.isClear(theta: bands[0].mean, alpha: bands[1].mean, beta: bands[2].mean)
        return FFTFrame.Channel(bands: bands, clearRule: rule, clear: rule)
    }
}
