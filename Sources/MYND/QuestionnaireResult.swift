import Foundation
import Tables

/// One stored answer of a questionnaire result: the question identifier and the app's alphanumeric string.
public struct StoredAnswer: Sendable, Equatable {
    /// The question identifier (the JSON key).
    public var questionID: String
    /// The stored string (`"2"`, `"19830502 150732 0000"`, `"no answer"`).
    public var raw: String
    /// The JSON line of the value.
    public var line: Int

    /// `false` for the app's literal `no answer` (a skipped optional question).
    public var answered: Bool { raw != QuestionnaireResult.noAnswer }
}

/// A questionnaire result file `q_<scenario>_<day>_<session>_<run>_<UUID>.json` (spec §2): one flat JSON object of
/// answers (strings) merged with the session's metadata (ints and strings).
public struct QuestionnaireResult: Sendable, Equatable {
    /// The literal the app stores for a skipped question.
    public static let noAnswer = "no answer"
    /// The metadata keys the app merges into the answers.
    public static let metadataKeys: Set<String> = ["title", "day", "sessionID", "runID", "subjectID",
                                                   "sessionStartTime", "locale"]

    /// The path as given.
    public var sourceFile: String
    /// The name's fields, when the name follows the grammar.
    public var fileName: MYNDFileName?
    public var subjectID: String?
    /// The scenario (`title`, else the name's).
    public var scenario: String?
    public var day: Int?
    public var sessionID: Int?
    public var runID: Int?
    /// `sessionStartTime`, parsed as far as it goes.
    public var sessionStart: LocalizedTime?
    /// Device language code.
    public var locale: String?
    /// The answers in file order.
    public var answers: [StoredAnswer]
    /// Recoverable oddities (`type`, `name-mismatch`, `time-unparsed`, `name-unparsed`).
    public var anomalies: [Anomaly]

    /// Parses a result file's bytes. Throws for JSON syntax errors, answers that are not strings, metadata of a
    /// wrong type that the file name cannot replace, and JSON that is not a questionnaire result.
    public static func parse(_ data: Data, sourceFile: String) throws(MYNDError) -> QuestionnaireResult {
        let members: [JSONMember]
        do {
            members = try JSONDocument.parseObject([UInt8](data))
        } catch {
            throw .json(file: sourceFile, line: error.line, column: error.column, message: error.message)
        }
        let keys = Set(members.map(\.key))
        if members.contains(where: { $0.key == "questions" }), keys.contains("identifier") {
            throw .wrongContent(file: sourceFile, expected: "a MYND questionnaire result (q_*.json)",
                                found: "a questionnaire definition (pass its folder with --definitions)")
        }
        guard !keys.isDisjoint(with: metadataKeys) else {
            throw .wrongContent(file: sourceFile, expected: "a MYND questionnaire result with the keys "
                                + metadataKeys.sorted().joined(separator: ", "),
                                found: members.isEmpty ? "an empty object" : "none of them")
        }
        let name = MYNDFileName(path: sourceFile)
        var result = QuestionnaireResult(sourceFile: sourceFile, fileName: name, subjectID: nil, scenario: nil,
                                         day: nil, sessionID: nil, runID: nil, sessionStart: nil, locale: nil,
                                         answers: [], anomalies: [])
        if name == nil || name?.kind != .questionnaire {
            result.warn(.nameUnparsed, nil, nil,
                        "the file name does not follow q_<scenario>_<day>_<session>_<run>_<UUID>.json; read by content")
        }
        for member in members {
            switch member.key {
            case "day": result.day = try result.integer(member, fromName: name?.day)
            case "sessionID": result.sessionID = try result.integer(member, fromName: name?.sessionID)
            case "runID": result.runID = try result.integer(member, fromName: name?.runID)
            case "title": result.scenario = try result.text(member, fromName: name?.scenario)
            case "subjectID": result.subjectID = try result.text(member, fromName: name?.subjectID)
            case "locale": result.locale = try result.text(member, fromName: nil)
            case "sessionStartTime":
                if let text = try result.text(member, fromName: nil) {
                    let time = LocalizedTime(text)
                    result.sessionStart = time
                    if let problem = time.problem {
                        result.warn(.timeUnparsed, member.line, member.key,
                                    "sessionStartTime only partly read (\(problem))", raw: text)
                    }
                }
            default:
                guard case .string(let text) = member.value else {
                    throw .json(file: sourceFile, line: member.line, column: member.column,
                                message: "expected a string value for \"\(member.key)\", found \(member.value.quoted)")
                }
                result.answers.append(StoredAnswer(questionID: member.key, raw: text, line: member.line))
            }
        }
        result.fillFromName(keys: keys)
        return result
    }

