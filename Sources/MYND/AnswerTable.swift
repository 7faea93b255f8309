import Tables

/// One row of the `answers` table: one stored answer, interpreted with its question definition (spec §2, §8).
public struct AnswerRow: Sendable, Equatable {
    public var questionID: String
    /// The question's type from the definition; `nil` without one.
    public var questionType: String?
    public var questionTitle: String?
    /// The question's text from the definition (placeholders such as `#patientName#` kept raw).
    public var questionText: String?
    /// Whether the app asked the question (`nil` without a definition).
    public var asked: Bool?
    public var answered: Bool
    public var raw: String
    public var number: Double?
    public var label: String?
    /// The picked local date `yyyy-MM-dd` of a date answer.
    public var date: String?
}

extension QuestionnaireResult {
    /// The answers interpreted with `definition` (or by their look when there is none), with the anomalies
    /// `answer-undefined`, `answer-missing`, `answer-unlabelled`.
    public func answerRows(definition: QuestionnaireDefinition?) -> (rows: [AnswerRow], anomalies: [Anomaly]) {
        var anomalies: [Anomaly] = []
        var rows: [AnswerRow] = []
        for answer in answers {
            let question = definition?.question(answer.questionID)
            var row = AnswerRow(questionID: answer.questionID, questionType: question?.type,
                                questionTitle: question?.title, questionText: question?.text, asked: definition == nil ? nil : (question?.asked ?? false),
                                answered: answer.answered, raw: answer.raw, number: nil, label: nil, date: nil)
            if let definition, question == nil {
                anomalies.append(Anomaly(sourceFile: sourceFile, line: answer.line, location: answer.questionID,
                                         code: .answerUndefined,
                                         message: "\"\(answer.questionID)\" is not a question of \(definition.scenario)_\(definition.language).json",
                                         raw: answer.raw))
            }
            if answer.answered {
                interpret(answer, question: question, into: &row, anomalies: &anomalies)
            }
            rows.append(row)
        }
        if let definition {
            let present = Set(answers.map(\.questionID))
            for question in definition.questions where question.asked && !question.optional
                && question.type != "instruction" && !present.contains(question.identifier) {
                anomalies.append(Anomaly(sourceFile: sourceFile, location: question.identifier,
                                         code: .answerMissing,
                                         message: "required question \"\(question.identifier)\" has no answer in the file"))
            }
        }
        return (rows, anomalies)
    }

    private func interpret(_ answer: StoredAnswer, question: QuestionnaireDefinition.Question?,
                           into row: inout AnswerRow, anomalies: inout [Anomaly]) {
        let type = question?.type ?? guessedType(answer.raw)
        switch type {
        case "mc":
            guard let value = Int(answer.raw) else { return }
            row.number = Double(value)
            row.label = question?.label(of: value)
            if let question, row.label == nil {
                anomalies.append(Anomaly(sourceFile: sourceFile, line: answer.line, location: answer.questionID,
                                         code: .answerUnlabelled,
                                         message: "value \(value) is not among the choices of \"\(question.identifier)\"",
                                         raw: answer.raw))
            }
        case "numeric":
            row.number = Int(answer.raw).map(Double.init)
        case "text":
            if question?.input == "number" { row.number = Double(answer.raw) }
        case "date":
            row.date = QuestionnaireResult.pickedDate(answer.raw, offsetMinutes: sessionStart?.offsetMinutes ?? 0)
        default:
            break
        }
    }

    /// Without a definition: the app's date form is a date, an integer a number (`mc` reads its value).
    private func guessedType(_ raw: String) -> String {
        if QuestionnaireResult.pickedDate(raw, offsetMinutes: 0) != nil { return "date" }
        if Int(raw) != nil { return "numeric" }
        return "text"
    }

