import Foundation
import Testing
@testable import ToolSupport

/// The parent's side of ``IsolatedReader``, with `/bin/sh` as the child: `sh -c SCRIPT MEMORY SECONDS PARENT` runs
/// SCRIPT (given where the input's path goes), so a child can be made to answer, fail, hang, crash or trap.
@Suite("Reading an input in a child process")
struct IsolatedReaderTests {
    static func reader(seconds: Double = 30) -> IsolatedReader {
        IsolatedReader(option: "-c", what: "test file", timeLimit: { _ in seconds }, executable: "/bin/sh")
    }

    @Test("A child that exits 0 hands over its standard output; one that exits 65 its message, as a bad input")
    func answers() throws {
        #expect(try Self.reader().read("printf 'the result'", size: 0) == Data("the result".utf8))
        #expect(throws: ToolError.badInput("x.hdf: no recording here")) {
            _ = try Self.reader().read("printf 'x.hdf: no recording here'; exit 65", size: 0)
        }
    }

    @Test("A child that outlives its time is stopped: a bad input (65) that says so, within seconds")
    func timeLimit() throws {
        let start = Date()
        #expect(throws: ToolError.badInput("exec sleep 60: reading this test file did not finish within 1 s "
                                           + "(libhdf5 loops forever on some corrupt files); it was stopped")) {
            _ = try Self.reader(seconds: 1).read("exec sleep 60", size: 0)
        }
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test("A child that dies of SIGSEGV or SIGBUS (libhdf5 on a corrupt file) fails the input (65), the signal named",
          arguments: [("SEGV", "SIGSEGV"), ("BUS", "SIGBUS")])
    func crash(_ signal: String, _ name: String) throws {
        let script = "echo 'Program crashed: Bad pointer dereference' >&2; kill -\(signal) $$"
        #expect(throws: ToolError.badInput("\(script): the reader of this test file died of signal \(name) "
                                           + "(libhdf5 crashes on some corrupt files; if h5dump reads the file, please report it)")) {
            _ = try Self.reader().read(script, size: 0)
        }
    }

    @Test("A child stopped by a trap of our own code (SIGILL, Swift's 'Fatal error:' line) is an internal fault: exit 70, reported as a bug with that line")
    func trap() throws {
        let script = "echo 'Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range' >&2; kill -ILL $$"
        do {
            _ = try Self.reader().read(script, size: 0)
            Issue.record("the trap was not reported")
        } catch {
            #expect(error.exitCode == .software)
            #expect(error.message == "\(script): the reader of this test file stopped on an internal error (signal SIGILL: "
                    + "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range); this is a bug of BrainBatch, "
                    + "please report it with the file")
        }
        #expect(throws: ToolError.internalFault("kill -TRAP $$: the reader of this test file stopped on an internal "
                                                + "error (signal SIGTRAP); this is a bug of BrainBatch, please report it with the file")) {
            _ = try Self.reader().read("kill -TRAP $$", size: 0)
        }
    }

    @Test("What makes an internal fault: SIGILL or SIGTRAP, or a 'Fatal error:' line; not another signal or an exit")
    func faultRule() {
        #expect(IsolatedReader.internalFault(signal: SIGILL, stderr: "") == "signal SIGILL")
        #expect(IsolatedReader.internalFault(signal: SIGTRAP, stderr: "noise\n") == "signal SIGTRAP")
        #expect(IsolatedReader.internalFault(signal: nil, stderr: "a\n  Fatal error: boom \nb") == "Fatal error: boom")
        #expect(IsolatedReader.internalFault(signal: SIGSEGV, stderr: "x: Fatal error: y") == "signal SIGSEGV: x: Fatal error: y")
        #expect(IsolatedReader.internalFault(signal: SIGSEGV, stderr: "Program crashed") == nil)
        #expect(IsolatedReader.internalFault(signal: SIGABRT, stderr: "") == nil)
        #expect(IsolatedReader.internalFault(signal: nil, stderr: "HDF5-DIAG: Error detected") == nil)
    }

    @Test("Several failed inputs: exit 65, or 70 when any met an internal fault")
    func failedInputsExit() {
        #expect(ToolError.someInputsFailed(count: 2).exitCode == .dataError)
        #expect(ToolError.someInputsFailed(count: 2, internalFaults: 1).exitCode == .software)
        #expect(ToolError.someInputsFailed(count: 2, internalFaults: 1).message == "2 inputs failed")
    }
}