    private mutating func warn(_ code: AnomalyCode, _ line: Int?, _ location: String?, _ message: String,
                               raw: String? = nil) {
        anomalies.append(Anomaly(sourceFile: sourceFile, line: line, location: location, code: code, message: message,
                                 raw: raw))
    }

    /// An int metadata value: a JSON integer, a string of digits (warning `type`), or else the name's value.
    private mutating func integer(_ member: JSONMember, fromName: Int?) throws(MYNDError) -> Int? {
        if let value = member.value.integer { check(member.key, value, fromName, member.line); return value }
        if case .string(let text) = member.value, let value = Int(text.trimmingCharacters(in: .whitespaces)) {
            warn(.type, member.line, member.key, "\"\(member.key)\" is a string, expected an int; read as \(value)",
                 raw: text)
            check(member.key, value, fromName, member.line)
            return value
        }
        guard let fromName else {
            throw .json(file: sourceFile, line: member.line, column: member.column,
                        message: "expected a string or int value for \"\(member.key)\", found \(member.value.quoted)")
        }
        warn(.type, member.line, member.key,
             "\"\(member.key)\" is \(member.value.quoted), expected an int; taken from the file name (\(fromName))",
             raw: member.value.quotedInFull)
        return fromName
    }

    /// A string metadata value, or else the name's value.
    private mutating func text(_ member: JSONMember, fromName: String?) throws(MYNDError) -> String? {
        if case .string(let text) = member.value {
            if let fromName, text.caseInsensitiveCompare(fromName) != .orderedSame {
                warn(.nameMismatch, member.line, member.key,
                     "\"\(member.key)\" is \"\(text)\" but the file name says \"\(fromName)\"", raw: text)
            }
            return text
        }
        guard let fromName else {
            throw .json(file: sourceFile, line: member.line, column: member.column,
                        message: "expected a string value for \"\(member.key)\", found \(member.value.quoted)")
        }
        warn(.type, member.line, member.key,
             "\"\(member.key)\" is \(member.value.quoted), expected a string; taken from the file name (\(fromName))",
             raw: member.value.quotedInFull)
        return fromName
    }

    private mutating func check(_ key: String, _ value: Int, _ fromName: Int?, _ line: Int) {
        if let fromName, fromName != value {
            warn(.nameMismatch, line, key, "\"\(key)\" is \(value) but the file name says \(fromName)",
                 raw: String(value))
        }
    }

    /// Metadata keys absent from the JSON are taken from the name (warning `type`).
    private mutating func fillFromName(keys: Set<String>) {
        for key in ["day", "sessionID", "runID", "title", "subjectID"] where !keys.contains(key) {
            let value: String?
            switch key {
            case "day": day = fileName?.day; value = day.map(String.init)
            case "sessionID": sessionID = fileName?.sessionID; value = sessionID.map(String.init)
            case "runID": runID = fileName?.runID; value = runID.map(String.init)
            case "title": scenario = fileName?.scenario; value = scenario
            default: subjectID = fileName?.subjectID; value = subjectID
            }
            warn(.type, nil, key, value.map { "\"\(key)\" is missing; taken from the file name (\($0))" }
                 ?? "\"\(key)\" is missing and the file name does not give it")
        }
        if !keys.contains("sessionStartTime") {
            warn(.timeUnparsed, nil, "sessionStartTime", "\"sessionStartTime\" is missing; session_start_utc is NA")
        }
        if answers.isEmpty {
            warn(.noAnswers, nil, nil, "the result holds metadata but no answers: no answers rows")
        }
    }
}
