/// The exit codes every tool uses (BSD `sysexits.h`, conventions §3).
public enum SysExit: Int32, Sendable {
    /// `EX_OK`: success.
    case ok = 0
    /// `EX_USAGE`: the command line was wrong.
    case usage = 64
    /// `EX_DATAERR`: an input's content is unusable.
    case dataError = 65
    /// `EX_NOINPUT`: an input is missing or unreadable.
    case noInput = 66
    /// `EX_SOFTWARE`: an internal error, a bug of BrainBatch (a reader process that stopped on a trap of its own
    /// code, not on the input's content).
    case software = 70
    /// `EX_CANTCREAT`: the output cannot be created.
    case cannotCreate = 73
    /// `EX_IOERR`: reading or writing failed midway.
    case ioError = 74
}
