import Foundation
import Tables
import Testing
import TestSupport
import Brainiac

/// `BrainiacAnomalies.catalogue` against what the decoder writes, the sources and docs/bt-decode.md.
@Suite("Anomaly catalogue (bt-decode)")
struct AnomalyCatalogueTests {
    static let catalogue = Dictionary(uniqueKeysWithValues: BrainiacAnomalies.catalogue.map { ($0.code, $0) })

    @Test("Every event kind has a catalogue code, and its row the code's severity")
    func everyKind() {
        for kind in CaptureEvent.Kind.allCases {
            let event = CaptureEvent(kind: kind, segment: 0, byteOffset: 40, byteCount: 3, skippedPrefix: [0, 0xAB, 0xFF])
            let rows = CaptureTables.anomalies([event], sourceFile: "x.bin")
            #expect(rows.count == 1)
            let entry = Self.catalogue[kind.anomalyCode.code]
            #expect(entry == kind.anomalyCode, "\(kind)")
            #expect(rows.first?.code == entry?.code && rows.first?.severity == entry?.severity, "\(kind)")
        }
        // One kind per code: no two kinds share a code, and no code is left without a kind.
        #expect(Set(CaptureEvent.Kind.allCases.map(\.anomalyCode.code)) == Set(Self.catalogue.keys))
        #expect(CaptureEvent.Kind.gap.anomalyCode.code == "I_GAP" && CaptureEvent.Kind.resync.anomalyCode.code == "W_RESYNC")
    }

    @Test("The SampleData captures give only catalogue codes, each with its severity")
    func sampleData() throws {
        let folder = TestSupport.packageRoot.appendingPathComponent("SampleData/brainiac")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".bin") }.sorted()
        #expect(names.count == 4)
        var rows: [Anomaly] = []
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let (_, stream) = try decodeCapture(bytes)
            rows += CaptureTables.anomalies(stream.events, sourceFile: name)
        }
        #expect(Set(rows.map(\.code)).isSuperset(of: ["W_LEADING_BYTES", "I_GAP", "W_RESYNC", "W_TRUNCATED_TAIL", "W_DISCONTINUITY"]))
        for row in rows {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.sourceFile): \(row.code)")
        }
    }

    @Test("Sources/Brainiac and Sources/bt-decode write no code outside the catalogue; every entry is declared and used")
    func sources() throws {
        #expect(try AnomalyCatalogueCheck.sourceProblems(catalogue: BrainiacAnomalies.catalogue,
                                                         file: "Sources/Brainiac/BrainiacAnomalies.swift",
                                                         folders: ["Brainiac", "bt-decode"]) == [])
    }

    @Test("docs/bt-decode.md lists every code with the catalogue's severity and meaning")
    func page() throws {
        #expect(try AnomalyCatalogueCheck.pageProblems(catalogue: BrainiacAnomalies.catalogue, tool: "bt-decode") == [])
    }
}
