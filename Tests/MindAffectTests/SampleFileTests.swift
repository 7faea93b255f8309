import Foundation
import Testing
import TestSupport
@testable import MindAffect

/// The constructed sample file, checked against the facts its generator states.
@Suite("Constructed sample file (SampleData/mindaffect)")
struct SampleFileTests {
    @Test("generator facts: trials, cues, selections, traps")
    func facts() throws {
        let url = TestSupport.packageRoot.appendingPathComponent("SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt")
        let file = try SaveFile.parse(try Data(contentsOf: url), sourceFile: "sample.txt")
        let analysis = SaveFileAnalysis(file, codes: GoldCodeFamily.mgold65_6532.table)
        let trials = analysis.trials
        #expect(trials.map(\.cuedTarget) == [3, 5, 2, 4])
        #expect(trials.map(\.frameCount) == [253, 253, 150, 200])
        #expect(trials.map(\.durationMs) == [4200, 4200, 2483, 3317])       // round(f·1000/60)
        #expect(trials.map(\.selected) == [nil, nil, 2, 1])
        #expect(trials.map(\.correct) == [nil, nil, true, false])
        #expect(trials.map(\.timeToSelectionMs) == [nil, nil, 2485, 3319])
        #expect(trials.map(\.phase) == ["calibration", "calibration", "prediction", "prediction"])
        #expect(trials.prefix(2).allSatisfy { $0.codeAgreement == 252.0 / 253 })   // the blank last frame
        #expect(trials.suffix(2).allSatisfy { $0.codeAgreement == 1 })
        #expect(analysis.timeline.fsEstimated == 200 && analysis.timeline.packetSampleCounts.first == 100)
        #expect(analysis.timeline.zeroAdvancePackets == 2)
        #expect(analysis.header?.swapped == true)
        #expect(file.messages.first!.rts > 0 && file.messages.last!.rts < 0)         // rts crosses 2^31
        let codes = Set(analysis.anomalies.map(\.code))
        #expect(codes == ["W_STS", "W_HEADER", "W_TS_NONMONO", "W_UNKNOWN", "W_TRUNC"])
    }
}
