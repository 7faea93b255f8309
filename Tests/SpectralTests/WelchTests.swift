import Foundation
import Testing
import TestSupport
@testable import Spectral

@Suite("Welch PSD against scipy.signal.welch")
struct WelchTests {
    static let scipyWelch = """
    import sys, numpy as np, scipy.signal as s
    x = np.fromfile(sys.argv[1], dtype='<f8')
    fs, nperseg, noverlap, nfft = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    f, p = s.welch(x, fs=fs, window=sys.argv[6], nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                   detrend=False if sys.argv[7] == 'none' else sys.argv[7], scaling=sys.argv[8])
    print(' '.join(repr(float(v)) for v in f)); print(' '.join(repr(float(v)) for v in p))
    """

    static func scipy(_ signal: [Double], _ p: WelchParameters) throws -> (f: [Double], psd: [Double]) {
        let window = ["rectangular": "boxcar", "hann": "hann", "hamming": "hamming"][p.window.rawValue]!
        let numbers = try SpectralTestSignals.pythonNumbers(scipyWelch, [
            try SpectralTestSignals.write(signal), "\(p.samplingRate)", "\(p.segmentLength)", "\(p.overlap)",
            "\(p.fftLength)", window, p.detrend.rawValue, p.scaling.rawValue])
        let half = numbers.count / 2
        return (Array(numbers[..<half]), Array(numbers[half...]))
    }

