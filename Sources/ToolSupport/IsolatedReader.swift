import CSignalCleanup
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
/// The child is the tool itself, started again with a hidden option that names the input (`option PATH …`); it
/// calls ``serveIfAsked(_:)``, which writes the encoded result to standard output and exits 0, or writes the
/// error's message and exits 65. The child's memory is capped and its time bounded (both grow with the input's
/// size): the parent kills it when its time is up, and the child itself asks the kernel to end it when the parent
/// ends (however the parent ends) and caps its own CPU time, so that no child outlives its run.
///
/// A child that stops on a trap of BrainBatch's own code (Swift's checks end a process with SIGILL or SIGTRAP, and
/// print `Fatal error: …` first) is not blamed on the input or on libhdf5: that is an internal fault, exit 70,
/// reported as a bug with the `Fatal error:` line the child wrote to its stderr.
public struct IsolatedReader: Sendable {
    /// The hidden option that starts the child, e.g. `--read-hdf5-isolated`.
    public var option: String
    /// What the input is, for messages (`HDF5 file`).
    public var what: String
    /// Seconds allowed for reading an input of `size` bytes.
    public var timeLimit: @Sendable (_ size: Int) -> Double
    /// The child's address-space limit for an input of `size` bytes.
    public var memoryLimit: @Sendable (_ size: Int) -> Int
    /// The program started as the child: this one (tests name a built tool).
    public var executable: String

    public init(option: String, what: String,
                timeLimit: @escaping @Sendable (Int) -> Double = { 30 + Double($0) / 1_000_000 },
                memoryLimit: @escaping @Sendable (Int) -> Int = { (2 << 30) + 64 * $0 },
                executable: String = IsolatedReader.ownExecutable) {
        self.option = option
        self.what = what
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
        self.executable = executable
    }

    /// Reads `path` (of `size` bytes) in a child and returns what the child's ``serveIfAsked(_:)`` encoded. Call it
    /// from a thread that lives as long as the run (the runner reads inputs on the main thread): the kernel's
    /// parent-death signal follows the thread that started the child, not the process.
    /// Throws ``ToolError/badInput(_:)`` with the child's message when it refused the input, and with what
    /// happened when it died of a signal or ran out of time.
    public func read(_ path: String, size: Int) throws(ToolError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let seconds = timeLimit(size)
        process.arguments = [option, path, String(memoryLimit(size)), String(Int(seconds.rounded(.up)) + 5),
                             String(getpid())]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        // `/dev/stdin` names this process's standard input: the child reads it through its own, the same file.
        process.standardInput = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(path)
            ? FileHandle.standardInput : FileHandle.nullDevice
        do { try process.run() } catch {
            throw .badInput("\(path): cannot start a reader process for this \(what): \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        let timedOut = TimeoutFlag()
        let deadline = DispatchTime.now() + seconds
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            if process.isRunning {
                timedOut.set()
                kill(pid, SIGKILL)
            }
        }
        // Standard error is read beside standard output (either pipe, full, would stop the child); its start is kept.
        let stderrRead = DispatchGroup()
        let stderrText = ChildText()
        DispatchQueue.global().async(group: stderrRead) {
            stderrText.set(errors.fileHandleForReading.readDataToEndOfFile())
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        stderrRead.wait()
        let status = process.terminationStatus
        if let fault = Self.internalFault(signal: process.terminationReason == .uncaughtSignal ? status : nil,
                                          stderr: stderrText.value) {
            throw .internalFault("\(path): the reader of this \(what) stopped on an internal error (\(fault)); this is "
                                 + "a bug of BrainBatch, please report it with the file")
        }
        if process.terminationReason == .uncaughtSignal {
            if timedOut.isSet {
                throw .badInput("\(path): reading this \(what) did not finish within \(Int(seconds)) s "
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

    /// Whether a child's end was a fault of BrainBatch's own code: SIGILL or SIGTRAP (how a Swift trap ends a
    /// process on Linux), or a `Fatal error:` line on its stderr (Swift's message before such a trap). Returns what
    /// to report (the signal and that line), or `nil`.
    static func internalFault(signal: Int32?, stderr: String) -> String? {
        let fatal = stderr.split(separator: "\n").first { $0.contains("Fatal error:") }
            .map { String($0.trimmingCharacters(in: .whitespaces).prefix(300)) }
        let trap = signal.map { $0 == SIGILL || $0 == SIGTRAP } ?? false
        switch (trap, fatal) {
        case (_, let line?): return signal.map { "signal \(signalName($0)): \(line)" } ?? line
        case (true, nil): return "signal \(signalName(signal ?? 0))"
        case (false, nil): return nil
        }
    }

    /// The child's side, called first thing in `main`: when the command line is `option PATH MEMORY SECONDS
    /// PARENT`, arranges to end with its parent (pid PARENT), caps the address space at MEMORY bytes and the CPU
    /// time at SECONDS, runs `body(PATH)` and writes its result to standard output (exit 0), or the error's message
    /// (exit 65), and never returns. Otherwise returns at once.
    public func serveIfAsked(_ body: (String) throws -> Data) {
        let arguments = CommandLine.arguments
        guard arguments.count == 6, arguments[1] == option, let memory = Int(arguments[3]),
              let seconds = Int(arguments[4]), let parent = Int32(arguments[5]) else { return }
        // The parent gone already (between its spawn and this request): nobody waits for the result.
        if bb_end_with_parent(parent) == 1 { exit(SysExit.software.rawValue) }
        // For the tests of how a run reports its reader's faults (Tests/MYNDTests/RobustnessTests.swift): a child told
        // so by the environment stops on a Swift trap, or waits forever, before it reads anything.
        switch ProcessInfo.processInfo.environment[Self.testFaultVariable] {
        case "trap"?: fatalError("the test fault asked for by \(Self.testFaultVariable)")
        case "hang"?: while true { sleep(60) }
        default: break
        }
        Self.serve(memoryLimit: memory, cpuSeconds: seconds) { try body(arguments[2]) }
    }

    static func serve(memoryLimit: Int, cpuSeconds: Int, _ body: () throws -> Data) -> Never {
        var limit = rlimit(rlim_cur: rlim_t(memoryLimit), rlim_max: rlim_t(memoryLimit))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        // SIGXCPU at the soft limit, SIGKILL a second later: the parent's timer comes first while the parent lives.
        var cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
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

    /// The environment variable that makes a child fail on purpose (`trap` or `hang`), for tests.
    public static let testFaultVariable = "BRAINBATCH_TEST_READER_FAULT"

    /// This process's executable (the child is the same program).
    public static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL",
                                      SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP", SIGXCPU: "SIGXCPU"]
        return names[signal] ?? "\(signal)"
    }
}

/// The child's standard error, set by the thread that read it, read after the child ended.
private final class ChildText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ data: Data) { lock.lock(); text = String(decoding: data, as: UTF8.self); lock.unlock() }
    var value: String { lock.lock(); defer { lock.unlock() }; return text }
}

/// Set by the timer that stops a child which ran out of time, read after the child ended.
private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
