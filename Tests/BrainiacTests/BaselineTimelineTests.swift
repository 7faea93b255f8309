import Foundation
import Testing
import Tables
@testable import Brainiac

@Suite("Baseline, bypass and indicators over full timelines (spec §4, §6.4, §6.5)")
struct BaselineTimelineTests {
    @Test("v2 default, 10000 samples: bypass 11–20, X0/Y0 from frames 11–20, indicators at 6250…10000")
    func v2Default() throws {
        let tables = FrameTestSamples.analyse(FrameTestSamples.samples(count: 10_000, FrameTestSamples.v2Timeline()))
        let frames = tables["frames"]!, baseline = tables["baseline"]!, indicators = tables["indicators"]!
        #expect(frames.rowCount == 40 * 12)
        // Every frame is clear by rule; the bypass is visible only in frames that are not: none here.
        #expect(frames.boolColumn("clear").allSatisfy { $0 == true })
        #expect(baseline.rowCount == 1)
        #expect(baseline.intColumn("start_counter") == [2750] && baseline.intColumn("end_counter") == [5250])
        #expect(baseline.intColumn("first_frame") == [11] && baseline.intColumn("last_frame") == [20])
        #expect(baseline.floatColumn("t_s") == [21.0])
        #expect(analysisClose(baseline.floatColumn("x0_sdk")[0], 2.917376e6, 5.1e-7))
        #expect(analysisClose(baseline.floatColumn("y0_sdk")[0], 1.105575e6, 5.1e-7))
        #expect(baseline.stringColumn("status") == ["ok"] && baseline.stringColumn("indicator_rules") == ["sdk"])
        #expect(analysisClose(baseline.floatColumn("x4m_sdk")[0], 0.9 * 2.917376e6, 5.1e-7))

        #expect(indicators.intColumn("counter") == [6250, 7500, 8750, 10000])
        #expect(indicators.floatColumn("t_s") == [25, 30, 35, 40])
        let xr = indicators.floatColumn("x_ratio"), yr = indicators.floatColumn("y_ratio")
        #expect(abs(xr[0] - 0.5935) < 5e-5 && abs(yr[0] - 0.9721) < 5e-5)
        for i in 1..<4 { #expect(abs(xr[i] - 0.4919) < 5e-5 && abs(yr[i] - 0.9652) < 5e-5) }
        #expect(indicators.intColumn("zone") == [3, 3, 3, 3])
        #expect(indicators.stringColumn("zone_name") == [String?](repeating: "NormalActivity", count: 4))
        #expect(indicators.floatColumn("percents") == [0.25, 1.0, 1.0, 1.0])
        #expect(indicators.stringColumn("colors") == [String?](repeating: "green", count: 4))
        #expect(indicators.intColumn("n_colors") == [1, 1, 1, 1])
        #expect(indicators.boolColumn("none") == [false, false, false, false])
    }

    @Test("v1 f = 20 (low quality): frames 11–20 forced clear, baseline ok, then (3, 0.5) and none")
    func lowQuality() {
        let tables = FrameTestSamples.analyse(FrameTestSamples.samples(count: 10_000) { FrameTestSamples.v1($0, f: 20) })
        let frames = tables["frames"]!, baseline = tables["baseline"]!, indicators = tables["indicators"]!
        let clear = frames.boolColumn("clear"), rule = frames.boolColumn("clear_rule"), frame = frames.intColumn("frame")
        for row in 0..<frames.rowCount {
            let k = frame[row]!
            #expect(rule[row] == false)
            // The frame at c = S = 2750 (frame 10) is computed before the start: not bypassed.
            #expect(clear[row] == (11...20).contains(k), "frame \(k)")
        }
        #expect(analysisClose(baseline.floatColumn("x0_sdk")[0], 7.199221e5, 5.1e-7))
        #expect(analysisClose(baseline.floatColumn("y0_sdk")[0], 5.353750e6, 5.1e-7))
        #expect(indicators.intColumn("counter") == [6250, 7500, 8750, 10000])
        #expect(indicators.boolColumn("none") == [false, true, true, true])
        #expect(indicators.intColumn("zone") == [3, nil, nil, nil])
        #expect(indicators.floatColumn("percents")[0] == 0.5)
        #expect(indicators.stringColumn("colors") == ["green", nil, nil, nil])
        // X0 is the mean of 10 equal values, X one of them: equal up to rounding (the spec's ⚠ boundary).
        #expect(abs(indicators.floatColumn("x_ratio")[0] - 1) < 1e-12 && abs(indicators.floatColumn("y_ratio")[0] - 1) < 1e-12)
        #expect(indicators.floatColumn("x_sdk")[1].isNaN)
    }

    @Test("v1 f = 3 and 10: X = X0 and Y = Y0 at every indicator → (3, 0.5), [green] (regression)",
          arguments: [3.0, 10.0])
    func onTheBoundary(f: Double) {
        let indicators = FrameTestSamples.analyse(FrameTestSamples.samples(count: 10_000) {
            FrameTestSamples.v1($0, f: f)
        })["indicators"]!
        #expect(indicators.intColumn("zone") == [3, 3, 3, 3])
        #expect(indicators.floatColumn("percents") == [0.5, 0.5, 0.5, 0.5])
        #expect(indicators.stringColumn("colors") == [String?](repeating: "green", count: 4))
    }

    /// Spec §6.4: (after-preset, X/X0, Y/Y0, zone, percents, colours or nil when not asserted).
    @Test("§6.4: each preset after the baseline preset", arguments: [
        ("red", 0.4919, 0.9652, 3, 1.0, "green"),
        ("green1", 0.7157, 0.9070, 3, 0.25, "green"),
        ("green2", 1.2843, 1.1164, 0, 0.25, "green"),
        ("green3", 1.5065, 1.2505, 1, 0.25, nil),
        ("yellow1", 1.5134, 0.9985, 1, 0.5, "yellow"),
        ("yellow2", 0.8001, 0.8007, 3, 0.25, "green"),
        ("orange", 1.8199, 1.1113, 2, 0.5, "green"),
    ] as [(String, Double, Double, Int, Double, String?)])
    func presets(after: String, xRatio: Double, yRatio: Double, zone: Int, percents: Double, colors: String?) {
        let indicators = FrameTestSamples.analyse(FrameTestSamples.samples(count: 7_500,
            FrameTestSamples.v2Timeline(after: after)))["indicators"]!
        // The indicator at 7500 sees only frames of the after-preset.
        #expect(indicators.intColumn("counter") == [6250, 7500])
        #expect(abs(indicators.floatColumn("x_ratio")[1] - xRatio) < 5e-5)
        #expect(abs(indicators.floatColumn("y_ratio")[1] - yRatio) < 5e-5)
        #expect(indicators.intColumn("zone")[1] == zone)
        #expect(indicators.floatColumn("percents")[1] == percents)
        if let colors { #expect(indicators.stringColumn("colors")[1] == colors) }
    }

    @Test("--indicator-rules corrected is recorded in the baseline row and sets X4m = 0")
    func corrected() {
        let baseline = FrameTestSamples.analyse(FrameTestSamples.samples(count: 5_500, FrameTestSamples.v2Timeline()),
                                                options: BrainiacAnalysisOptions(indicatorRules: .corrected))["baseline"]!
        #expect(baseline.stringColumn("indicator_rules") == ["corrected"])
        #expect(baseline.floatColumn("x4m_sdk") == [0])
    }

    @Test("A failed baseline (no clear channel) keeps the bypass on and starts no indicators")
    func failed() {
        // D = 0: the baseline is taken at E = S = 2750 over frames 1–10, none bypassed, all-zero: not clear.
        let tables = FrameTestSamples.analyse(FrameTestSamples.samples(count: 5_000) { _ in 0 },
                                              options: BrainiacAnalysisOptions(baselineDelay: 0))
        let baseline = tables["baseline"]!, frames = tables["frames"]!
        #expect(baseline.stringColumn("status") == ["failed_empty"])
        #expect(baseline.intColumn("first_frame") == [1] && baseline.intColumn("last_frame") == [10])
        #expect(baseline.floatColumn("x0_sdk")[0].isNaN)
        #expect(tables["indicators"]!.rowCount == 0)
        for row in 0..<frames.rowCount {
            #expect(frames.boolColumn("clear")[row] == (frames.intColumn("frame")[row]! >= 11))
            #expect(frames.boolColumn("clear_rule")[row] == false)
        }
    }

    @Test("Baseline start S rounded up to even; too early refused; a segment ending before E: not_started")
    func timing() throws {
        #expect(BrainiacAnalysisOptions.baselineStart(seconds: 11) == 2750)
        #expect(BrainiacAnalysisOptions.baselineStart(seconds: 11.001) == 2752)
        #expect(BrainiacAnalysisOptions.baselineStart(sample: 2751) == 2752)
        #expect(throws: AnalysisOptionsError.baselineTooEarly(2748)) {
            try BrainiacAnalysisOptions(baselineStart: 2748).validate()
        }
        #expect(throws: Never.self) { try BrainiacAnalysisOptions().validate() }
        #expect(try BrainiacAnalysisOptions.baselineStart(parsingSeconds: "none") == nil)
        #expect(try BrainiacAnalysisOptions.baselineStart(parsingSeconds: "12.5") == 3126)
        #expect(throws: AnalysisOptionsError.baselineStartText("soon")) {
            try BrainiacAnalysisOptions.baselineStart(parsingSeconds: "soon")
        }
        let json = String(decoding: try! JSONEncoder().encode(BrainiacAnalysisOptions(baselineStart: nil)), as: UTF8.self)
        #expect(json.contains("\"baseline_start_sample\":null") && json.contains("\"nperseg\":256"), "\(json)")
        let tables = FrameTestSamples.analyse(FrameTestSamples.samples(count: 4_000, FrameTestSamples.v2Timeline()))
        #expect(tables["baseline"]!.stringColumn("status") == ["not_started"])
        #expect(tables["baseline"]!.floatColumn("t_s")[0].isNaN)
        #expect(tables["indicators"]!.rowCount == 0)
        let disabled = FrameTestSamples.analyse(FrameTestSamples.samples(count: 4_000, FrameTestSamples.v2Timeline()),
                                                options: BrainiacAnalysisOptions(baselineStart: nil))
        #expect(disabled["baseline"]!.rowCount == 0 && disabled["frames"]!.rowCount == 16 * 12)
    }

    @Test("Segments are processed from scratch: counter, frames and baseline per segment")
    func segments() {
        let first = FrameTestSamples.samples(count: 6_250, segment: 0, FrameTestSamples.v2Timeline())
        let second = FrameTestSamples.samples(count: 6_250, segment: 1, FrameTestSamples.v2Timeline())
        let tables = FrameTestSamples.analyse(first + second)
        #expect(tables["baseline"]!.intColumn("segment") == [0, 1])
        #expect(tables["indicators"]!.intColumn("segment") == [0, 1])
        #expect(tables["indicators"]!.intColumn("counter") == [6250, 6250])
        let frames = tables["frames"]!
        #expect(frames.rowCount == 2 * 25 * 12)
        #expect(frames.intColumn("frame")[25 * 12] == 0 && frames.intColumn("segment")[25 * 12] == 1)
    }
}
