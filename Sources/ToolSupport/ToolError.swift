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
    /// An input whose reading stopped on a fault of BrainBatch's own code (exit 70): a bug, to be reported.
    case internalFault(String)
    /// Several inputs failed under `--keep-going`: exit 65, or 70 when any of them met an internal fault.
    case someInputsFailed(count: Int, internalFaults: Int = 0)

    public var exitCode: SysExit {
        switch self {
        case .usage: .usage
        case .unreadable: .noInput
        case .badInput: .dataError
        case .internalFault: .software
        case .someInputsFailed(_, let internalFaults): internalFaults > 0 ? .software : .dataError
        }
    }

    public var message: String {
        switch self {
        case .usage(let text): text
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .badInput(let text), .internalFault(let text): text
        case .someInputsFailed(let count, _): "\(count) input\(count == 1 ? "" : "s") failed"
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
