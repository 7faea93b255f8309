import Testing
@testable import Brainiac

/// The decoder and the analysis together: a capture written by the synthesizer (spec §5.2), decoded, analysed.
@Suite("Baseline timeline from a decoded capture (spec §6.5)")
struct BaselineCaptureTests {
    @Test("The v2 default capture (10000 samples) gives the §6.5 timeline, in any chunking")
    func decodedCapture() throws {
        let (bytes, _) = try synthesize()
        let (samples, _) = try decodeCapture(bytes, chunk: 1_000)
        #expect(samples.count == 10_000)
        let tables = FrameTestSamples.analyse(samples, batch: 2_000)
        #expect(tables["frames"]!.rowCount == 40 * 12)
        let baseline = tables["baseline"]!, indicators = tables["indicators"]!
        #expect(analysisClose(baseline.floatColumn("x0_sdk")[0], 2.917376e6, 5.1e-7))
        #expect(analysisClose(baseline.floatColumn("y0_sdk")[0], 1.105575e6, 5.1e-7))
        #expect(indicators.intColumn("counter") == [6250, 7500, 8750, 10000])
        #expect(indicators.floatColumn("percents") == [0.25, 1.0, 1.0, 1.0])
        #expect(indicators.stringColumn("colors") == [String?](repeating: "green", count: 4))
        // The decoded samples are the quantised formula values: the same tables as the independent samples.
        let independent = FrameTestSamples.analyse(FrameTestSamples.samples(count: 10_000, FrameTestSamples.v2Timeline()))
        #expect(tables["frames"]!.floatColumn("band_mean_sdk") == independent["frames"]!.floatColumn("band_mean_sdk"))
    }

    @Test("Lost packets: frames count received samples and flag the gap; t_s keeps device time")
    func lostPackets() throws {
        let (bytes, _) = try synthesize { $0.dropPackets = [200] }
        let (samples, _) = try decodeCapture(bytes)
        #expect(samples.count == 9_998)
        let frames = FrameTestSamples.analyse(samples, options: BrainiacAnalysisOptions(baselineStart: nil))["frames"]!
        // Samples 400 and 401 are lost: frame 1 (received 250…499) spans the gap and ends at device sample 501.
        #expect(frames.boolColumn("spans_gap")[12] == true && frames.boolColumn("spans_gap")[0] == false)
        #expect(frames.floatColumn("t_s")[12] == 502.0 / 250)
        #expect(frames.rowCount == 39 * 12)
    }
}
