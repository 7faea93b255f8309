import Tables

/// Reads a results file line by line (spec §1–§4, §6): finds the header, turns anchored lines into rows with their
/// layout, and notes the oddities on the way. ``ResultsFile/parse(_:sourceFile:skipBadLines:)`` drives it.
struct ResultsFileParser {
    let sourceFile: String
    /// Whether lines without an anchor or with an out-of-range date become `bad-line` anomalies rather than errors.
    let skipBadLines: Bool
    private(set) var rows: ResultsRows
    private(set) var anomalies: [Anomaly] = []
    /// Whether the first non-empty line is a header.
    private(set) var hasHeader = false
    /// Whether that header is `date,…` or `SessionID,…`.
    private var recognisedHeader = false
    private var seenNonEmpty = false
    private var previousDataText: Substring?
    private var previousTrialTime: Double?

    init(sourceFile: String, skipBadLines: Bool, expectedRows: Int) {
        self.sourceFile = sourceFile
        self.skipBadLines = skipBadLines
        rows = ResultsRows(capacity: expectedRows)
    }

    mutating func note(_ line: Int?, _ code: AnomalyCode, _ message: String, raw: Substring?, location: String? = nil) {
        anomalies.append(Anomaly(sourceFile: sourceFile, line: line, location: location, code: code, message: message,
                                 raw: raw.map(String.init)))
    }

    /// Reads one line: skips it when empty, a header or (with `skipBadLines`) bad, else adds its row.
    mutating func read(_ line: TextLines.Line) throws(BrainTrackerError) {
        if Self.isBlank(line.text) {
            note(line.number, .emptyLines, "empty line skipped", raw: line.text)
            return
        }
        let first = !seenNonEmpty
        seenNonEmpty = true
        guard let anchored = try anchoredRow(line, first: first) else { return }
        if let previous = previousDataText, previous == line.text {
            note(line.number, .duplicateRow, "line identical to the previous data line (kept)", raw: line.text)
        }
        previousDataText = line.text
        let row = resultsRow(anchored, line: line)
        check(row, text: line.text)
        rows.append(row)
    }

    /// Whether a line is empty or whitespace only. A first byte that is printable ASCII settles it without
    /// reading characters (a character is whitespace when its first scalar is).
    static func isBlank(_ text: Substring) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
        return text.allSatisfy(\.isWhitespace)
    }

    /// The line's anchored row (spec §2), or nil when it is a header or a skipped bad line.
    private mutating func anchoredRow(_ line: TextLines.Line, first: Bool) throws(BrainTrackerError) -> AnchoredRow? {
        switch RowGrammar.parse(line.text) {
        case .row(let row):
            if first {
                note(line.number, .noHeader, "the first line is a data row; the file has no header", raw: line.text)
            }
            return row
        case .noAnchor where first:
            hasHeader = true
            recognisedHeader = ResultsFile.isHeaderText(line.text)
            if !recognisedHeader {
                note(line.number, .headerUnrecognised,
                     "first line read as a header although it is neither date,… nor SessionID,…", raw: line.text)
            }
            return nil
        case .noAnchor where ResultsFile.isHeaderText(line.text):
            note(line.number, .headerMidFile, "embedded header of a concatenated copy skipped", raw: line.text)
            return nil
        case .noAnchor:
            try skipBadLine(line, .noAnchor(file: sourceFile, line: line.number, found: String(line.text)))
            return nil
        case .dateOutOfRange:
            try skipBadLine(line, .dateOutOfRange(file: sourceFile, line: line.number, found: String(line.text)))
            return nil
        }
    }

    /// Throws `error`, or with `skipBadLines` notes it as a `bad-line` anomaly.
    private mutating func skipBadLine(_ line: TextLines.Line, _ error: BrainTrackerError) throws(BrainTrackerError) {
        guard skipBadLines else { throw error }
        note(line.number, .badLine, error.message, raw: line.text)
    }

    /// The row of an anchored line, `(null)` in fields A and E read as empty, with its layout (spec §6).
    private mutating func resultsRow(_ anchored: AnchoredRow, line: TextLines.Line) -> ResultsRow {
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
        return ResultsRow(line: line.number, id: id, hasIDField: anchored.idField != nil, time: anchored.time,
                          label: anchored.label, value: anchored.value, trailing: trailing,
                          isSessionRow: anchored.isSessionRow,
                          format: Self.format(anchored, id: id, trailing: trailing))
    }

    /// The layout of a row (spec §6), from its fields after `(null)` is read as empty.
    static func format(_ anchored: AnchoredRow, id: String, trailing: String?) -> RowFormat {
        if anchored.timestampParen {
            .timestampParen
        } else if anchored.idField == nil {
            .legacy4
        } else if trailing == id || id.contains("|") {
            .current
        } else {
            .legacyHandID
        }
    }

    /// Notes a session score outside [0, 1], or a trial row's field E differing from its ID (current layout) and
    /// a trial time more than 60 s before the previous trial's.
    private mutating func check(_ row: ResultsRow, text: Substring) {
        if row.isSessionRow {
            if !(0...1).contains(row.value) {
                note(row.line, .scoreRange, "session score \(row.value) outside [0, 1] (kept)", raw: text, location: "D")
            }
            return
        }
        if row.format == .current, row.trailing != row.id {
            note(row.line, .idMismatch,
                 "field E \"\(row.trailing ?? "")\" differs from the session ID in field A", raw: text, location: "E")
        }
        if let previous = previousTrialTime, row.time < previous - 60 {
            note(row.line, .timeBackwards,
                 "trial time \(Int(previous - row.time)) s earlier than the previous trial's", raw: text, location: "B")
        }
        previousTrialTime = row.time
    }

    /// The parsed file; a file without data rows is an error unless it has a recognised header.
    mutating func finish() throws(BrainTrackerError) -> ResultsFile {
        if rows.isEmpty {
            guard recognisedHeader else { throw .noData(file: sourceFile) }
            note(nil, .noRecords, "header only: no data rows", raw: nil)
        }
        rows.finishAdding()
        return ResultsFile(sourceFile: sourceFile, rows: rows, anomalies: anomalies, hasHeader: hasHeader)
    }
}
