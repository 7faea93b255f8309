import MindAffect
import Tables

/// Why a save file cannot be decoded (exit 65); the message is one line naming the file.
public enum DecodeError: Error, Sendable, Equatable {
    /// Nothing to decode: no EEG, no stimuli, no complete trial, too few trials for the folds.
    case noData(file: String, reason: String)
    /// A linear-algebra step failed (a degenerate covariance).
    case numerical(file: String, reason: String)

    /// One line: `file: error E_DECODE: …`.
    public var message: String {
        switch self {
        case .noData(let file, let reason): return "\(file): error E_DECODE: \(reason)"
        case .numerical(let file, let reason): return "\(file): error E_DECODE: \(reason)"
        }
    }
}

extension DecodeError: ReportableError {
    public var exitCode: SysExit { .dataError }
}
