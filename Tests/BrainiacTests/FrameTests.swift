import Foundation
import Tables
import Testing
import TestSupport
@testable import Brainiac

@Suite("SDK FFT frames (spec §3, §6.3)")
struct FrameTests {
    @Test("A run of one segment ends where the next segment starts, found by halving as by looking at each sample")
    func segmentRunEnds() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            // Segments never go back: each sample's is its predecessor's or larger.
            var segment = 0
            let samples = (0..<Int.random(in: 1...60, using: &generator)).map { n -> BrainiacSample in
                if Int.random(in: 0..<8, using: &generator) == 0 { segment += Int.random(in: 1...2, using: &generator) }
                return BrainiacSample(segment: segment, sampleIndex: n, counter: n, orderNumber: 0, byte2: 0, byte11: 0,
                                      nanovolts: .zero)
            }
            samples.withUnsafeBufferPointer { buffer in
                for start in buffer.indices {
                    for limit in (start + 1)...buffer.count {
                        var expected = start + 1
                        while expected < limit && buffer[expected].segment == buffer[start].segment { expected += 1 }
                        #expect(BrainiacAnalysis.segmentEnd(buffer, from: start, limit: limit) == expected)
                    }
                }
            }
        }
    }

    /// One row of spec §6.3: signal, dominant bins, band means (7 significant digits), clear.
    struct Vector: Sendable, CustomStringConvertible {
        var name: String
        var bins: [Int]
        var means: [Double]
        var clear: Bool
        var description: String { name }
    }

    static let vectors: [Vector] = [
        Vector(name: "baseline", bins: [5, 10, 19], means: [4.071388e6, 2.917376e6, 1.105575e6], clear: true),
        Vector(name: "red", bins: [5, 10, 18], means: [2.045745e6, 1.435124e6, 1.067087e6], clear: true),
        Vector(name: "green1", bins: [5, 10, 18], means: [2.934634e6, 2.087901e6, 1.002715e6], clear: true),
        Vector(name: "green2", bins: [5, 10, 19], means: [5.209694e6, 3.746922e6, 1.234233e6], clear: true),
        Vector(name: "green3", bins: [5, 10, 19], means: [6.101973e6, 4.394949e6, 1.382541e6], clear: true),
        Vector(name: "yellow1", bins: [5, 10, 19], means: [6.098068e6, 4.415131e6, 1.103942e6], clear: true),
        Vector(name: "yellow2", bins: [5, 10, 19], means: [3.258281e6, 2.334276e6, 8.852492e5], clear: true),
        Vector(name: "orange", bins: [5, 10, 19], means: [7.315745e6, 5.309377e6, 1.228588e6], clear: true),
        Vector(name: "v1 f=3", bins: [3, 7, 14], means: [7.315402e6, 4.018551e5, 1.504015e5], clear: true),
        Vector(name: "v1 f=10", bins: [6, 10, 14], means: [6.752200e5, 6.283857e6, 7.635066e5], clear: true),
        Vector(name: "v1 f=20", bins: [6, 13, 20], means: [2.684708e5, 7.199221e5, 5.353750e6], clear: false),
        Vector(name: "zeros", bins: [3, 7, 14], means: [0, 0, 0], clear: false),
    ]

    static func signal(_ name: String) -> (Int) -> Double {
        if let p = FrameTestSamples.presets[name] { return { FrameTestSamples.v2($0, a: p.a, b: p.b) } }
        switch name {
        case "v1 f=3": return { FrameTestSamples.v1($0, f: 3) }
        case "v1 f=10": return { FrameTestSamples.v1($0, f: 10) }
        case "v1 f=20": return { FrameTestSamples.v1($0, f: 20) }
        default: return { _ in 0 }
        }
    }

    @Test("Every 1-s frame of each §6.3 signal: dominant bins, band means (7 digits), clear", arguments: vectors)
    func referenceVectors(vector: Vector) throws {
        let frames = FrameTestSamples.analyse(FrameTestSamples.samples(count: 1000, Self.signal(vector.name)),
                                              options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
        #expect(frames.rowCount == 4 * 4 * 3)
        let bins = frames.intColumn("dominant_bin"), means = frames.floatColumn("band_mean_sdk")
        let clear = frames.boolColumn("clear"), rule = frames.boolColumn("clear_rule")
        for row in 0..<frames.rowCount {
            let band = row % 3
            #expect(bins[row] == vector.bins[band], "row \(row)")
            if vector.means[band] == 0 { #expect(means[row] == 0) }
            else { #expect(analysisClose(means[row], vector.means[band], 5.1e-7), "\(means[row]) vs \(vector.means[band])") }
            #expect(clear[row] == vector.clear && rule[row] == vector.clear)
        }
    }

    @Test("In-memory (unquantised) values of §6.3")
    func inMemory() {
        let cases: [(String, [Double])] = [
            ("baseline", [4.074748e6, 2.918449e6, 1.106199e6]), ("red", [2.047888e6, 1.434457e6, 1.067197e6]),
            ("v1 f=3", [7.317883e6, 4.022995e5, 1.498202e5]),
        ]
        for (name, expected) in cases {
            let frames = FrameTestSamples.analyse(FrameTestSamples.samples(count: 250, inMemory: true, Self.signal(name)),
                                                  options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
            let means = frames.floatColumn("band_mean_sdk")
            for band in 0..<3 { #expect(analysisClose(means[band], expected[band], 5.1e-7), "\(name) \(band)") }
        }
    }

    @Test("Band means and peaks of random windows equal numpy's 2·|FFT| (zero-padded to 256) within 1e-9")
    func randomAgainstNumpy() throws {
        var state: UInt64 = 42
        let samples = (0..<500).map { n -> BrainiacSample in
            var v = SIMD4<Double>()
            for c in 0..<4 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                v[c] = (Double(Int64(bitPattern: state) >> 40) * 0.37).rounded(.down)
            }
            return BrainiacSample(segment: 0, sampleIndex: n, counter: n, orderNumber: 0, byte2: 0, byte11: 0,
                                  nanovolts: v)
        }
        let frames = FrameTestSamples.analyse(samples, options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
        let flat = samples.flatMap { [$0.nanovolts[0], $0.nanovolts[1], $0.nanovolts[2], $0.nanovolts[3]] }
        let url = TestSupport.temporaryFolder().appendingPathComponent("x.f64")
        try flat.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: url)
        let output = try TestSupport.python("""
        import sys, numpy as np
        x = np.fromfile(sys.argv[1], dtype='<f8').reshape(-1, 4)
        for k in range(2):
            for c in range(4):
                m = 2 * np.abs(np.fft.fft(x[250*k:250*k+250, c], 256))
                for lo, hi in [(3, 6), (7, 13), (14, 24)]:
                    band = m[lo:hi+1]
                    b = lo + int(np.argmax(band))
                    d = 0.5 * (m[b-1] - m[b+1]) / (m[b-1] - 2*m[b] + m[b+1])
                    print(b, repr(float(band.mean())), repr(float((b + d) * 250 / 256)))
        """, [url.path])
        let lines = output.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(lines.count == frames.rowCount)
        for (row, fields) in lines.enumerated() {
            #expect(frames.intColumn("dominant_bin")[row] == Int(fields[0]))
            #expect(analysisClose(frames.floatColumn("band_mean_sdk")[row], Double(fields[1])!, 1e-9))
            #expect(analysisClose(frames.floatColumn("peak_hz")[row], Double(fields[2])!, 1e-9))
            #expect(frames.floatColumn("dominant_hz")[row] == Double(Int(fields[0])!) * 250 / 256)
        }
    }

    @Test("Frame rows: counter 250(k+1), t_s at the window's end, channel and band order, leftovers give none")
    func layout() {
        let frames = FrameTestSamples.analyse(FrameTestSamples.samples(count: 749, Self.signal("red")),
                                              options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
        #expect(frames.rowCount == 2 * 12)
        #expect(frames.columnNames == ["source_file", "segment", "frame", "counter", "t_s", "spans_gap", "channel",
                                       "band", "dominant_bin", "dominant_hz", "peak_hz", "band_mean_sdk", "clear",
                                       "clear_rule"])
        #expect(frames.intColumn("frame") == [Int?](repeating: 0, count: 12) + [Int?](repeating: 1, count: 12))
        #expect(frames.intColumn("counter")[12] == 500)
        #expect(frames.floatColumn("t_s")[0] == 1.0 && frames.floatColumn("t_s")[12] == 2.0)
        #expect(Array(frames.stringColumn("channel").prefix(6)) == ["T3", "T3", "T3", "O1", "O1", "O1"])
        #expect(Array(frames.stringColumn("band").prefix(3)) == ["theta", "alpha", "beta"])
        #expect(frames.boolColumn("spans_gap").allSatisfy { $0 == false })
        #expect(frames[column: "band_mean_sdk"]?.unit.hasPrefix("SDK magnitude") == true)
    }

    @Test("peak_hz: a 5-Hz line sits at bin 5.12, so the interpolated peak lies above bin 5 toward 5 Hz")
    func peak() {
        let frames = FrameTestSamples.analyse(FrameTestSamples.samples(count: 250, Self.signal("v1 f=3")),
                                              options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
        // 3 Hz = bin 3.072: the theta peak is bin 3, refined upward, within half a bin of 3 Hz.
        let peak = frames.floatColumn("peak_hz")[0]
        #expect(peak > 3 * 250.0 / 256 && abs(peak - 3) < 0.5 * 250 / 256)
    }

    @Test("Gaps: the counter counts received samples; a window with a lost stretch inside spans the gap")
    func gaps() {
        var samples = FrameTestSamples.samples(count: 800, Self.signal("red"))
        // Lose 10 samples after counter 300 (inside frame 1): received counters stay contiguous.
        samples.removeSubrange(300..<310)
        for i in samples.indices {
            samples[i].counter = i
            samples[i].followsGap = i == 300
        }
        // Lose samples just before frame 2's first sample (counter 500): the gap lies outside its window.
        samples[500].followsGap = true
        let frames = FrameTestSamples.analyse(samples, options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
        #expect(frames.rowCount == 3 * 12)
        let spans = frames.boolColumn("spans_gap"), t = frames.floatColumn("t_s")
        #expect(spans[0] == false && spans[12] == true && spans[24] == false)
        // Frame 1 ends at received sample 499 = sample_index 509.
        #expect(t[12] == 510.0 / 250)
        #expect(frames.intColumn("counter")[12] == 500)
    }
}

@Suite("Quality rule (spec §3)")
struct FrameQualityRuleTests {
    @Test("clear ⇔ L < 22000 ∧ H < 6000 ∧ (H < L ∨ H < A), with L, A, H = means / 1000", arguments: [
        (21_999_000.0, 0.0, 5_999_000.0, true),
        (22_000_000.0, 0.0, 1_000.0, false),
        (10_000_000.0, 0.0, 6_000_000.0, false),
        (10_000_000.0, 0.0, 5_999_999.0, true),
        (1_000_000.0, 3_000_000.0, 2_000_000.0, true),
        (1_000_000.0, 1_000_000.0, 2_000_000.0, false),
        (2_000_000.0, 2_000_000.0, 2_000_000.0, false),
        (0.0, 0.0, 0.0, false),
    ])
    func rule(theta: Double, alpha: Double, beta: Double, clear: Bool) {
        #expect(QualityRule.isClear(theta: theta, alpha: alpha, beta: beta) == clear)
    }
}

@Suite("Streaming analysis")
struct FrameStreamingTests {
    @Test("Any batch size (1, 7, 250, 1250, all) and single-sample calls give identical tables")
    func batches() {
        var samples = FrameTestSamples.samples(count: 7_000, FrameTestSamples.v2Timeline())
        samples += FrameTestSamples.samples(count: 3_100, segment: 1, FrameTestSamples.v2Timeline())
        samples[400].followsGap = true
        // Compared as text: missing values are NaN, which is not equal to itself.
        func text(_ tables: [String: Table]) -> [String: String] { tables.mapValues { "\($0)" } }
        let reference = text(FrameTestSamples.analyse(samples, batch: samples.count))
        for batch in [1, 7, 250, 1250] {
            let tables = text(FrameTestSamples.analyse(samples, batch: batch))
            for name in BrainiacAnalysis.tableNames { #expect(tables[name] == reference[name], "batch \(batch): \(name)") }
        }
        let analysis = BrainiacAnalysis(sourceFile: "test.bin", options: BrainiacAnalysisOptions())
        for sample in samples { analysis.consume(sample) }
        analysis.finish()
        #expect(analysis.tables.map { "\($0)" } == BrainiacAnalysis.tableNames.map { reference[$0] })
        #expect(reference["frames"]!.contains("spans_gap"))
        #expect(FrameTestSamples.analyse(samples)["frames"]!.boolColumn("spans_gap").contains(true))
    }

    @Test("The zones scope (a signal file's annotations) gives the same baseline and indicators, no frame or band-power rows")
    func zonesScope() {
        // Two segments, each past its baseline (E = 5250) and four indicators (6250 … 10000).
        var samples = FrameTestSamples.samples(count: 10_000, FrameTestSamples.v2Timeline())
        samples += FrameTestSamples.samples(count: 10_000, segment: 1, FrameTestSamples.v2Timeline())
        samples[400].followsGap = true
        let all = FrameTestSamples.analyse(samples)
        let zones = FrameTestSamples.analyse(samples, scope: .zones)
        #expect(all["baseline"]!.rowCount == 2 && all["indicators"]!.rowCount == 8)
        #expect(all["frames"]!.rowCount > 0 && all["band_power"]!.rowCount > 0)
        for name in ["baseline", "indicators"] { #expect("\(zones[name]!)" == "\(all[name]!)", "\(name)") }
        #expect(zones["frames"]!.rowCount == 0 && zones["band_power"]!.rowCount == 0)
    }
}
