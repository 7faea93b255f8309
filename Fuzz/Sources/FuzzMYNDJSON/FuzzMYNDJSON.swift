import Foundation
import FuzzSupport
import MYND
import Tables

private let uuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
/// The questionnaire results and definition of SampleData, the fixed halves of the pairs below.
private let sampleResults = [
    (try? QuestionnaireResult.parse(Fuzz.sample("mynd/q_initial_1_0_0_\(uuid).json"), sourceFile: "q_initial_1_0_0_\(uuid).json"))!,
    (try? QuestionnaireResult.parse(Fuzz.sample("mynd/q_motivation_1_1_2_\(uuid).json"), sourceFile: "q_motivation_1_1_2_\(uuid).json"))!,
]
private let sampleDefinitions = DefinitionSet([
    QuestionnaireDefinition.parse(Fuzz.sample("mynd/definitions/motivation_en.json"), fileName: "motivation_en.json")!,
])
/// A subject folder's names for the protocol check: results, recordings, encrypted ones, a duplicated run, a gap.
private let folderNames = [
    "q_initial_1_0_0_\(uuid).json", "q_motivation_1_1_2_\(uuid).json", "r_rest_1_2_3_\(uuid).hdf",
    "r_rest_1_2_3_\(uuid).hdf.asc", "r_music_2_9_7_\(uuid).hdf", "q_motivation_2_8_4_\(uuid).json.asc",
    "message.json", "consent.pdf",
]

/// mynd-parse's JSON reading, each input three ways: as a questionnaire result (`q_*.json`) through
/// ``MYNDFormat`` into its tables, labelled by the definition of SampleData; as a questionnaire definition
/// (`--definitions`) labelling the results of SampleData; and as a study protocol (`--check-protocol
/// --protocol`) checked against a subject folder's names. Its lines are also taken as file names for the
/// protocol check (the names are parsed for scenario, day, session and run).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMYNDJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Fuzz.data(start, count)

    // A questionnaire result.
    let format = MYNDFormat(definitions: sampleDefinitions)
    if let item = try? format.read(InputSource(path: "fuzz/q_motivation_1_1_2_\(uuid).json", contents: data)),
       let output = try? format.tables([item]) {
        Fuzz.exercise(output.tables)
    }

    // A definition.
    if let definition = QuestionnaireDefinition.parse(data, fileName: "fuzz/motivation_en.json") {
        var study = MYNDStudy()
        sampleResults.forEach { study.add(.questionnaire($0)) }
        // Only a samples scratch file that cannot be read back throws here, and this study keeps none: a finding.
        do { Fuzz.exercise(try study.tables(definitions: DefinitionSet([definition]), dateOrder: nil).tables) } catch {
            fatalError("the tables of a study held in memory threw: \(error)")
        }
    }

    // A study protocol.
    if let studyProtocol = try? StudyProtocol.parse(data, sourceFile: "fuzz/protocol.json") {
        let (rows, anomalies) = CompletenessCheck.check(folder: "fuzz/\(uuid)",
                                                        files: folderNames.map { FolderFile(path: "fuzz/\(uuid)/\($0)") },
                                                        protocol: studyProtocol)
        Fuzz.exercise([CompletenessCheck.table(folder: "fuzz/\(uuid)", rows: rows), .anomalies(anomalies)])
    }

    // File names.
    let names = String(decoding: data.prefix(4096), as: UTF8.self).split(separator: "\n").prefix(16)
        .map { FolderFile(path: "fuzz/\(uuid)/\($0)") }
    if !names.isEmpty {
        let (rows, anomalies) = CompletenessCheck.check(folder: "fuzz/\(uuid)", files: names, protocol: .myndExample)
        Fuzz.exercise([CompletenessCheck.table(folder: "fuzz/\(uuid)", rows: rows), .anomalies(anomalies)])
    }
    return 0
}

@_cdecl("FuzzMYNDJSON_main")
public func fuzzMYNDJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzMYNDJSON)
}
