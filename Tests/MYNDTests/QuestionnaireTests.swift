import Foundation
import Testing
import Tables
import TestSupport
@testable import MYND

@Suite("Questionnaire results (spec §2)")
struct QuestionnaireTests {
    static let uuid = MYNDTestFiles.uuid

    static func definitions() throws -> DefinitionSet {
        let folder = try #require(MYNDTestFiles.folder)
        let definitions = try ["initial_en.json", "motivation_en.json", "Steps_en.json"].compactMap { name in
            QuestionnaireDefinition.parse(try Data(contentsOf: folder.appendingPathComponent(name)), fileName: name)
        }
        return DefinitionSet(definitions)
    }

    @Test("The real questionnaire: 13 keys, 6 answers, metadata typed, labels from initial_en.json",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func realQuestionnaire() throws {
        let url = try #require(MYNDTestFiles.questionnaire), definitions = try Self.definitions()
        #expect(definitions.definitions.map(\.scenario) == ["initial", "motivation"])
        let result = try QuestionnaireResult.parse(try Data(contentsOf: url), sourceFile: url.path)
        #expect(result.subjectID == Self.uuid)
        #expect(result.scenario == "initial")
        #expect(result.day == 1 && result.sessionID == 0 && result.runID == 0)
        #expect(result.locale == "en")
        #expect(result.sessionStart?.raw == "05/02/2020, 5:09:05 PM GMT+02:00")
        #expect(result.anomalies.isEmpty)
        #expect(result.answers.map(\.questionID) == ["handedness", "meditation", "work", "age", "degree", "smartphone"])
        let definition = definitions.definition(scenario: result.scenario, locale: result.locale)
        let (rows, anomalies) = result.answerRows(definition: definition)
        #expect(anomalies.isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.questionID, $0) })
        #expect(byID["handedness"]?.number == 2)
        #expect(byID["handedness"]?.label == "Lefthanded")
        #expect(byID["handedness"]?.questionTitle == "Handedness")
        #expect(byID["handedness"]?.questionText == "Which hand is or was your dominant one?")
        #expect(byID["degree"]?.label == "University or college degree")
        #expect(byID["smartphone"]?.label == "Very experienced")
        #expect(byID["meditation"]?.label == "Very experienced")
        #expect(byID["work"]?.raw == "Researcher")
        #expect(byID["work"]?.number == nil)
        #expect(byID["work"]?.questionType == "text")
        // 1983-05-02 15:07:32 UTC + 2 h is still 2 May.
        #expect(byID["age"]?.date == "1983-05-02")
        #expect(byID["age"]?.questionType == "date")
        #expect(rows.allSatisfy { $0.asked == true && $0.answered })
        // The session start in UTC: 2020-05-02T15:09:05Z.
        let table = AnswerTable.table([result], rows: [rows], dateOrders: [.mdy])
        guard case .timestamp(let starts)? = table[column: "session_start_utc"]?.values else { Issue.record(); return }
        #expect(starts.allSatisfy { $0 == 1_588_432_145 })
        #expect(table.columnNames == ["source_file", "subject_id", "scenario", "day", "session_id", "run_id",
                                      "session_start_raw", "session_start_utc", "utc_offset_min", "locale",
                                      "question_id", "question_type", "question_title", "question_text", "asked", "answered",
                                      "value_raw", "value_num", "value_label", "value_date"])
    }

    @Test("No answer stays missing with answered = false; undefined, missing and unlabelled answers are flagged",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func noAnswerAndDefinitionChecks() throws {
        let definitions = try Self.definitions()
        let text = """
        {
          "subjectID" : "\(Self.uuid)", "locale" : "en", "runID" : 3, "sessionID" : 1,
          "sessionStartTime" : "05\\/03\\/2020, 9:00:00 AM GMT+02:00", "title" : "motivation", "day" : 2,
          "howDoYouFeelToday" : "no answer",
          "motivation" : "7",
          "extraQuestion" : "hello"
        }
        """
        let path = try MYNDTestFiles.write(text, name: "q_motivation_2_1_3_\(Self.uuid).json")
        let result = try QuestionnaireResult.parse(Data(text.utf8), sourceFile: path)
        let (rows, anomalies) = result.answerRows(definition: definitions.definition(scenario: "motivation", locale: "en"))
        let feel = rows.first { $0.questionID == "howDoYouFeelToday" }
        #expect(feel?.answered == false)
        #expect(feel?.raw == "no answer")
        #expect(feel?.number == nil && feel?.label == nil)
        #expect(rows.first { $0.questionID == "motivation" }?.number == 7)
        #expect(rows.first { $0.questionID == "extraQuestion" }?.questionType == nil)
        #expect(anomalies.map(\.code).sorted() == ["W_ANSWER_MISSING", "W_ANSWER_UNDEFINED", "W_ANSWER_UNLABELLED"])
        #expect(anomalies.first { $0.code == "W_ANSWER_MISSING" }?.location == "detailedFeeling")
        #expect(anomalies.first { $0.code == "W_ANSWER_UNDEFINED" }?.line == 6)
    }

    @Test("Metadata of a wrong type is repaired from the name (warning type) or is fatal with file:line:col")
    func wrongTypes() throws {
        let name = "q_initial_1_0_0_\(Self.uuid).json"
        let repaired = """
        {
          "day" : "1",
          "sessionID" : [0],
          "runID" : 0, "title" : "initial", "subjectID" : "\(Self.uuid)", "locale" : "en",
          "sessionStartTime" : "05/02/2020, 5:09:05 PM GMT+02:00"
        }
        """
        let result = try QuestionnaireResult.parse(Data(repaired.utf8), sourceFile: name)
        #expect(result.day == 1 && result.sessionID == 0)
        #expect(result.anomalies.map(\.code) == ["W_TYPE", "W_TYPE", "W_NO_ANSWERS"])
        #expect(result.anomalies.map(\.line) == [2, 3, nil])

        let unnamed = repaired.replacingOccurrences(of: "\"sessionID\" : [0]", with: "\"sessionID\" : [0], \"day2\" : 1")
        #expect(throws: MYNDError.json(file: "q_x.json", line: 3, column: 17,
                                       message: "expected a string or int value for \"sessionID\", found [")) {
            try QuestionnaireResult.parse(Data(unnamed.utf8), sourceFile: "q_x.json")
        }
        let numberAnswer = "{\n  \"title\" : \"initial\",\n  \"age\" : 19.5\n}"
        #expect(throws: MYNDError.json(file: "q_x.json", line: 3, column: 11,
                                       message: "expected a string value for \"age\", found 19.5")) {
            try QuestionnaireResult.parse(Data(numberAnswer.utf8), sourceFile: "q_x.json")
        }
        let onlyMetadata = try QuestionnaireResult.parse(Data(repaired.utf8), sourceFile: name)
        #expect(onlyMetadata.answers.isEmpty)
        let brokenLocale = "{\"title\" : \"initial\", \"locale\" : 5}"
        #expect(throws: MYNDError.self) { try QuestionnaireResult.parse(Data(brokenLocale.utf8), sourceFile: name) }
    }

    @Test("Missing keys come from the file name; a name mismatch and an unparsed name are warnings")
    func missingKeys() throws {
        let text = "{ \"title\" : \"motivation\", \"locale\" : \"de\", \"feeling\" : \"gut\" }"
        let result = try QuestionnaireResult.parse(Data(text.utf8), sourceFile: "q_initial_4_11_20_\(Self.uuid).json")
        #expect(result.day == 4 && result.sessionID == 11 && result.runID == 20)
        #expect(result.subjectID == Self.uuid)
        #expect(result.scenario == "motivation")
        #expect(result.anomalies.map(\.code) == ["W_NAME_MISMATCH", "W_TYPE", "W_TYPE", "W_TYPE", "W_TYPE", "W_TIME_UNPARSED"])
        let unnamed = try QuestionnaireResult.parse(Data(text.utf8), sourceFile: "answers.json")
        #expect(unnamed.anomalies.first?.code == "W_NAME_UNPARSED")
        #expect(unnamed.day == nil)
    }

    @Test("Out-of-range metadata numbers do not crash: they fit the int64 columns")
    func hugeNumbers() throws {
        let text = "{\"title\": \"initial\", \"day\": 5000000000000, \"sessionID\": -7, \"runID\": 1e15, \"x\": \"1\"}"
        let result = try QuestionnaireResult.parse(Data(text.utf8), sourceFile: "q.json")
        #expect(result.day == 5_000_000_000_000 && result.sessionID == -7 && result.runID == 1_000_000_000_000_000)
        let table = AnswerTable.table([result], rows: [result.answerRows(definition: nil).rows], dateOrders: [nil])
        #expect(table[column: "day"]?.values == .int64([5_000_000_000_000]))
        #expect(table[column: "session_id"]?.values == .int64([-7]))
    }

    @Test("JSON syntax errors, non-objects, definitions and foreign JSON are fatal with the position")
    func malformed() {
        #expect(throws: MYNDError.json(file: "q.json", line: 2, column: 17, message: "expected ',' or '}', found '\"'")) {
            try QuestionnaireResult.parse(Data("{\n  \"title\" : \"a\" \"day\" : 1 }".utf8), sourceFile: "q.json")
        }
        #expect(throws: MYNDError.json(file: "q.json", line: 1, column: 1,
                                       message: "expected a JSON object starting with {, found '['")) {
            try QuestionnaireResult.parse(Data("[1, 2]".utf8), sourceFile: "q.json")
        }
        #expect(throws: MYNDError.self) {
            try QuestionnaireResult.parse(Data("{\"identifier\": \"initial\", \"questions\": []}".utf8), sourceFile: "q.json")
        }
        #expect(throws: MYNDError.self) {
            try QuestionnaireResult.parse(Data("{\"colour\": \"red\"}".utf8), sourceFile: "q.json")
        }
        #expect(throws: MYNDError.self) {
            try QuestionnaireResult.parse(Data("{\"title\": \"a\"".utf8), sourceFile: "q.json")
        }
    }

    @Test("Definitions: reading stops at an entry lacking identifier or type (asked = false after it)")
    func definitionStop() {
        let text = """
        {"questions": [
          {"identifier": "a", "type": "mc", "choices": [{"text": "Yes", "value": 1}]},
          {"identifier": "b", "type": "slider"},
          {"title": "no identifier"},
          {"identifier": "c", "type": "numeric", "optional": true}
        ]}
        """
        let definition = QuestionnaireDefinition.parse(Data(text.utf8), fileName: "custom_de.json")
        #expect(definition?.scenario == "custom" && definition?.language == "de")
        #expect(definition?.questions.map(\.identifier) == ["a", "c"])
        #expect(definition?.questions.map(\.asked) == [true, false])
        #expect(definition?.question("a")?.label(of: 1) == "Yes")
    }

    @Test("Picked dates: the UTC instant plus the session's offset, across midnight")
    func pickedDates() {
        #expect(QuestionnaireResult.pickedDate("19830502 150732 0000", offsetMinutes: 120) == "1983-05-02")
        #expect(QuestionnaireResult.pickedDate("19830502 230732 0000", offsetMinutes: 120) == "1983-05-03")
        #expect(QuestionnaireResult.pickedDate("19830502 010732 0000", offsetMinutes: -300) == "1983-05-01")
        #expect(QuestionnaireResult.pickedDate("1983-05-02", offsetMinutes: 0) == nil)
    }

    @Test("File names: the grammar, UUID case, .asc")
    func fileNames() {
        let name = MYNDFileName(path: "/x/r_rest_1_2_1_565c1bb8-f700-46de-9508-efaa70288d44.hdf.asc")
        #expect(name == MYNDFileName(kind: .recording, scenario: "rest", day: 1, sessionID: 2, runID: 1,
                                     subjectID: Self.uuid, encrypted: true))
        #expect(MYNDFileName(path: "q_initial_1_0_0_\(Self.uuid).json")?.kind == .questionnaire)
        #expect(MYNDFileName(path: "r_rest_1_2_\(Self.uuid).hdf") == nil)
        #expect(MYNDFileName(path: "R_rest_1_2_1_\(Self.uuid).hdf") == nil)
        #expect(MYNDFileName(path: "q_initial_1_0_0_\(Self.uuid).hdf") == nil)
        #expect(MYNDFileName(path: "message.json") == nil)
    }
}
