import Foundation
import Spectral

/// The app's alpha measure [`FFTDelegate.swift`] (spec §6.2): over 4-s windows advanced every 1 s, the mean
/// natural-log amplitude 2/N·|X_k| (after removing the window mean and a symmetric Hann window) over bins
/// ⌊8N/fs⌋…⌈12N/fs⌉, N = 2^⌊log2(4·fs)⌋. A mean log-amplitude in ln(µV), not a power.
public final class AppAlpha {
    /// Window length in s.
    public static let windowSeconds = 4.0
    /// Advance in s.
    public static let stepSeconds = 1.0

    public let rate: Double
    /// The transform length N.
    public let length: Int
    /// Samples between window starts.
    public let step: Int
    private let spectrum: AmplitudeSpectrum
    private let hann: [Double]
    private let bins: ClosedRange<Int>
    private var block: [Double]
    private var magnitudes: [Double]

    public init(rate: Double) {
        self.rate = rate
        let samples = max(2, Int(AppAlpha.windowSeconds * rate))
        length = 1 << Int(log2(Double(samples)))
        step = max(1, Int(AppAlpha.stepSeconds * rate))
        spectrum = AmplitudeSpectrum(length: length, window: .rectangular, detrend: .none)
        let n = Double(length)
        hann = (0..<length).map { 0.5 * (1 - cos(2 * Double.pi * Double($0) / (n - 1))) }
        let lo = Int((8 * n / rate).rounded(.down)), hi = Int((12 * n / rate).rounded(.up))
        bins = min(lo, length / 2)...min(max(lo, hi), length / 2)
        block = [Double](repeating: 0, count: length)
        magnitudes = [Double](repeating: 0, count: length / 2 + 1)
    }

    /// The measure of the window starting at `start` of `samples`.
    public func window(_ samples: [Double], start: Int) -> Double {
        var mean = 0.0
        for i in 0..<length { mean += samples[start + i] }
        mean /= Double(length)
        for i in 0..<length { block[i] = (samples[start + i] - mean) * hann[i] }
        block.withUnsafeBufferPointer { input in
            magnitudes.withUnsafeMutableBufferPointer { spectrum.magnitudes(of: input, into: $0) }
        }
        var total = 0.0
        for k in bins {
            let amplitude = 2 / Double(length) * magnitudes[k]
            total += log(amplitude == 0 ? 1 : amplitude)
        }
        return total / Double(bins.count)
    }

    /// The mean over every window wholly inside `range` of `samples`, with the number of windows; `nil` when
    /// none fits.
    public func mean(_ samples: [Double], range: Range<Int>) -> (value: Double, windows: Int)? {
        let end = min(range.upperBound, samples.count)
        var start = range.lowerBound
        var total = 0.0, count = 0
        while start + length <= end {
            total += window(samples, start: start)
            count += 1
            start += step
        }
        return count > 0 ? (total / Double(count), count) : nil
    }
}
