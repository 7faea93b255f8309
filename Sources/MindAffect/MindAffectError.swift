/// Why a save file cannot be used (exit 65): the message names the file and line.
public enum MindAffectError: Error, Sendable, Equatable {
    /// A line that cannot be read (without `--skip-bad-lines`).
    case badLine(file: String, line: Int, problem: LineProblem)
    /// An empty file, or one without a DATAPACKET (E_NODATA).
    case noData(file: String, reason: String)
    /// A noise-code table that cannot be read.
    case badCodeTable(file: String, line: Int, message: String)

    /// One line: `file:line[:col]: error CODE: what was expected, found …`.
    public var message: String {
        switch self {
        case .badLine(let file, let line, let problem):
            let column = problem.column.map { ":\($0)" } ?? ""
            return "\(file):\(line)\(column): error \(problem.code): \(problem.message)"
        case .noData(let file, let reason):
            return "\(file): error E_NODATA: \(reason)"
        case .badCodeTable(let file, let line, let message):
            return "\(file):\(line): \(message)"
        }
    }
}