    @Test("scipy defaults (periodic Hann, 256, 50 %, constant detrend, density) at 250 Hz: within 1e-9")
    func defaults() throws {
        let signal = SpectralTestSignals.noise(count: 9_000, seed: 1)
        let parameters = WelchParameters(samplingRate: 250)
        #expect(parameters.segmentLength == 256 && parameters.overlap == 128 && parameters.fftLength == 256)
        let ours = try #require(try Welch(parameters).spectrum(of: signal))
        let reference = try Self.scipy(signal, parameters)
        #expect(ours.segmentCount == (9_000 - 256) / 128 + 1)
        #expect(ours.frequencies == reference.f)
        #expect(ours.values.count == reference.psd.count)
        for (a, b) in zip(ours.values, reference.psd) { #expect(closeRelative(a, b), "\(a) vs \(b)") }
    }

    @Test("Every parameter settable: window, nperseg, noverlap, nfft (odd too), detrend, scaling",
          arguments: [
              WelchParameters(samplingRate: 500, segmentLength: 200, overlap: 50, fftLength: 512, window: .hamming,
                              detrend: .none, scaling: .spectrum),
              WelchParameters(samplingRate: 128, segmentLength: 101, overlap: 0, window: .rectangular),
              WelchParameters(samplingRate: 250, segmentLength: 64, overlap: 63, fftLength: 65, window: .hann,
                              detrend: .constant, scaling: .spectrum),
          ])
    func settable(parameters: WelchParameters) throws {
        let signal = SpectralTestSignals.noise(count: 3_001, seed: 7)
        let ours = try #require(try Welch(parameters).spectrum(of: signal))
        let reference = try Self.scipy(signal, parameters)
        #expect(ours.values.count == reference.psd.count)
        for (a, b) in zip(ours.frequencies, reference.f) { #expect(closeRelative(a, b, 1e-15)) }
        // Bins that cancel exactly (DC after detrending) are compared against the largest value.
        let floor = 1e-15 * (reference.psd.max() ?? 0)
        for (a, b) in zip(ours.values, reference.psd) { #expect(closeRelative(a, b, floor: floor), "\(a) vs \(b)") }
    }

    @Test("The streaming accumulator gives the one-shot estimate for any batch sizes, and resets")
    func streaming() throws {
        let signal = SpectralTestSignals.noise(count: 5_000, seed: 3)
        let welch = try Welch(WelchParameters(samplingRate: 250))
        let whole = try #require(welch.spectrum(of: signal))
        let accumulator = welch.makeAccumulator()
        #expect(accumulator.spectrum == nil)
        var index = 0, batch = 1
        while index < signal.count {
            let end = min(signal.count, index + batch)
            if batch % 2 == 0 { accumulator.append(contentsOf: Array(signal[index..<end])) }
            else { for x in signal[index..<end] { accumulator.append(x) } }
            index = end
            batch = batch * 3 % 997 + 1
        }
        #expect(accumulator.spectrum == whole)
        #expect(accumulator.sampleCount == 5_000)
        accumulator.reset()
        accumulator.append(contentsOf: Array(signal.prefix(300)))
        #expect(accumulator.spectrum == welch.spectrum(of: Array(signal.prefix(300))))
    }

    @Test("Streaming equals one-shot for other overlaps and zero padding", arguments: [
        WelchParameters(samplingRate: 100, segmentLength: 50, overlap: 0),
        WelchParameters(samplingRate: 100, segmentLength: 64, overlap: 63, fftLength: 100, window: .hamming),
        WelchParameters(samplingRate: 100, segmentLength: 1, overlap: 0, window: .rectangular, detrend: .none),
    ])
    func streamingParameters(parameters: WelchParameters) throws {
        let signal = SpectralTestSignals.noise(count: 1_234, seed: 4)
        let welch = try Welch(parameters)
        let accumulator = welch.makeAccumulator()
        for start in stride(from: 0, to: signal.count, by: 37) {
            accumulator.append(contentsOf: Array(signal[start..<min(signal.count, start + 37)]))
        }
        #expect(accumulator.spectrum == welch.spectrum(of: signal))
        #expect(accumulator.segmentCount == parameters.segmentCount(sampleCount: signal.count))
    }

    @Test("Shorter than one segment: no estimate")
    func tooShort() throws {
        let welch = try Welch(WelchParameters(samplingRate: 250))
        #expect(welch.spectrum(of: [Double](repeating: 1, count: 255)) == nil)
        #expect(welch.spectrum(of: [Double](repeating: 1, count: 256))?.segmentCount == 1)
    }

    @Test("Impossible parameters are refused with a message")
    func invalid() {
        #expect(throws: WelchParameterError.overlap(256, segmentLength: 256)) {
            try Welch(WelchParameters(samplingRate: 250, overlap: 256))
        }
        #expect(throws: WelchParameterError.fftLength(128, segmentLength: 256)) {
            try Welch(WelchParameters(samplingRate: 250, fftLength: 128))
        }
        #expect(throws: WelchParameterError.samplingRate(0)) { try Welch(WelchParameters(samplingRate: 0)) }
    }

    @Test("Parameters go into the provenance with scipy's names")
    func codable() throws {
        let json = String(decoding: try JSONEncoder().encode(WelchParameters(samplingRate: 250)), as: UTF8.self)
        for key in ["\"fs\":250", "\"nperseg\":256", "\"noverlap\":128", "\"nfft\":256", "\"window\":\"hann\"",
                    "\"detrend\":\"constant\"", "\"scaling\":\"density\""] {
            #expect(json.contains(key), "\(json)")
        }
    }
}

@Suite("FFT plans shared across threads")
struct PlanSharingTests {
    @Test("Estimators made and run on many threads at once give the serial result exactly")
    func concurrent() async throws {
        let signal = SpectralTestSignals.noise(count: 20_000, seed: 9)
        let serial = try #require(try Welch(WelchParameters(samplingRate: 250)).spectrum(of: signal))
        let results = try await withThrowingTaskGroup(of: PowerSpectrum?.self) { group in
            for index in 0..<16 {
                group.addTask {
                    // Lengths 256 and others interleaved, so plans are made concurrently too.
                    let other = try Welch(WelchParameters(samplingRate: 250, segmentLength: 100 + index))
                    _ = other.spectrum(of: signal)
                    return try Welch(WelchParameters(samplingRate: 250)).spectrum(of: signal)
                }
            }
            var all: [PowerSpectrum?] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == serial })
    }
}
