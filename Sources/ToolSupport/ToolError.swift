import Tables
import TableWriters

/// The failures common to every tool.
public enum ToolError: ReportableError, Equatable {
    /// A usage error found after argument parsing (exit 64).
    case usage(String)
    /// An input that cannot be opened or read (exit 66).
    case unreadable(path: String, reason: String)
    /// An input whose content is unusable (exit 65); the message names file and line or offset.
    case badInput(String)
    /// Several inputs failed under `--keep-going` (exit 65).
    case someInputsFailed(count: Int)

    public var exitCode: SysExit {
        switch self {
        case .usage: .usage
        case .unreadable: .noInput
        case .badInput, .someInputsFailed: .dataError
        }
    }

    public var message: String {
        switch self {
        case .usage(let text): text
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .badInput(let text): text
        case .someInputsFailed(let count): "\(count) input\(count == 1 ? "" : "s") failed"
        }
    }
}

extension TableOutputError: ReportableError {
    public var exitCode: SysExit {
        switch self {
        case .cannotCreate, .outputIsInput, .foreignFile, .holdsInput, .busy: .cannotCreate
        case .io: .ioError
        case .usage, .tableNameNeeded, .unknownTable: .usage
        }
    }

    public var message: String { description }
}
