import Tables
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads an input in a child process, so that a fault of a C library on a corrupt file ends the child and not
/// the run. libhdf5 1.10 segfaults, aborts or loops forever on some damaged files; in a child that becomes one
/// error line for that input (exit 65 with `--keep-going` going on with the rest), and nothing guesses what
/// went wrong: a child that dies of a signal is reported as such, with the signal's name.
///
/// The child is the tool itself, started again with a hidden option that names the input (`option PATH`); it
/// calls ``serve(_:)``, which writes the encoded result to standard output and exits 0, or writes the error's
/// message and exits 65. The child's memory is capped and its time bounded (both grow with the input's size).
public struct IsolatedReader: Sendable {
    /// The hidden option that starts the child, e.g. `--read-hdf5-isolated`.
    public var option: String
    /// What the input is, for messages (`HDF5 file`).
    public var what: String
    /// Seconds allowed for reading an input of `size` bytes.
    public var timeLimit: @Sendable (_ size: Int) -> Double
    /// The child's address-space limit for an input of `size` bytes.
    public var memoryLimit: @Sendable (_ size: Int) -> Int

    public init(option: String, what: String,
                timeLimit: @escaping @Sendable (Int) -> Double = { 30 + Double($0) / 1_000_000 },
                memoryLimit: @escaping @Sendable (Int) -> Int = { (2 << 30) + 64 * $0 }) {
        self.option = option
        self.what = what
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
    }

    /// Reads `path` (of `size` bytes) in a child and returns what the child's ``serve(_:)`` encoded.
    /// Throws ``ToolError/badInput(_:)`` with the child's message when it refused the input, and with what
    /// happened when it died of a signal or ran out of time.
    public func read(_ path: String, size: Int) throws(ToolError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ownExecutable)
        process.arguments = [option, path, String(memoryLimit(size))]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // `/dev/stdin` names this process's standard input: the child reads it through its own, the same file.
        process.standardInput = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(path)
            ? FileHandle.standardInput : FileHandle.nullDevice
        do { try process.run() } catch {
            throw .badInput("\(path): cannot start a reader process for this \(what): \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        let timedOut = TimeoutFlag()
        let deadline = DispatchTime.now() + timeLimit(size)
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            if process.isRunning {
                timedOut.set()
                kill(pid, SIGKILL)
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationStatus
        if process.terminationReason == .uncaughtSignal {
            if timedOut.isSet {
                throw .badInput("\(path): reading this \(what) did not finish within \(Int(timeLimit(size))) s "
                                + "(libhdf5 loops forever on some corrupt files); it was stopped")
            }
            throw .badInput("\(path): the reader of this \(what) died of signal \(Self.signalName(status)) "
                            + "(libhdf5 crashes on some corrupt files; if h5dump reads the file, please report it)")
        }
        switch status {
        case 0: return data
        case SysExit.dataError.rawValue:
            throw .badInput(String(decoding: data, as: UTF8.self))
        default:
            throw .badInput("\(path): the reader of this \(what) ended with exit status \(status)")
        }
    }

    /// The child's side, called first thing in `main`: when the command line is `option PATH LIMIT`, caps the
    /// address space at LIMIT bytes, runs `body(PATH)` and writes its result to standard output (exit 0), or
    /// the error's message (exit 65), and never returns. Otherwise returns at once.
    public func serveIfAsked(_ body: (String) throws -> Data) {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, arguments[1] == option, let limit = Int(arguments[3]) else { return }
        Self.serve(memoryLimit: limit) { try body(arguments[2]) }
    }

    static func serve(memoryLimit: Int, _ body: () throws -> Data) -> Never {
        var limit = rlimit(rlim_cur: rlim_t(memoryLimit), rlim_max: rlim_t(memoryLimit))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        let (data, status): (Data, Int32)
        do {
            (data, status) = (try body(), 0)
        } catch let error as ReportableError {
            (data, status) = (Data(error.message.utf8), SysExit.dataError.rawValue)
        } catch {
            (data, status) = (Data("\(error)".utf8), SysExit.dataError.rawValue)
        }
        FileHandle.standardOutput.write(data)
        exit(status)
    }

    /// This process's executable (the child is the same program).
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL",
                                      SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP"]
        return names[signal] ?? "\(signal)"
    }
}

/// Set by the timer that stops a child which ran out of time, read after the child ended.
private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
