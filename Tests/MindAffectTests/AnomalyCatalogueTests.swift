import Foundation
import MindAffect
import Tables
import Testing
import TestSupport

/// `MindAffectAnomalies.catalogue` against what the library writes, the sources and docs/nt-analyze.md.
@Suite("Anomaly catalogue (nt-analyze)")
struct AnomalyCatalogueTests {
    static let catalogue = Dictionary(uniqueKeysWithValues: MindAffectAnomalies.catalogue.map { ($0.code, $0) })

    @Test("The SampleData save file gives only catalogue codes, each with its severity")
    func sampleData() throws {
        let url = TestSupport.packageRoot.appendingPathComponent("SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt")
        let file = try SaveFile.parse(try Data(contentsOf: url), sourceFile: "sample.txt")
        let rows = SaveFileAnalysis(file, codes: GoldCodeFamily.mgold65_6532.table).anomalies
        #expect(Set(rows.map(\.code)) == ["W_STS", "W_HEADER", "W_TS_NONMONO", "W_UNKNOWN", "W_TRUNC"])
        for row in rows {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.code)")
        }
    }

    @Test("Unreadable lines under --skip-bad-lines, and a blank line, carry their catalogue codes and severity")
    func errorsAndNotes() throws {
        let packet = "rts:10 sts:10  t:DATAPACKET ts:10 v[2x1]:[1.0,2.0,] <-/1.2.3.4:5"
        let lines = [packet, "garbage", " ", "rts:20 sts:20  t:DATAPACKET ts:20 v[3x1]:[1.0,2.0,3.0,] <-/1.2.3.4:5",
                     "rts:30 sts:30  t:DATAPACKET ts:30 v[2x1]:[1.0,x,] <-/1.2.3.4:5", packet]
        let file = try SaveFile.parse(Data((lines.joined(separator: "\n") + "\n").utf8), sourceFile: "t.txt", skipBadLines: true)
        #expect(file.anomalies.map(\.code) == ["E_PREFIX", "I_BLANK", "E_NCH", "E_FLOAT"])
        for row in file.anomalies {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.code)")
        }
        #expect(file.anomalies.first?.raw == "garbage")
    }

    @Test("Sources/MindAffect, Sources/NoiseTagDecoding and Sources/nt-analyze write no code outside the catalogue; every entry is declared and used")
    func sources() throws {
        #expect(try AnomalyCatalogueCheck.sourceProblems(catalogue: MindAffectAnomalies.catalogue,
                                                         file: "Sources/MindAffect/MindAffectAnomalies.swift",
                                                         folders: ["MindAffect", "nt-analyze", "NoiseTagDecoding"]) == [])
    }

    @Test("docs/nt-analyze.md lists every code with the catalogue's severity and meaning")
    func page() throws {
        #expect(try AnomalyCatalogueCheck.pageProblems(catalogue: MindAffectAnomalies.catalogue, tool: "nt-analyze") == [])
    }
}
