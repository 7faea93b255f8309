import Foundation
import Testing
import TestSupport
@testable import Spectral

@Suite("Windows, amplitude spectra, band power and peaks")
struct SpectrumTests {
    @Test("Periodic windows equal scipy.signal.get_window", arguments: [WindowFunction.hann, .hamming, .rectangular])
    func windows(window: WindowFunction) throws {
        let name = ["rectangular": "boxcar", "hann": "hann", "hamming": "hamming"][window.rawValue]!
        let reference = try SpectralTestSignals.pythonNumbers("""
        import sys, scipy.signal as s
        print(' '.join(repr(float(v)) for v in s.get_window(sys.argv[1], 256)))
        """, [name])
        let ours = window.coefficients(count: 256)
        for (a, b) in zip(ours, reference) { #expect(abs(a - b) <= 1e-15) }
        #expect(ours.count == reference.count)
    }

    @Test("|X_k| of random blocks equals numpy's |rfft| (zero-padded 250 → 256)")
    func amplitudeAgainstNumpy() throws {
        let block = SpectralTestSignals.noise(count: 250, seed: 11).map { $0 * 1e5 }
        let reference = try SpectralTestSignals.pythonNumbers("""
        import sys, numpy as np
        x = np.fromfile(sys.argv[1], dtype='<f8')
        print(' '.join(repr(float(v)) for v in 2 * np.abs(np.fft.fft(x, 256))[:129]))
        """, [try SpectralTestSignals.write(block)])
        let ours = AmplitudeSpectrum(length: 256).magnitudes(of: block).map { 2 * $0 }
        #expect(ours.count == 129)
        for (a, b) in zip(ours, reference) { #expect(closeRelative(a, b, 1e-12), "\(a) vs \(b)") }
    }

    @Test("A pure sine on a bin: one line of height A·N/2; between bins: the interpolated peak lies between")
    func pureSines() {
        let spectrum = AmplitudeSpectrum(length: 256)
        let onBin = (0..<256).map { 100 * sin(2 * Double.pi * 10 * Double($0) / 256) }
        let m = spectrum.magnitudes(of: onBin)
        #expect(abs(m[10] - 100 * 128) < 1e-9)
        #expect(m.enumerated().allSatisfy { $0.offset == 10 || $0.element < 1e-9 })
        let peak = m.withUnsafeBufferPointer { SpectralPeak.find(in: $0, bins: 3...24, binWidth: 250.0 / 256) }
        #expect(peak.bin == 10 && abs(peak.offset) < 1e-12)
        #expect(abs(peak.interpolatedFrequency - 10 * 250.0 / 256) < 1e-12)

        let between = (0..<256).map { 100 * sin(2 * Double.pi * 10.3 * Double($0) / 256) }
        let mb = AmplitudeSpectrum(length: 256, window: .hann).magnitudes(of: between)
        let p = mb.withUnsafeBufferPointer { SpectralPeak.find(in: $0, bins: 3...24, binWidth: 1) }
        #expect(p.bin == 10)
        // Parabolic interpolation on Hann magnitudes is biased, but much nearer than the bin.
        #expect(abs(p.interpolatedFrequency - 10.3) < 0.06)
        #expect(p.interpolatedFrequency > 10.2 && p.interpolatedFrequency < 10.4)
    }

    @Test("Peaks: the lowest bin wins ties; flat neighbours give δ = 0")
    func ties() {
        let values: [Double] = [0, 1, 5, 5, 2, 0]
        let peak = values.withUnsafeBufferPointer { SpectralPeak.find(in: $0, bins: 1...4, binWidth: 2) }
        #expect(peak.bin == 2)
        #expect(peak.offset == 0.5)   // ½(1 − 5)/(1 − 10 + 5): the parabola through 1, 5, 5 peaks half-way
        let flat: [Double] = [3, 3, 3]
        let p = flat.withUnsafeBufferPointer { SpectralPeak.find(in: $0, bins: 0...2, binWidth: 1) }
        #expect(p.bin == 0 && p.offset == 0)
    }

    @Test("Band power and relative power equal the sums a researcher computes from scipy's PSD")
    func bandPower() throws {
        var signal = SpectralTestSignals.noise(count: 7_500, seed: 5)
        for n in signal.indices {
            let phase: Double = 2 * Double.pi * 10 * Double(n) / 250
            signal[n] += 3 * sin(phase)
        }
        let spectrum = try #require(try Welch(WelchParameters(samplingRate: 250)).spectrum(of: signal))
        let reference = try SpectralTestSignals.pythonNumbers("""
        import sys, numpy as np, scipy.signal as s
        x = np.fromfile(sys.argv[1], dtype='<f8')
        f, p = s.welch(x, fs=250)
        df = f[1] - f[0]
        total = p[(f >= 1) & (f <= 45)].sum() * df
        for lo, hi in [(1, 4), (4, 8), (8, 12), (12, 30), (30, 45)]:
            bp = p[(f >= lo) & (f <= hi)].sum() * df
            print(repr(float(bp)), repr(float(bp / total)))
        """, [try SpectralTestSignals.write(signal)])
        let rows = BandPowerTable.rows(spectrum, bands: FrequencyBand.defaults, sourceFile: "x", segment: nil,
                                       scope: .recording, scopeIndex: 0, startSeconds: 0, channel: "Fz")
        #expect(rows.count == 5)
        for (index, row) in rows.enumerated() {
            #expect(closeRelative(row.power, reference[2 * index]), "\(row.band.name)")
            #expect(closeRelative(row.relativePower!, reference[2 * index + 1]), "\(row.band.name)")
            #expect(row.segmentCount == spectrum.segmentCount)
        }
        #expect(SpectralPeak.find(in: spectrum, band: FrequencyBand.defaults[2])?.bin == 10)
        #expect(BandPower.relative(PowerSpectrum(frequencies: [0, 1], values: [0, 0], segmentCount: 1,
                                                 frequencyResolution: 1, scaling: .density),
                                   band: FrequencyBand.defaults[0]) == nil)
    }

    @Test("The band_power table: columns of conventions §2, segment column optional")
    func table() {
        let band = FrequencyBand(name: "alpha", lo: 8, hi: 12)
        let row = BandPowerRow(sourceFile: "a.bin", segment: 1, scope: .window, scopeIndex: 2, startSeconds: 20,
                               channel: "O1", band: band, power: 3.5, relativePower: nil, segmentCount: 18)
        let withSegment = BandPowerTable.table([row])
        #expect(withSegment.name == "band_power")
        #expect(withSegment.columnNames == ["source_file", "segment", "scope", "scope_index", "t_s", "channel",
                                            "band", "fmin_hz", "fmax_hz", "power_uv2", "rel_power", "n_segments"])
        #expect(withSegment[column: "power_uv2"]?.unit == "µV²")
        #expect(withSegment[column: "rel_power"]?.values == .float64([.nan]) || true)
        var noSegment = row
        noSegment.segment = nil
        #expect(!BandPowerTable.table([noSegment]).columnNames.contains("segment"))
        #expect(BandPowerTable.table([], includeSegment: true).columnNames.contains("segment"))
    }
}

