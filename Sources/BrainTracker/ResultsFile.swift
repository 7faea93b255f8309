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
    public var rows: ResultsRows
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
        var parser = ResultsFileParser(sourceFile: sourceFile, skipBadLines: skipBadLines, expectedRows: text.lineCount)
        if text.decodedAsWindows1252 {
            parser.note(nil, .encoding, "not valid UTF-8; decoded as Windows-1252", raw: nil)
        }
        do {
            try text.forEachLine { try parser.read($0) }
        } catch let error as BrainTrackerError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return try parser.finish()
    }
}
