import Foundation
import Testing
import Tables
import TableWriters
import TestSupport
@testable import Brainiac
@testable import Spectral

@Suite("Band power of Brainiac recordings (spec §4.3)")
struct BandPowerTests {
    /// Four different channels: the v2 timeline scaled per channel plus a slow drift, quantised.
    static func samples(count: Int, segment: Int = 0) -> [BrainiacSample] {
        let signal = FrameTestSamples.v2Timeline()
        return (0..<count).map { n in
            var v = SIMD4<Double>()
            for c in 0..<4 {
                let drift: Double = 20_000 * sin(Double(n) / 97 + Double(c))
                v[c] = FrameTestSamples.captured(signal(n) * (1 + 0.2 * Double(c)) + drift)
            }
            return BrainiacSample(segment: segment, sampleIndex: n, counter: n, orderNumber: 0, byte2: 0, byte11: 0,
                                  nanovolts: v)
        }
    }

    /// scipy's band powers over the µV samples: per scope (windows of 2500, then the recording), channel, band:
    /// `power rel n_segments`.
    static func scipyRows(_ samples: [BrainiacSample]) throws -> [[Double]] {
        let flat = samples.flatMap { s in (0..<4).map { s.nanovolts[$0] / 1000 } }
        let url = TestSupport.temporaryFolder().appendingPathComponent("uv.f64")
        try flat.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: url)
        let output = try TestSupport.python("""
        import sys, numpy as np, scipy.signal as s
        x = np.fromfile(sys.argv[1], dtype='<f8').reshape(-1, 4)
        bands = [(1, 4), (4, 8), (8, 12), (12, 30), (30, 45)]
        def rows(block):
            for c in range(4):
                f, p = s.welch(block[:, c], fs=250)
                df = f[1] - f[0]
                total = p[(f >= 1) & (f <= 45)].sum() * df
                nseg = (len(block) - 256) // 128 + 1
                for lo, hi in bands:
                    bp = p[(f >= lo) & (f <= hi)].sum() * df
                    print(repr(float(bp)), repr(float(bp / total)), nseg)
        for start in range(0, len(x), 2500):
            if len(x) - start >= 256:
                rows(x[start:start + 2500])
        rows(x)
        """, [url.path])
        return output.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
    }

    @Test("Recording and 10-s windows (the last one partial) equal scipy.signal.welch band sums within 1e-9")
    func againstScipy() throws {
        let samples = Self.samples(count: 10_300)
        let table = FrameTestSamples.analyse(samples, batch: 333)["band_power"]!
        let reference = try Self.scipyRows(samples)
        #expect(table.rowCount == reference.count)
        #expect(table.rowCount == (1 + 5) * 4 * 5)
        let power = table.floatColumn("power_uv2"), rel = table.floatColumn("rel_power"), n = table.intColumn("n_segments")
        for (row, expected) in reference.enumerated() where row < table.rowCount {
            #expect(analysisClose(power[row], expected[0], 1e-9), "row \(row): \(power[row]) vs \(expected[0])")
            #expect(analysisClose(rel[row], expected[1], 1e-9), "row \(row)")
            #expect(n[row] == Int(expected[2]))
        }
        #expect(Array(table.stringColumn("scope").suffix(21).prefix(2)) == ["window", "recording"])
        #expect(Set(table.intColumn("scope_index")) == Set([0, 1, 2, 3, 4]))
        // Windows start at 0, 10, 20, 30, 40 s; the recording at 0.
        #expect(Set(table.floatColumn("t_s")) == Set([0.0, 10, 20, 30, 40]))
        #expect(Array(table.stringColumn("band").prefix(5)) == ["delta", "theta", "alpha", "beta", "gamma"])
        #expect(Array(table.stringColumn("channel").prefix(6)) == ["T3", "T3", "T3", "T3", "T3", "O1"])
    }

    @Test("A last window of fewer than 256 samples gives no rows; --bands and --window-s are used")
    func shortWindowAndOptions() throws {
        let bands = try FrequencyBand.parseList("slow:1-10,fast:10-40")
        let table = FrameTestSamples.analyse(Self.samples(count: 5_200),
                                             options: BrainiacAnalysisOptions(bands: bands, windowSeconds: 4))["band_power"]!
        // 5200 samples in windows of 1000: 5 whole windows, the last 200 give none; plus the recording.
        #expect(table.rowCount == (1 + 5) * 4 * 2)
        #expect(Set(table.stringColumn("band")) == ["slow", "fast"])
        #expect(Set(table.floatColumn("fmax_hz")) == [10, 40])
    }

    @Test("Windows follow received samples; t_s is the device time of a window's first sample")
    func gapTiming() {
        var samples = Self.samples(count: 6_000)
        for i in 100..<samples.count { samples[i].sampleIndex += 50 }
        let table = FrameTestSamples.analyse(samples)["band_power"]!
        let windows = zip(table.stringColumn("scope"), table.floatColumn("t_s")).filter { $0.0 == "window" }.map(\.1)
        #expect(Set(windows) == [0, 10.2, 20.2])
    }

    @Test("Tables read back with h5py and pandas: names, units, values")
    func readBack() throws {
        let analysis = BrainiacAnalysis(sourceFile: "x.bin", options: BrainiacAnalysisOptions())
        analysis.consume(FrameTestSamples.samples(count: 7_500, FrameTestSamples.v2Timeline()))
        analysis.finish()
        let tables = analysis.tables
        #expect(tables.map(\.name) == BrainiacAnalysis.tableNames)
        let path = TestSupport.temporaryFolder().appendingPathComponent("out.h5").path
        let output = try TableOutput(destination: .hdf5(path: path),
                                     tableNames: BrainiacAnalysis.tableNames)
        for table in tables { try output.write(table) }
        try output.commit(provenance: Provenance(tool: "test", version: "0", commandLine: "test", inputs: [],
                                                 parametersJSON: Provenance.encodeParameters(["x": 1])))
        let text = try TestSupport.python("""
        import sys, h5py, pandas as pd
        f = h5py.File(sys.argv[1], 'r')
        t = {name: pd.DataFrame({k: f[name][k][()] for k in f[name]}) for name in ['frames', 'baseline', 'indicators', 'band_power']}
        i = t['indicators']
        print(len(t['frames']), list(i['counter']), i['colors'][1].decode(), i['zone_name'][1].decode(), float(i['percents'][1]))
        print(f['frames/band_mean_sdk'].attrs['unit'].decode() if isinstance(f['frames/band_mean_sdk'].attrs['unit'], bytes) else f['frames/band_mean_sdk'].attrs['unit'])
        print(f['band_power/power_uv2'].attrs['unit'], t['baseline']['status'][0].decode(), len(t['band_power']))
        """, [path])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "360 [6250, 7500] green NormalActivity 1.0")
        #expect(lines[1].hasPrefix("SDK magnitude"))
        #expect(lines[2] == "µV² ok \((1 + 3) * 4 * 5)")
    }
}
