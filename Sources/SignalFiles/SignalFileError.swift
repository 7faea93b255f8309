import FileSystem
import Tables

/// Why a signal file cannot be written; each a one-line message naming the output.
public enum SignalFileError: Error, Equatable, ReportableError {
    /// The output (or its scratch) could not be created (exit 73): the path and the system's reason.
    case cannotWrite(path: String, reason: String)
    /// Writing, flushing or moving the output into place failed (exit 74, as for tables): a full disk, a file
    /// over the size limit.
    case writeFailed(path: String, reason: String)
    /// A value that no file can hold (NaN or infinite): channel and sample (0-based).
    case notFinite(path: String, channel: String, sample: Int)
    /// The values of a channel span more than the format's digits and fields can express.
    case rangeTooWide(path: String, channel: String, low: Double, high: Double)
    /// A sampling rate with no whole number of samples in any EDF record of up to 60 s.
    case samplingRate(path: String, rate: Double)
    /// The signal is not usable: no channels, frames before `begin`, a second `begin`.
    case invalidSignal(path: String, reason: String)

    public var exitCode: SysExit {
        switch self {
        case .cannotWrite: .cannotCreate
        case .writeFailed: .ioError
        case .notFinite, .rangeTooWide, .samplingRate, .invalidSignal: .dataError
        }
    }

    public var message: String {
        switch self {
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
        case .writeFailed(let path, let reason): "\(path): write failed: \(reason)"
        case .notFinite(let path, let channel, let sample):
            "\(path): channel \(channel) sample \(sample) is not a finite number, which no signal file can hold"
        case .rangeTooWide(let path, let channel, let low, let high):
            "\(path): channel \(channel) spans \(low) to \(high), more than the format's 8-character physical fields hold"
        case .samplingRate(let path, let rate):
            "\(path): \(rate) Hz gives no whole number of samples in an EDF data record of at most 60 s; write .vhdr instead"
        case .invalidSignal(let path, let reason): "\(path): \(reason)"
        }
    }
}

extension SignalFileError {
    /// A file system error at `path`: creating is ``cannotWrite(path:reason:)`` (73), anything after it
    /// ``writeFailed(path:reason:)`` (74).
    static func fileSystem(_ error: FileSystemError, path: String) -> SignalFileError {
        error.operation == .create || error.operation == .open
            ? .cannotWrite(path: path, reason: error.reason) : .writeFailed(path: path, reason: error.reason)
    }
}
