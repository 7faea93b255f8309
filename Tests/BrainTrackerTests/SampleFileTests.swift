import BrainTracker
import Foundation
import Testing
import TestSupport

/// The constructed sample (SampleData/braintracker/make_sample.py): every era's layout in one file, with the
/// scores the generator computed by its own Python implementation of spec §7.
@Suite("constructed sample files")
struct SampleFileTests {
    static let folder = TestSupport.packageRoot.appendingPathComponent("SampleData/braintracker")

    @Test("every row layout, mixed LF/CR line ends, and every stored score reproduced exactly")
    func resultsFile() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("BrainTrackerResultsFile.csv"))
        let text = TextLines(data)
        #expect(text.terminatorCounts["LF"] ?? 0 > 0 && text.terminatorCounts["CR"] ?? 0 > 0)
        let a = try BrainTrackerFormat.analyze(data, sourceFile: "sample.csv", format: nil, options: SessionAnalysisOptions(), skipBadLines: false)
        #expect(Set(a.trials.map(\.rowFormat)) == [.legacy4, .legacyHandID, .timestampParen, .current])
        #expect(a.sessions.count == 14)
        let complete = a.sessions.filter(\.complete)
        #expect(complete.count == 12)
        #expect(complete.allSatisfy { $0.scoreMatch == "exact" }, "\(complete.map { $0.scoreDelta ?? .nan })")
        #expect(a.sessions.filter { !$0.complete }.map(\.nTrials) == [4, 5])
        #expect(a.sessions.compactMap(\.utcOffsetMin) == [-420, -480, -480, -480, -480])
        #expect(a.sessions.last?.sessionID == "IDyear end|2015123630800")        // week-based year
        #expect(a.sessions.last?.startLocal == "2014-12-29T08:00:05-08:00")
        #expect(a.sessions[11].comment == "scout meeting, Z=7|b")
        // Unit repair of the April sessions: seconds and ms÷10 back to ms.
        #expect(a.trials.prefix(64).allSatisfy { $0.latencyMs > 150 && $0.latencyMs < 3000 })
        #expect(a.anomalies.filter { $0.code == "W_LEGACY_UNIT" }.count == 2)
    }

    @Test("R export sample: warm-ups, exclusions and complete sessions")
    func rExport() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("brain_data_raw.csv"))
        let a = try BrainTrackerFormat.analyze(data, sourceFile: "r.csv", format: nil, options: SessionAnalysisOptions(), skipBadLines: false)
        #expect(a.format == .sethR && a.sessions.count == 12)
        #expect(a.sessions.filter(\.isWarmup).count == 6)
        #expect(a.sessions.filter { !$0.isWarmup }.allSatisfy { $0.complete && $0.nValidSeth == 32 && $0.sethPtileMean != nil })
        #expect(a.trials.filter { $0.exclusion == "warmup" }.count == 36)
    }
}