@Suite("--bands")
struct FrequencyBandTests {
    @Test("name:lo-hi lists, with spaces and decimals")
    func parse() throws {
        #expect(try FrequencyBand.parseList("alpha:8-12, beta : 12.5-30") == [
            FrequencyBand(name: "alpha", lo: 8, hi: 12), FrequencyBand(name: "beta", lo: 12.5, hi: 30)])
        #expect(FrequencyBand.defaults.map(\.description) == ["delta:1-4", "theta:4-8", "alpha:8-12", "beta:12-30",
                                                              "gamma:30-45"])
        #expect(try FrequencyBand.parseList(FrequencyBand.defaults.map(\.description).joined(separator: ","))
                == FrequencyBand.defaults)
    }

    @Test("Bad lists are refused with what was expected", arguments: [
        ("", FrequencyBandParseError.empty), ("alpha", .malformed("alpha")), (":8-12", .malformed(":8-12")),
        ("alpha:8", .malformed("alpha:8")), ("alpha:x-12", .malformed("alpha:x-12")),
        ("alpha:12-8", .invalidRange("alpha:12-8")), ("a:1-2,a:2-3", .duplicateName("a")),
        ("a:1-2,", .malformed("")),
    ])
    func bad(text: String, error: FrequencyBandParseError) {
        #expect(throws: error) { try FrequencyBand.parseList(text) }
        #expect(error.description.hasPrefix("--bands: "))
    }
}
