import Foundation
import Tables

/// Seth Roberts' R export (`brain_data_raw.csv`, `brain_data_only_valid.csv`; spec §9): RFC-4180 CSV written by
/// R's `write.csv`, with or without the leading row-name column.
public struct SethRExport: Sendable {
    /// One data record.
    public struct Row: Sendable, Equatable {
        /// The line where the record starts.
        public var line: Int
        /// `when` as ISO 8601 local time without offset.
        public var whenLocal: String
        public var condition: String
        public var problem: String
        public var latencyMs: Double
        public var ptileStored: Double?
        public var correct: Bool
        public var include: Bool
        public var note: String?
    }

    public var sourceFile: String
    public var rows: [Row]
    public var anomalies: [Anomaly]

    /// The columns without which a row cannot be read.
    public static let requiredColumns = ["when", "condition", "problem", "latency.msec", "correct", "include"]

    /// One CSV field and whether it was quoted (`NA` unquoted is missing; `"NA"` is text).
    struct Field { var text: String; var quoted: Bool }

    /// Splits the text into records of fields, each with the line where it starts (quoted fields may hold line
    /// ends; line numbers follow the CR/LF/CRLF rule of §1).
    static func records(_ text: String, sourceFile: String) throws(BrainTrackerError) -> [(line: Int, fields: [Field])] {
        let b = Array(text.utf8)
        var records: [(Int, [Field])] = []
        var fields: [Field] = []
        var line = 1, recordLine = 1
        var p = 0
        var field: [UInt8] = []
        var quoted = false
        func endField() { fields.append(Field(text: String(decoding: field, as: UTF8.self), quoted: quoted)); field = []; quoted = false }
        while p < b.count {
            let c = b[p]
            if c == UInt8(ascii: "\"") && field.isEmpty && !quoted {
                quoted = true
                let start = line
                p += 1
                var closed = false
                while p < b.count {
                    if b[p] == UInt8(ascii: "\"") {
                        if p + 1 < b.count, b[p + 1] == UInt8(ascii: "\"") { field.append(b[p]); p += 2; continue }
                        p += 1
                        closed = true
                        break
                    }
                    if b[p] == 13 { line += 1; if p + 1 < b.count, b[p + 1] == 10 { field.append(13); p += 1 } }
                    else if b[p] == 10 { line += 1 }
                    field.append(b[p])
                    p += 1
                }
                guard closed else { throw .unterminatedQuote(file: sourceFile, line: start) }
                continue
            }
            if c == UInt8(ascii: ",") { endField(); p += 1; continue }
            if c == 13 || c == 10 {
                endField()
                records.append((recordLine, fields))
                fields = []
                p += (c == 13 && p + 1 < b.count && b[p + 1] == 10) ? 2 : 1
                line += 1
                recordLine = line
                continue
            }
            field.append(c)
            p += 1
        }
        if !field.isEmpty || quoted || !fields.isEmpty {
            endField()
            records.append((recordLine, fields))
        }
        return records
    }

    /// Parses an export. With `skipBadLines`, rows with a non-logical `correct`/`include`, a bad number or
    /// date, or a wrong field count become `bad-line` anomalies.
    public static func parse(_ text: TextLines, sourceFile: String, skipBadLines: Bool) throws(BrainTrackerError) -> SethRExport {
        var anomalies: [Anomaly] = []
        if text.decodedAsWindows1252 {
            anomalies.append(Anomaly(sourceFile: sourceFile, code: .encoding, message: "not valid UTF-8; decoded as Windows-1252"))
        }
        let all = try records(text.text, sourceFile: sourceFile)
        guard let header = all.first else { throw .noData(file: sourceFile) }
        let names = header.fields.map(\.text)
        var column: [String: Int] = [:]
        for (index, name) in names.enumerated() where column[name] == nil { column[name] = index }
        for required in requiredColumns where column[required] == nil {
            throw .missingColumn(file: sourceFile, column: required)
        }
        var rows: [Row] = []
        for (line, fields) in all.dropFirst() {
            if fields.count == 1 && fields[0].text.allSatisfy(\.isWhitespace) && !fields[0].quoted {
                anomalies.append(Anomaly(sourceFile: sourceFile, line: line, code: .emptyLines, message: "empty line skipped"))
                continue
            }
            do throws(BrainTrackerError) {
                rows.append(try row(fields, line: line, column: column, names: names, sourceFile: sourceFile))
            } catch {
                guard skipBadLines, error.isConfinedToOneLine else { throw error }
                anomalies.append(Anomaly(sourceFile: sourceFile, line: line, code: .badLine, message: error.message,
                                         raw: fields.map(\.text).joined(separator: ",")))
            }
        }
        if rows.isEmpty && all.count == 1 {
            anomalies.append(Anomaly(sourceFile: sourceFile, code: .noRecords, message: "header only: no data rows"))
        }
        return SethRExport(sourceFile: sourceFile, rows: rows, anomalies: anomalies)
    }

