import BrainTracker
import Foundation
import Tables
import Testing
import TestSupport

/// `BrainTrackerAnomalies.catalogue` against what the library writes, the sources and docs/rt-stats.md.
@Suite("Anomaly catalogue (rt-stats)")
struct AnomalyCatalogueTests {
    static let catalogue = Dictionary(uniqueKeysWithValues: BrainTrackerAnomalies.catalogue.map { ($0.code, $0) })

    @Test("The SampleData files give only catalogue codes, each with its severity")
    func sampleData() throws {
        let folder = TestSupport.packageRoot.appendingPathComponent("SampleData/braintracker")
        var rows: [Anomaly] = []
        for name in ["BrainTrackerResultsFile.csv", "brain_data_raw.csv"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            rows += try BrainTrackerFormat.analyze(data, sourceFile: name, format: nil, options: SessionAnalysisOptions(),
                                        skipBadLines: false).anomalies
        }
        #expect(Set(rows.map(\.code)).isSuperset(of: ["W_LEGACY_UNIT", "W_ABORTED_SESSION"]))
        for row in rows {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.sourceFile): \(row.code)")
        }
    }

    @Test("Bad lines under --skip-bad-lines, and the info code, carry their catalogue severity")
    func errorsAndNotes() throws {
        let text = """
        SessionID,date,label,ms,id
        IDa|2014092580900,2014-09-15 16:00:01 +0000,1,500,IDa|2014092580900
        no date anchor here
        IDa|2014092580900,2014-09-15 16:00:04 +0000,Session,0.123457,IDa|2014092580900
        """
        var options = SessionAnalysisOptions()
        options.trialsPerSession = nil
        let file = try ResultsFile.parse(TextLines(Data(text.utf8)), sourceFile: "t.csv", skipBadLines: true)
        let a = ResultsFileAnalysis.analyze(file, options: options)
        let byCode = Dictionary(grouping: a.anomalies, by: \.code)
        #expect(byCode["E_BAD_LINE"]?.map(\.severity) == [.error])
        #expect(byCode["I_SCORE_DIFFERS"]?.map(\.severity) == [.info])
        for row in a.anomalies {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.code)")
        }
    }

    @Test("Sources/BrainTracker and Sources/rt-stats write no code outside the catalogue; every entry is declared and used")
    func sources() throws {
        #expect(try AnomalyCatalogueCheck.sourceProblems(catalogue: BrainTrackerAnomalies.catalogue,
                                                         file: "Sources/BrainTracker/BrainTrackerAnomalies.swift",
                                                         folders: ["BrainTracker", "rt-stats"]) == [])
    }

    @Test("docs/rt-stats.md lists every code with the catalogue's severity and meaning")
    func page() throws {
        #expect(try AnomalyCatalogueCheck.pageProblems(catalogue: BrainTrackerAnomalies.catalogue, tool: "rt-stats") == [])
    }
}
