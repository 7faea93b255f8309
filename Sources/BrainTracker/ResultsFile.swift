import Foundation
import Tables

/// The row layouts of spec §6, as written in the `row_format` column.
public enum RowFormat: String, Sendable, CaseIterable {
    /// 5 fields, A = E = session ID (2014-09-25 on).
    case current
    /// 4 fields, the date starts the line (April to September 2014).
    case legacy4
    /// A hand-made ID prepended to a 4-field row; E is a comment.
    case legacyHandID = "legacy-hand-id"
    /// `(timestamp=T),label,ms,comment` (2014-09-23 to 09-25).
    case timestampParen = "timestamp-paren"
    /// A row of Seth Roberts' R export.
    case sethR = "seth-r"
}

/// One data row of a `BrainTrackerResultsFile.csv`.
public struct ResultsRow: Sendable, Equatable {
    /// 1-based line number (spec §1).
    public var line: Int
    /// Field A with `(null)` read as empty; `""` when absent.
    public var id: String
    /// Whether field A exists (the date does not start the line).
    public var hasIDField: Bool
    /// Field B, UTC seconds since 1970.
    public var time: Double
    /// Field C.
    public var label: String
    /// Field D as written (before any unit repair).
    public var value: Double
    /// Field E with `(null)` read as empty; `nil` when absent.
    public var trailing: String?
    /// Whether this is a session row (C = `Session`).
    public var isSessionRow: Bool
    /// The layout (for trial rows; session rows get the layout of their fields too).
    public var format: RowFormat
}

/// A parsed results file: its data rows in file order and the oddities met on the way.
public struct ResultsFile: Sendable {
    public var sourceFile: String
    public var rows: [ResultsRow]
    public var anomalies: [Anomaly]
    /// Whether a header line was found (first non-empty line not a data row).
    public var hasHeader: Bool

    /// Whether a file's first line looks like a BrainTracker header (`date,…` or `SessionID,…`).
    public static func isHeaderText(_ line: some StringProtocol) -> Bool {
        let lower = line.lowercased()
        return lower.hasPrefix("date,") || lower.hasPrefix("sessionid,")
    }

    /// Parses the lines of a results file (spec §1–§4, §6). With `skipBadLines`, lines without an anchor or with
    /// an out-of-range date become `bad-line` anomalies; otherwise the first one is thrown.
    public static func parse(_ text: TextLines, sourceFile: String,
                             skipBadLines: Bool) throws(BrainTrackerError) -> ResultsFile {
        guard !text.isBlank else { throw .noData(file: sourceFile) }
        var rows: [ResultsRow] = []
        rows.reserveCapacity(text.lines.count)
        var anomalies: [Anomaly] = []
        func note(_ line: Int?, _ code: AnomalyCode, _ message: String, raw: Substring?, location: String? = nil) {
            anomalies.append(Anomaly(sourceFile: sourceFile, line: line, location: location, code: code, message: message,
                                     raw: raw.map(String.init)))
        }
        if text.decodedAsWindows1252 {
            note(nil, .encoding, "not valid UTF-8; decoded as Windows-1252", raw: nil)
        }
        var hasHeader = false
        var recognisedHeader = false
        var seenNonEmpty = false
        var previousDataText: Substring?
        var previousTrialTime: Double?
        for line in text.lines {
            if line.text.allSatisfy(\.isWhitespace) {
                note(line.number, .emptyLines, "empty line skipped", raw: line.text)
                continue
            }
            let first = !seenNonEmpty
            seenNonEmpty = true
            let anchored: AnchoredRow
            switch RowGrammar.parse(line.text) {
            case .row(let row):
                anchored = row
                if first {
                    note(line.number, .noHeader, "the first line is a data row; the file has no header", raw: line.text)
                }
            case .noAnchor where first:
                hasHeader = true
                recognisedHeader = isHeaderText(line.text)
                if !recognisedHeader {
                    note(line.number, .headerUnrecognised,
                         "first line read as a header although it is neither date,… nor SessionID,…", raw: line.text)
                }
                continue
            case .noAnchor where isHeaderText(line.text):
                note(line.number, .headerMidFile, "embedded header of a concatenated copy skipped", raw: line.text)
                continue
            case .noAnchor:
                let error = BrainTrackerError.noAnchor(file: sourceFile, line: line.number, found: String(line.text))
                guard skipBadLines else { throw error }
                note(line.number, .badLine, error.message, raw: line.text)
                continue
            case .dateOutOfRange:
                let error = BrainTrackerError.dateOutOfRange(file: sourceFile, line: line.number, found: String(line.text))
                guard skipBadLines else { throw error }
                note(line.number, .badLine, error.message, raw: line.text)
                continue
            }
            if let previous = previousDataText, previous == line.text {
                note(line.number, .duplicateRow, "line identical to the previous data line (kept)", raw: line.text)
            }
            previousDataText = line.text
            var id = anchored.idField ?? ""
            if id == "(null)" {
                id = ""
                note(line.number, .nullField, "field A is (null); read as empty", raw: line.text, location: "A")
            }
            var trailing = anchored.trailing
            if trailing == "(null)" {
                trailing = ""
                note(line.number, .nullField, "field E is (null); read as empty", raw: line.text, location: "E")
            }
            let format: RowFormat
            if anchored.timestampParen {
                format = .timestampParen
            } else if anchored.idField == nil {
                format = .legacy4
            } else if trailing == id || id.contains("|") {
                format = .current
            } else {
                format = .legacyHandID
            }
            let row = ResultsRow(line: line.number, id: id, hasIDField: anchored.idField != nil, time: anchored.time,
                                 label: anchored.label, value: anchored.value, trailing: trailing,
                                 isSessionRow: anchored.isSessionRow, format: format)
            if row.isSessionRow {
                if !(0...1).contains(row.value) {
                    note(line.number, .scoreRange, "session score \(row.value) outside [0, 1] (kept)",
                         raw: line.text, location: "D")
                }
            } else {
                if format == .current, trailing != id {
                    note(line.number, .idMismatch,
                         "field E \"\(trailing ?? "")\" differs from the session ID in field A", raw: line.text,
                         location: "E")
                }
                if let previous = previousTrialTime, row.time < previous - 60 {
                    note(line.number, .timeBackwards,
                         "trial time \(Int(previous - row.time)) s earlier than the previous trial's", raw: line.text,
                         location: "B")
                }
                previousTrialTime = row.time
            }
            rows.append(row)
        }
        if rows.isEmpty {
            guard recognisedHeader else { throw .noData(file: sourceFile) }
            note(nil, .noRecords, "header only: no data rows", raw: nil)
        }
        return ResultsFile(sourceFile: sourceFile, rows: rows, anomalies: anomalies, hasHeader: hasHeader)
    }
}