    static func row(_ fields: [Field], line: Int, column: [String: Int], names: [String],
                    sourceFile: String) throws(BrainTrackerError) -> Row {
        guard fields.count == names.count else {
            throw .fieldCount(file: sourceFile, line: line, expected: names.count, found: fields.count)
        }
        func value(_ name: String) -> Field? { column[name].map { fields[$0] } }
        func text(_ name: String) -> String { value(name)?.text ?? "" }
        func logical(_ name: String) throws(BrainTrackerError) -> Bool {
            switch text(name) {
            case "TRUE", "T": return true
            case "FALSE", "F": return false
            default: throw .notLogical(file: sourceFile, line: line, column: name, found: text(name))
            }
        }
        let when = text("when")
        guard let whenLocal = localISO(when, withSeconds: true) else {
            throw .badValue(file: sourceFile, line: line, column: "when", expected: "YYYY-MM-DD HH:MM:SS", found: when)
        }
        guard let latency = Double(text("latency.msec")) else {
            throw .badValue(file: sourceFile, line: line, column: "latency.msec", expected: "a number", found: text("latency.msec"))
        }
        var ptile: Double?
        if let field = value("latency.ptile"), !(field.text == "NA" && !field.quoted), !field.text.isEmpty {
            guard let number = Double(field.text) else {
                throw .badValue(file: sourceFile, line: line, column: "latency.ptile", expected: "a number or NA", found: field.text)
            }
            ptile = number
        }
        let correct = try logical("correct")
        let include = try logical("include")
        let note = value("note").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        return Row(line: line, whenLocal: whenLocal, condition: text("condition"), problem: text("problem"),
                   latencyMs: latency, ptileStored: ptile, correct: correct, include: include, note: note)
    }

    /// `YYYY-MM-DD HH:MM[:SS]` at the start of `text` as ISO 8601 (`T` separator), or `nil`.
    static func localISO(_ text: String, withSeconds: Bool) -> String? {
        let b = Array(text.utf8)
        let shape = Array((withSeconds ? "dddd-dd-dd dd:dd:dd" : "dddd-dd-dd dd:dd").utf8)
        guard b.count >= shape.count else { return nil }
        if withSeconds && b.count != shape.count { return nil }
        for (i, s) in shape.enumerated() {
            if s == UInt8(ascii: "d") { guard b[i] >= 48 && b[i] <= 57 else { return nil } } else if b[i] != s { return nil }
        }
        func number(_ from: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 * 10 + Int(b[from + $1] - 48) } }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2), hour = number(11, 2), minute = number(14, 2)
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(year: year, month: month), hour <= 23, minute <= 59 else { return nil }
        if withSeconds { guard number(17, 2) <= 60 else { return nil } }
        let prefix = String(decoding: b[0..<shape.count], as: UTF8.self)
        return prefix.replacingOccurrences(of: " ", with: "T") + (withSeconds ? "" : ":00")
    }

    /// Sessions (distinct `condition` in order of appearance), Seth's statistics in `final` mode by default,
    /// with the exclusions of his program; the app-rule columns are NA.
    public static func analyze(_ export: SethRExport, options: SessionAnalysisOptions) -> RTAnalysis {
        var seqOfCondition: [String: Int] = [:]
        var conditions: [String] = []
        var trials = TrialRecords()
        var counts: [Int] = []
        for row in export.rows {
            let seq: Int
            if let known = seqOfCondition[row.condition] { seq = known } else {
                conditions.append(row.condition)
                seq = conditions.count
                seqOfCondition[row.condition] = seq
                counts.append(0)
            }
            counts[seq - 1] += 1
            let warmup = row.condition.hasSuffix(" warmup")
            let exclusion = options.sethExclusion(latency: row.latencyMs, correct: row.correct, include: row.include, warmup: warmup)
            trials.append(TrialRecord(
                line: row.line, rowFormat: .sethR, sessionSeq: seq, sessionID: row.condition, trialIndex: counts[seq - 1],
                timeUTC: nil, timeLocal: row.whenLocal, target: row.problem, latencyMs: row.latencyMs,
                correct: row.correct, include: row.include, validSeth: exclusion == nil, exclusion: exclusion,
                pctApp: nil, pctRule: nil, pctN: nil, ptileSeth: nil, ptileStored: row.ptileStored))
        }
        var validCounts = [Int](repeating: 0, count: conditions.count)
        for index in trials.indices where trials.isValidSeth(at: index) { validCounts[trials.sessionSeq(at: index) - 1] += 1 }
        var sessions: [SessionRecord] = conditions.enumerated().map { index, condition in
            let start = localISO(condition, withSeconds: false)
            let comment = start == nil ? condition : String(condition.dropFirst(16)).trimmingCharacters(in: .whitespaces)
            let validCount = validCounts[index]
            let n = options.trialsPerSession ?? counts[index]
            return SessionRecord(
                sessionSeq: index + 1, sessionID: condition, comment: comment, startUTC: nil, endUTC: nil,
                utcOffsetMin: nil, offsetSource: nil, startLocal: start, nTrials: counts[index], nExpected: n,
                complete: validCount >= n, isWarmup: condition.hasSuffix(" warmup"), sessionLine: nil,
                scoreStored: nil, scoreRecomputed: nil, scoreDelta: nil, scoreMatch: nil, scoreRule: nil,
                pctAppMean: nil, nValidSeth: 0)
        }
        trials.finishAdding()
        SessionStatistics.apply(trials: &trials, sessions: &sessions, options: options, format: .sethR)
        return RTAnalysis(sourceFile: export.sourceFile, format: .sethR, trials: trials, sessions: sessions,
                          anomalies: ResultsFileAnalysis.ordered(export.anomalies))
    }
}
