/// Why an input cannot be read (spec §11); each message names the file, the line and what was expected.
public enum BrainTrackerError: Error, Equatable, Sendable {
    /// Empty, whitespace only, or no recognised header and no row.
    case noData(file: String)
    /// A non-empty, non-header line without the date anchor of §2.
    case noAnchor(file: String, line: Int, found: String)
    /// The anchored date has calendar values out of range.
    case dateOutOfRange(file: String, line: Int, found: String)
    /// An R export header without a required column.
    case missingColumn(file: String, column: String)
    /// An R export quoted field that never ends.
    case unterminatedQuote(file: String, line: Int)
    /// An R export `correct`/`include` value that is not `TRUE`/`FALSE`.
    case notLogical(file: String, line: Int, column: String, found: String)
    /// An R export cell that is not what its column holds (a number, a date).
    case badValue(file: String, line: Int, column: String, expected: String, found: String)
    /// An R export record with another number of fields than the header.
    case fieldCount(file: String, line: Int, expected: Int, found: Int)
    /// The input format was forced to one the file is not in.
    case wrongFormat(file: String, expected: String)

    /// The one-line report.
    public var message: String {
        switch self {
        case .noData(let file):
            "\(file): expected a BrainTracker results file or an R export (a header or data rows), found no usable data"
        case .noAnchor(let file, let line, let found):
            "\(file):\(line): expected \"<yyyy-MM-dd HH:mm:ss +0000>,<label>,<number>\" in the line, found \"\(Self.shorten(found))\""
        case .dateOutOfRange(let file, let line, let found):
            "\(file):\(line): expected a calendar date and time in range, found \"\(Self.shorten(found))\""
        case .missingColumn(let file, let column):
            "\(file):1: expected column \"\(column)\" in the R export header"
        case .unterminatedQuote(let file, let line):
            "\(file):\(line): unterminated quoted field starting here"
        case .notLogical(let file, let line, let column, let found):
            "\(file):\(line): expected TRUE or FALSE in column \"\(column)\", found \"\(Self.shorten(found))\""
        case .badValue(let file, let line, let column, let expected, let found):
            "\(file):\(line): expected \(expected) in column \"\(column)\", found \"\(Self.shorten(found))\""
        case .fieldCount(let file, let line, let expected, let found):
            "\(file):\(line): expected \(expected) fields as in the header, found \(found)"
        case .wrongFormat(let file, let expected):
            "\(file):1: expected \(expected)"
        }
    }

    /// Whether `--skip-bad-lines` may turn this error into an anomalies row (causes confined to one line).
    public var isConfinedToOneLine: Bool {
        switch self {
        case .noAnchor, .dateOutOfRange, .notLogical, .badValue, .fieldCount: true
        default: false
        }
    }

    /// The line the error is on, where there is one.
    public var line: Int? {
        switch self {
        case .noAnchor(_, let line, _), .dateOutOfRange(_, let line, _), .unterminatedQuote(_, let line),
             .notLogical(_, let line, _, _), .badValue(_, let line, _, _, _),
             .fieldCount(_, let line, _, _): line
        case .missingColumn, .wrongFormat: 1
        case .noData: nil
        }
    }

    static func shorten(_ text: String) -> String {
        let escaped = RawText.escaped(text)
        return escaped.count > 80 ? String(escaped.prefix(80)) + "…" : escaped
    }
}

/// Raw input text as quoted in messages: control characters escaped. (The `raw` column of the anomalies table
/// follows the shared rule of ``Anomaly/raw``.)
public enum RawText {
    /// `\r`, `\n`, `\t` and other control characters written as escapes.
    public static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
