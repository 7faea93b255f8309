import Tables
import BrainTracker
import Foundation
import Testing

/// The row grammar (spec §2) and every row variant of §3, §4 and §6, on constructed lines.
@Suite("row grammar and row variants")
struct RowVariantTests {
    static func parse(_ text: String, skipBadLines: Bool = false) throws -> ResultsFile {
        try ResultsFile.parse(TextLines(Data(text.utf8)), sourceFile: "t.csv", skipBadLines: skipBadLines)
    }

    static func row(_ line: String) -> AnchoredRow? {
        if case .row(let row) = RowGrammar.parse(Substring(line)) { return row }
        return nil
    }

    @Test("current trial and session rows (§3, §4)")
    func currentRows() throws {
        let trial = try #require(Self.row("IDafter lunch|2014123461451,2014-12-12 22:52:03 +0000,1,408.295667,IDafter lunch|2014123461451"))
        #expect(trial.idField == "IDafter lunch|2014123461451")
        #expect(trial.time == CivilTime.seconds(year: 2014, month: 12, day: 12, hour: 22, minute: 52, second: 3))
        #expect(trial.label == "1" && trial.value == 408.295667 && !trial.isSessionRow)
        #expect(trial.trailing == "IDafter lunch|2014123461451")
        let session = try #require(Self.row("IDafter lunch|2014123461451,2014-12-12 22:51:53 +0000,Session,0.382812,after lunch"))
        #expect(session.isSessionRow && session.value == 0.382812 && session.trailing == "after lunch")
    }

    @Test("commas in comments on both sides of the anchor")
    func commasInComments() throws {
        let row = try #require(Self.row("IDcoffee, then tea|2014123461451,2014-12-12 22:51:53 +0000,Session,0.5,coffee, then tea, 2014-12-12 22:51:53 +0000,1,2"))
        #expect(row.idField == "IDcoffee, then tea|2014123461451")
        #expect(row.trailing == "coffee, then tea, 2014-12-12 22:51:53 +0000,1,2")
        let early = try #require(Self.row("IDa,b|2014123461451,2014-12-12 22:52:03 +0000,4,350,IDa,b|2014123461451"))
        #expect(early.idField == "IDa,b|2014123461451" && early.label == "4")
        // A date in A that is not followed by ,LABEL,NUMBER is not the anchor.
        let dated = try #require(Self.row("ID2014-12-12 22:00:00 +0000 x|2014123461451,2014-12-12 22:52:03 +0000,4,350,"))
        #expect(dated.idField == "ID2014-12-12 22:00:00 +0000 x|2014123461451" && dated.trailing == "")
    }

    @Test("older formats: 4 fields, hand-made IDs, (timestamp=…), spreadsheet numbers (§6)")
    func olderFormats() throws {
        let legacy = try #require(Self.row("2014-07-30 13:22:17 +0000,5,415.712208,Target Response=5"))
        #expect(legacy.idField == nil && legacy.trailing == "Target Response=5")
        let four = try #require(Self.row("2014-04-08 10:00:00 +0000,3,0.41"))
        #expect(four.idField == nil && four.trailing == nil && four.value == 0.41)
        let paren = try #require(Self.row("(timestamp=2014-09-23 12:00:01 +0000),2,380.5,morning"))
        #expect(paren.timestampParen && paren.label == "2" && paren.trailing == "morning")
        for (text, value) in [("414.846", 414.846), ("0.37979", 0.37979), ("0", 0.0), (".5", 0.5), ("5.", 5.0), ("1e3", 1000.0), ("2.5E-1", 0.25)] {
            #expect(Self.row("ID1,2014-08-01 13:52:55 +0000,5,\(text),c")?.value == value, "\(text)")
        }
        #expect(Self.row("ID1,2014-08-01 13:52:55 +0000,5,4x5,c") == nil)
        #expect(Self.row("ID1,2014-08-01 13:52:55 -0700,5,400,c")?.time == CivilTime.seconds(year: 2014, month: 8, day: 1, hour: 20, minute: 52, second: 55))

        let file = try Self.parse("""
        date,string,latency (mSec),comment
        2014-07-30 13:22:17 +0000,5,415.7,Target Response=5
        2014-07-30 13:22:20 +0000,Session,0.5,first
        ID080113m,2014-08-01 13:52:55 +0000,5,427.5,morning coffee
        ,2014-08-01 13:54:30 +0000,Session,0.56,morning coffee
        (timestamp=2014-09-23 12:00:01 +0000),2,380.5,morning
        2014-09-23 12:00:09 +0000,Session,0.5,morning
        IDx|2014092680948,2014-09-25 16:48:35 +0000,4,1097.9,IDx|2014092680948
        IDx|2014092680948,2014-09-25 16:48:34 +0000,Session,0,x
        """)
        #expect(file.rows.filter { !$0.isSessionRow }.map(\.format) == [.legacy4, .legacyHandID, .timestampParen, .current])
        #expect(file.rows[3].id == "" && file.rows[3].hasIDField)
        #expect(file.anomalies.isEmpty)
    }

