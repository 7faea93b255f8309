import Foundation
import MYND
import Tables
import Testing
import TestSupport

/// `MYNDAnomalies.catalogue` against what the library writes, the sources and docs/mynd-parse.md.
@Suite("Anomaly catalogue (mynd-parse)")
struct AnomalyCatalogueTests {
    static let catalogue = Dictionary(uniqueKeysWithValues: MYNDAnomalies.catalogue.map { ($0.code, $0) })

    @Test("SampleData/mynd, read as a study and checked against the example protocol (its generator script too), gives only catalogue codes with their severity")
    func sampleData() throws {
        let folder = TestSupport.packageRoot.appendingPathComponent("SampleData/mynd")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let files = names.filter { $0.hasPrefix("q_") || $0.hasPrefix("r_") || $0.hasSuffix(".py") }
        #expect(files.count == 4)
        var study = MYNDStudy()
        var rows: [Anomaly] = []
        for name in files where !name.hasSuffix(".py") {
            rows += try study.ingest(path: folder.appendingPathComponent(name).path,
                                     data: Data(contentsOf: folder.appendingPathComponent(name)))
        }
        let definitionFolder = folder.appendingPathComponent("definitions")
        let definitions = try FileManager.default.contentsOfDirectory(atPath: definitionFolder.path).sorted().compactMap { name in
            QuestionnaireDefinition.parse(try Data(contentsOf: definitionFolder.appendingPathComponent(name)), fileName: name)
        }
        #expect(!definitions.isEmpty)
        rows += try study.tables(definitions: DefinitionSet(definitions), dateOrder: nil).anomalies
        rows += CompletenessCheck.check(folder: folder.path, files: files.map { FolderFile(path: folder.appendingPathComponent($0).path) },
                                        protocol: .myndExample).anomalies
        #expect(Set(rows.map(\.code)).isSuperset(of: ["I_IGNORED", "W_RUN_RESET"]))
        for row in rows {
            #expect(Self.catalogue[row.code]?.severity == row.severity, "\(row.sourceFile): \(row.code)")
        }
    }

    @Test("Sources/MYND and Sources/mynd-parse write no code outside the catalogue; every entry is declared and used")
    func sources() throws {
        #expect(try AnomalyCatalogueCheck.sourceProblems(catalogue: MYNDAnomalies.catalogue,
                                                         file: "Sources/MYND/MYNDAnomalies.swift",
                                                         folders: ["MYND", "mynd-parse"]) == [])
    }

    @Test("docs/mynd-parse.md lists every code with the catalogue's severity and meaning")
    func page() throws {
        #expect(try AnomalyCatalogueCheck.pageProblems(catalogue: MYNDAnomalies.catalogue, tool: "mynd-parse") == [])
    }
}
