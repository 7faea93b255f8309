import Foundation
import InteractLog
import TestSupport

/// The constructed samples of spec §8 (`interactlog-samples/`), by short name.
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

    /// The samples folder, or `nil` (with a printed reason) when the specs are absent.
    static var folder: URL? { TestSupport.specs("interactlog-samples") }

    /// The bytes of a sample.
    static func data(_ name: String) throws -> Data? {
        guard let folder else { return nil }
        return try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// A sample parsed and analysed, joined to its `InteractLog.json` when one lies beside it.
    static func analysis(_ name: String) throws -> TrialAnalysis? {
        guard let folder, let data = try data(name) else { return nil }
        let json = folder.appendingPathComponent(name).deletingLastPathComponent().appendingPathComponent("InteractLog.json")
        let sidecar = try? Data(contentsOf: json)
        return TrialAnalysis(try ParsedLog.parse(data, sourceFile: name, skipBadLines: false), sidecarJSON: sidecar)
    }

    /// Parses text written in a test.
    static func parse(_ text: String, name: String = "P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
                      skipBadLines: Bool = false) throws -> TrialAnalysis {
        TrialAnalysis(try ParsedLog.parse(Data(text.utf8), sourceFile: name, skipBadLines: skipBadLines))
    }
}