    @Test("(null) in A or E is read as empty, with a null-field anomaly")
    func nullFields() throws {
        let file = try Self.parse("SessionID,date,string,latency (mSec),comment\r(null),2014-12-12 22:52:03 +0000,1,400,(null)")
        #expect(file.rows[0].id == "" && file.rows[0].trailing == "")
        #expect(file.anomalies.map(\.code) == ["W_NULL_FIELD", "W_NULL_FIELD"])
        #expect(file.anomalies.map(\.location) == ["A", "E"])
    }

    @Test("line ends: CR, LF, CRLF, mixed, unterminated last line, empty lines (§1)")
    func lineEnds() throws {
        let rows = ["IDa|2014123461451,2014-12-12 22:52:03 +0000,1,400,IDa|2014123461451",
                    "IDa|2014123461451,2014-12-12 22:52:06 +0000,2,410,IDa|2014123461451",
                    "IDa|2014123461451,2014-12-12 22:51:53 +0000,Session,0,a"]
        for terminators in [["\r", "\r", "\r"], ["\n", "\n", "\n"], ["\r\n", "\r\n", "\r\n"], ["\n", "\r", "\r\n"], ["\n", "\n", "\r"]] {
            let text = "date,string,latency (mSec),comment" + terminators[0] + rows[0] + terminators[1] + rows[1] + terminators[2] + rows[2]
            let file = try Self.parse(text)
            #expect(file.rows.map(\.line) == [2, 3, 4], "\(terminators)")
            #expect(file.anomalies.isEmpty)
        }
        let gaps = try Self.parse("date,string,latency (mSec),comment\r\r\n" + rows[0] + "\n\n" + rows[2] + "\r")
        #expect(gaps.rows.map(\.line) == [3, 5])
        #expect(gaps.anomalies.map(\.code) == ["W_EMPTY_LINES", "W_EMPTY_LINES"])
        #expect(gaps.anomalies.map(\.line) == [2, 4])
        // A lone CR then LF is one CRLF terminator, not an empty line.
        #expect(TextLines(Data("a\r\nb".utf8)).lines.map(\.number) == [1, 2])
    }

