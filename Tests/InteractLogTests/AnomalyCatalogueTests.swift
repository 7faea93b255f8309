import Foundation
import InteractLog
import Tables
import Testing
import TestSupport

/// `InteractLogAnomalies.catalogue` against what the library writes, the sources and docs/ilog-parse.md.
@Suite("Anomaly catalogue (ilog-parse)")
struct AnomalyCatalogueTests {
    static let catalogue = Dictionary(uniqueKeysWithValues: InteractLogAnomalies.catalogue.map { ($0.code, $0) })

    @Test("The SampleData logs, analysed and checked for duplicate trials, give only catalogue codes with their severity",
          .enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func sampleData() throws {
        var analyses = try SampleLogs.all.map(SampleLogs.analysis)
        TrialAnalysis.checkDuplicateTrials(&analyses)
        let rows = analyses.flatMap(\.log.anomalies.anomalies)
        #expect(Set(rows.map(\.code)).isSuperset(of: ["I_DEFAULT_NAME", "I_END_KEY", "I_VIEW_OPEN_AT_END"]))
        for row in rows {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.sourceFile): \(row.code)")
        }
    }

    @Test("Bad lines under --skip-bad-lines become rows with catalogue codes of severity error")
    func badLines() throws {
        let log = """
        Name              :P01
        Experiment Start  :2023-07-04 10:15:02
        Trial Number      :1
        Trial Start       :2023-07-04 10:15:10
        Trial End         :2023-07-04 10:16:10
        Drawing Pad Size  :900,700
        Name P01
        1;1000000000;0;0;DrawingEnabled
        2;1000000001;0;ButtonDown
        x;1000000002;0;0;ButtonDown
        4;10000000x3;0;0;ButtonDown
        5;1000000004;0;;ButtonDown
        """
        let rows = try SampleLogs.parse(log, skipBadLines: true).log.anomalies.anomalies.filter { $0.severity == .error }
        #expect(rows.map(\.code) == ["E_HEADER_LINE", "E_FIELDS", "E_ID", "E_TS", "E_XY"])
        #expect(rows.allSatisfy { Self.catalogue[$0.code]?.severity == .error })
    }

    @Test("Sources/InteractLog and Sources/ilog-parse write no code outside the catalogue; every entry is declared and used")
    func sources() throws {
        #expect(try AnomalyCatalogueCheck.sourceProblems(catalogue: InteractLogAnomalies.catalogue,
                                                         file: "Sources/InteractLog/InteractLogAnomalies.swift",
                                                         folders: ["InteractLog", "ilog-parse"]) == [])
    }

    @Test("docs/ilog-parse.md lists every code with the catalogue's severity and meaning")
    func page() throws {
        #expect(try AnomalyCatalogueCheck.pageProblems(catalogue: InteractLogAnomalies.catalogue, tool: "ilog-parse") == [])
    }
}
