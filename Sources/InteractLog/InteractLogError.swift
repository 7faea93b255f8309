/// Why a log cannot be turned into tables (spec §7): the file fails, or, without `--skip-bad-lines`, a bad line
/// ends the run. The message reads `file:line: CODE what was expected, found …`.
public enum InteractLogError: Error, Equatable, Sendable {
    /// `E_EMPTY`: the file is empty or holds only whitespace.
    case empty(file: String)
    /// `E_BINARY`: the file holds a NUL byte.
    case binary(file: String, line: Int)
    /// `E_NOT_INTERACTLOG`: the first non-empty line is not a `Name` or `App Version` header line.
    case notInteractLog(file: String, line: Int, found: String)
    /// A line-level error (`E_HEADER_LINE`, `E_FIELDS`, `E_ID`, `E_TS`, `E_XY`) met without `--skip-bad-lines`.
    case badLine(file: String, line: Int, code: String, text: String)

    /// The one-line message, without the tool's prefix.
    public var message: String {
        switch self {
        case .empty(let file):
            "\(file): E_EMPTY expected an InteractLog header, found an empty or blank file"
        case .binary(let file, let line):
            "\(file):\(line): E_BINARY expected text, found a NUL byte"
        case .notInteractLog(let file, let line, let found):
            "\(file):\(line): E_NOT_INTERACTLOG expected a 'Name' or 'App Version' header line, found \(LogText.quoted(found))"
        case .badLine(let file, let line, let code, let text):
            "\(file):\(line): \(code) \(text)"
        }
    }
}