    /// The local date picked, from the app's `yyyyMMdd HHmmss 0000` (a UTC instant with its punctuation
    /// removed) plus the session's UTC offset (spec §2.2).
    public static func pickedDate(_ raw: String, offsetMinutes: Int) -> String? {
        let parts = raw.split(separator: " ")
        guard parts.count == 3, parts[0].count == 8, parts[1].count == 6, parts[2].count == 4,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let ymd = Int(parts[0]), let hms = Int(parts[1]), let zone = Int(parts[2]) else { return nil }
        let (year, month, day) = (ymd / 10_000, ymd / 100 % 100, ymd % 100)
        let (hour, minute, second) = (hms / 10_000, hms / 100 % 100, hms % 100)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // The sign of the stored zone was lost; the app writes UTC (0000).
        let storedZone = (zone / 100) * 60 + zone % 100
        let days = CivilTime.days(year: year, month: month, day: day)
        let utcSeconds = days * 86_400 + hour * 3600 + minute * 60 + second - storedZone * 60
        let local = utcSeconds + offsetMinutes * 60
        let floorDays = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let date = CivilTime.date(days: floorDays)
        return zeroPadded(date.year, 4) + "-" + zeroPadded(date.month, 2) + "-" + zeroPadded(date.day, 2)
    }
}

/// `value` in decimal, left-padded with zeros to `width` digits.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Builds the `answers` table.
public enum AnswerTable {
    /// The table of answers of several results; `rows[i]` belongs to `results[i]`, `dateOrders[i]` is the date
    /// order resolved for that result's subject.
    public static func table(_ results: [QuestionnaireResult], rows: [[AnswerRow]],
                             dateOrders: [DateOrder?]) -> Table {
        var c = Columns()
        for (index, result) in results.enumerated() {
            let utc = dateOrders[index].flatMap { result.sessionStart?.utcSeconds(order: $0) }
            for row in rows[index] {
                c.source.append(result.sourceFile)
                c.subject.append(result.subjectID)
                c.scenario.append(result.scenario)
                c.day.append(result.day)
                c.session.append(result.sessionID)
                c.run.append(result.runID)
                c.startRaw.append(result.sessionStart?.raw)
                c.startUTC.append(utc)
                c.offset.append(result.sessionStart?.offsetMinutes)
                c.locale.append(result.locale)
                c.question.append(row.questionID)
                c.type.append(row.questionType)
                c.title.append(row.questionTitle)
                c.text.append(row.questionText)
                c.asked.append(row.asked)
                c.answered.append(row.answered)
                c.raw.append(row.raw)
                c.number.append(row.number)
                c.label.append(row.label)
                c.date.append(row.date)
            }
        }
        return Table("answers", [
            .string("source_file", c.source, description: "the input path as given"),
            .string("subject_id", c.subject, description: "the subject's UUID"),
            .string("scenario", c.scenario, description: "the questionnaire's scenario (title)"),
            .int64("day", c.day, description: "study day, 1-based"),
            .int64("session_id", c.session, description: "index of the scenario in the study's list"),
            .int64("run_id", c.run, description: "the app's run counter"),
            .string("session_start_raw", c.startRaw, description: "sessionStartTime as stored (localized)"),
            .timestamp("session_start_utc", c.startUTC, description: "sessionStartTime as an instant"),
            .int64("utc_offset_min", c.offset, unit: "min", description: "offset of the device clock from UTC"),
            .string("locale", c.locale, description: "device language code"),
            .string("question_id", c.question, description: "the answer's JSON key"),
            .string("question_type", c.type, description: "mc, text, date, numeric (from --definitions)"),
            .string("question_title", c.title, description: "the question's title in the definition (raw)"),
            .string("question_text", c.text, description: "from the definition; placeholders such as #patientName# kept raw"),
            .bool("asked", c.asked, description: "false for questions after the app stopped reading the definition"),
            .bool("answered", c.answered, description: "false for the app's \"no answer\""),
            .string("value_raw", c.raw, description: "the stored string"),
            .float("value_num", c.number, description: "the number of mc, numeric and number answers"),
            .string("value_label", c.label, description: "the choice text of an mc value"),
            .string("value_date", c.date, description: "picked local date (yyyy-MM-dd) of a date answer"),
        ])
    }

    private struct Columns {
        var source: [String?] = [], subject: [String?] = [], scenario: [String?] = []
        var day: [Int?] = [], session: [Int?] = [], run: [Int?] = []
        var startRaw: [String?] = [], startUTC: [Double?] = [], offset: [Int?] = [], locale: [String?] = []
        var question: [String?] = [], type: [String?] = [], title: [String?] = [], text: [String?] = []
        var asked: [Bool?] = [], answered: [Bool?] = [], raw: [String?] = [], number: [Double?] = []
        var label: [String?] = [], date: [String?] = []
    }
}
