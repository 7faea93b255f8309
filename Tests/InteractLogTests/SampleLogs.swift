import Foundation
import InteractLog
import Testing
import TestSupport

/// The constructed samples of docs/formats/interactlog.md §8 (`SampleData/interactlog/`), by short name.
enum SampleLogs {
    static let java22Trial1 = "data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt"
    static let java22Trial2 = "data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt"
    static let java22CRLF = "data/2023-07-05/P02 (Trial 1) 2023-07-05 - 09-40-51.txt"
    static let java20 = "data/2021-12-08/Anonymous Participant (Trial 1) 2021-12-08 - 14-03-27.txt"
    static let java10 = "data/2017-05-03/Anonymous Participant (Trial 1) 2017-05-03 - 11-22-40.txt"
    static let ipad11 = "experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt"
    static let ipadGlued = "experiments/DCB750CB-BF2B-4D8D-AFB5-1F8D01BEEB08/S014 (Trial 1) 2023-08-15 - 11-20-37.txt"
    static let ipad10 = "experiments/89BBF6D7-1405-4FC4-AF41-741A862C21FC/P02 (Trial 1) 2023-07-24 - 15-31-09.txt"
    static let ipadCopy = "experiments/5BED0907-62A0-4989-A520-3F8D277259B3/P11 (Trial 1) 2023-11-02 - 10-12-45.txt"
    static let all = [java22Trial1, java22Trial2, java22CRLF, java20, java10, ipad11, ipadGlued, ipad10, ipadCopy]

    /// The samples are part of the package (`SampleData/interactlog`), so the tests that read them always run;
    /// `present` stays as their condition so that a trimmed checkout reports them as skipped, not passed.
    static let present = FileManager.default.fileExists(atPath: root.path)

    static let root = TestSupport.packageRoot.appendingPathComponent("SampleData/interactlog")

    /// The samples folder.
    static func folder() throws -> URL { try #require(present ? root : nil) }

    /// The bytes of a sample.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: try folder().appendingPathComponent(name))
    }

    /// A sample parsed and analysed, joined to its `InteractLog.json` when one lies beside it.
    static func analysis(_ name: String) throws -> TrialAnalysis {
        let data = try data(name)
        let json = try folder().appendingPathComponent(name).deletingLastPathComponent()
            .appendingPathComponent("InteractLog.json")
        let sidecar = FileManager.default.fileExists(atPath: json.path) ? try Data(contentsOf: json) : nil
        return TrialAnalysis(try ParsedLog.parse(data, sourceFile: name, skipBadLines: false), sidecarJSON: sidecar)
    }

    /// Parses text written in a test.
    static func parse(_ text: String, name: String = "P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
                      skipBadLines: Bool = false) throws -> TrialAnalysis {
        TrialAnalysis(try ParsedLog.parse(Data(text.utf8), sourceFile: name, skipBadLines: skipBadLines))
    }
}
