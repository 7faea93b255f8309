import Foundation

/// The scenarios a study expects, day by day (spec §7.1): one slot per scenario, with the number of files.
public struct StudyProtocol: Sendable, Equatable {
    /// One scenario of the study's list.
    public struct Slot: Sendable, Equatable {
        public var sessionID: Int
        public var day: Int
        public var scenario: String
        public var kind: MYNDFileName.Kind
        /// Files expected: 1 questionnaire, or 3 recording blocks.
        public var files: Int

        public init(sessionID: Int, day: Int, scenario: String, kind: MYNDFileName.Kind, files: Int) {
            self.sessionID = sessionID
            self.day = day
            self.scenario = scenario
            self.kind = kind
            self.files = files
        }
    }

    public var name: String
    public var slots: [Slot]

    public init(name: String, slots: [Slot]) {
        self.name = name
        self.slots = slots
    }

    /// The example study `mynd_example` of the app's `StudyModel.swift`: 7 days, 25 scenarios, 8 questionnaires
    /// and 17 recording scenarios of 3 blocks.
    public static let myndExample: StudyProtocol = {
        let days: [[String]] = [
            ["initial q", "motivation q", "rest r", "memories r"],
            ["motivation q", "memories r", "rest r", "memories r"],
            ["motivation q", "music r", "rest r"],
            ["motivation q", "rest r", "memories r"],
            ["motivation q", "rest r", "music r", "memories r"],
            ["motivation q", "memories r", "rest r", "memories r"],
            ["motivation q", "rest r", "music r"],
        ]
        var slots: [Slot] = []
        for (day, scenarios) in days.enumerated() {
            for entry in scenarios {
                let parts = entry.split(separator: " ")
                let kind: MYNDFileName.Kind = parts[1] == "q" ? .questionnaire : .recording
                slots.append(Slot(sessionID: slots.count, day: day + 1, scenario: String(parts[0]), kind: kind,
                                  files: kind == .questionnaire ? 1 : 3))
            }
        }
        return StudyProtocol(name: "mynd_example", slots: slots)
    }()

    /// Reads `{"name": …, "slots": [{"session_id": 0, "day": 1, "scenario": "initial", "kind": "q", "files": 1}, …]}`.
    public static func parse(_ data: Data, sourceFile: String) throws(MYNDError) -> StudyProtocol {
        let document: JSONValue
        do {
            document = try JSONDocument.parse([UInt8](data))
        } catch {
            throw .json(file: sourceFile, line: error.line, column: error.column, message: error.message)
        }
        guard case .array(let entries)? = document["slots"] else {
            throw .wrongContent(file: sourceFile, expected: "a protocol object with a \"slots\" array",
                                found: document.quoted)
        }
        var slots: [Slot] = []
        for (index, entry) in entries.enumerated() {
            guard let session = entry["session_id"]?.integer, let day = entry["day"]?.integer,
                  let scenario = entry["scenario"]?.text, let kindText = entry["kind"]?.text,
                  let kind = MYNDFileName.Kind(rawValue: kindText) else {
                throw .wrongContent(file: sourceFile, expected: "slot \(index + 1) with session_id, day, scenario and kind q or r",
                                    found: "\(entry.members.map(\.key))")
            }
            slots.append(Slot(sessionID: session, day: day, scenario: scenario, kind: kind,
                              files: entry["files"]?.integer ?? (kind == .questionnaire ? 1 : 3)))
        }
        return StudyProtocol(name: document["name"]?.text ?? sourceFile, slots: slots)
    }
}