    @Test("headers: stale, hand-edited, none, embedded; BOM; Windows-1252")
    func headers() throws {
        let row = "IDa|2014123461451,2014-12-12 22:52:03 +0000,1,400,IDa|2014123461451"
        #expect(try Self.parse("date,string,time,comment\n" + row).hasHeader)
        let none = try Self.parse(row + "\n" + row.replacingOccurrences(of: ",1,400", with: ",2,401"))
        #expect(!none.hasHeader && none.rows.count == 2 && none.anomalies.map(\.code) == ["W_NO_HEADER"])
        let embedded = try Self.parse("SessionID,date,string,latency (mSec),comment\r" + row + "\rSessionID,date,string,latency (mSec),comment\r" + row)
        #expect(embedded.rows.count == 2)
        #expect(embedded.anomalies.map(\.code) == ["W_HEADER_MID_FILE", "W_DUPLICATE_ROW"])
        let bom = try ResultsFile.parse(TextLines(Data([0xEF, 0xBB, 0xBF]) + Data(("date,string,latency (mSec),comment\n" + row).utf8)),
                                        sourceFile: "t.csv", skipBadLines: false)
        #expect(bom.hasHeader && bom.rows.count == 1 && bom.anomalies.isEmpty)
        var latin = Data("date,string,latency (mSec),comment\n,2014-12-12 22:51:53 +0000,Session,0.5,caf".utf8)
        latin.append(0xE9)   // é in Windows-1252, invalid as UTF-8
        let decoded = try ResultsFile.parse(TextLines(latin), sourceFile: "t.csv", skipBadLines: false)
        #expect(decoded.rows[0].trailing == "café")
        #expect(decoded.anomalies.map(\.code) == ["W_ENCODING"])
    }

    @Test("malformed rows: file:line messages, or bad-line anomalies under --skip-bad-lines")
    func malformed() throws {
        let text = "date,string,latency (mSec),comment\rIDafter lunch|20141234614\r,2014-13-12 22:51:53 +0000,Session,0.5,x\rIDa,2014-12-12 22:52:03 +0000,1,400,IDa"
        #expect(throws: BrainTrackerError.noAnchor(file: "t.csv", line: 2, found: "IDafter lunch|20141234614")) { try Self.parse(text) }
        #expect(BrainTrackerError.noAnchor(file: "t.csv", line: 2, found: "IDafter lunch|20141234614").message
                == "t.csv:2: expected \"<yyyy-MM-dd HH:mm:ss +0000>,<label>,<number>\" in the line, found \"IDafter lunch|20141234614\"")
        let skipped = try Self.parse(text, skipBadLines: true)
        #expect(skipped.rows.map(\.line) == [4])
        #expect(skipped.anomalies.map(\.code) == ["E_BAD_LINE", "E_BAD_LINE"])
        #expect(skipped.anomalies.map(\.severity) == [.error, .error])
        #expect(skipped.anomalies[1].message.hasPrefix("t.csv:3: expected a calendar date and time in range"))
        #expect(throws: BrainTrackerError.dateOutOfRange(file: "t.csv", line: 2, found: ",2014-13-12 22:51:53 +0000,Session,0.5,x")) {
            try Self.parse("date,string,latency (mSec),comment\n,2014-13-12 22:51:53 +0000,Session,0.5,x")
        }
        #expect(throws: BrainTrackerError.noData(file: "t.csv")) { try Self.parse("") }
        #expect(throws: BrainTrackerError.noData(file: "t.csv")) { try Self.parse(" \r\n\t\r") }
        #expect(throws: BrainTrackerError.noData(file: "t.csv")) { try Self.parse("hello world") }
        let headerOnly = try Self.parse("date,string,latency (mSec),comment\r")
        #expect(headerOnly.rows.isEmpty && headerOnly.anomalies.map(\.code) == ["W_NO_RECORDS"])
    }

    @Test("oddities kept as anomalies: id-mismatch, score-range, time-backwards")
    func oddities() throws {
        let file = try Self.parse("""
        date,string,latency (mSec),comment
        IDa|2014123461451,2014-12-12 22:52:03 +0000,1,400,IDb|2014123461451
        IDa|2014123461451,2014-12-12 22:50:03 +0000,1,400,IDa|2014123461451
        IDa|2014123461451,2014-12-12 22:51:53 +0000,Session,1.5,a
        """)
        #expect(file.anomalies.map(\.code) == ["W_ID_MISMATCH", "W_TIME_BACKWARDS", "W_SCORE_RANGE"])
        #expect(file.rows.count == 3)
    }
}
