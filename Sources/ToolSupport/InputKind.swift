import Foundation
import Tables

/// What an input looks like from its first bytes: used to tell a researcher who gave a file to the wrong tool
/// which tool reads it (`rt-stats` given a MYND recording says so, instead of "found \u{1a}").
public enum InputKind: Sendable, Equatable {
    case hdf5
    case json
    case mindAffectSaveFile
    case mindAffectCodeTable
    case brainTrackerResults
    case sethRExport
    case interactLog
    case binary

    /// The tool that reads such a file.
    public var tool: String {
        switch self {
        case .hdf5, .json: "mynd-parse"
        case .mindAffectSaveFile: "nt-analyze"
        case .mindAffectCodeTable: "nt-analyze codes --check"
        case .brainTrackerResults, .sethRExport: "rt-stats"
        case .interactLog: "ilog-parse"
        case .binary: "bt-decode"
        }
    }

    /// What the file looks like, in a few words.
    public var description: String {
        switch self {
        case .hdf5: "an HDF5 file (a MYND recording?)"
        case .json: "a JSON document (a MYND questionnaire?)"
        case .mindAffectSaveFile: "a MindAffect hub save file"
        case .mindAffectCodeTable: "a MindAffect noise-code table"
        case .brainTrackerResults: "a BrainTracker results file"
        case .sethRExport: "an export of Seth Roberts' R program"
        case .interactLog: "an InteractLog log"
        case .binary: "binary data (a Brainiac capture?)"
        }
    }

    /// Judges the first bytes of a file; `nil` when nothing is recognised.
    public static func sniff(_ head: Data) -> InputKind? {
        let bytes = [UInt8](head.prefix(4096))
        guard !bytes.isEmpty else { return nil }
        if bytes.starts(with: [0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]) { return .hdf5 }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("{") { return .json }
        let firstLine = trimmed.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.hasPrefix("rts:") || firstLine.contains(" t:") && firstLine.contains(" <-") { return .mindAffectSaveFile }
        if firstLine.hasPrefix("# gold") || firstLine.hasPrefix("#stimTime") { return .mindAffectCodeTable }
        if firstLine.hasPrefix("date,string,latency") { return .brainTrackerResults }
        if firstLine.contains("\"latency.msec\"") || firstLine.contains("latency.msec") { return .sethRExport }
        if firstLine.hasPrefix("Name") && firstLine.contains(":") && text.contains("Experiment Start") { return .interactLog }
        let controls = bytes.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }.count
        if controls * 10 > bytes.count { return .binary }
        return nil
    }

    /// The first bytes of a file, or `nil` when it cannot be read (a FIFO is not read: its bytes would be lost).
    static func head(of path: String) -> Data? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: 4096)
    }
}

/// An input's data error with a hint of the tool that reads such a file.
struct WrongToolError: ReportableError {
    let underlying: ReportableError
    let kind: InputKind
    var exitCode: SysExit { underlying.exitCode }
    var message: String { underlying.message + " (this looks like \(kind.description): read it with \(kind.tool))" }

    /// `error`, with a hint when the input looks like a file of another tool than `tool`.
    static func hinted(_ error: ReportableError, input: String, tool: String) -> ReportableError {
        guard error.exitCode == .dataError, let head = InputKind.head(of: input),
              let kind = InputKind.sniff(head), !kind.tool.hasPrefix(tool) else { return error }
        return WrongToolError(underlying: error, kind: kind)
    }
}
