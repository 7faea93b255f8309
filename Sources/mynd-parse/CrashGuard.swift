#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The line to print if the process faults while reading the current file, prepared beforehand (a signal handler
/// may not allocate).
nonisolated(unsafe) private var crashLine: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var crashLineLength = 0

/// Turns a fault inside the HDF5 C library on a corrupt file (libhdf5 1.10 can crash on damaged heaps and
/// attribute tables) into one error line naming the file and exit 65, instead of a crash. The run cannot go on
/// after such a fault, so `--keep-going` stops there too; no output exists yet at that point.
enum CrashGuard {
    /// Installs the handler for SIGSEGV, SIGBUS, SIGILL and SIGFPE.
    static func install() {
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { signal in
                if let line = crashLine {
                    _ = write(2, line, crashLineLength)
                    _exit(65)
                }
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// Runs `body` (the reading of `path`) with the message for that file armed.
    @discardableResult
    static func reading<T>(_ path: String, _ body: () throws -> T) rethrows -> T {
        let text = "mynd-parse: error: \(path): the HDF5 library crashed reading this file (a corrupt HDF5 file); "
            + "the run stops here, no output was written\n"
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        crashLineLength = bytes.count
        crashLine = buffer
        defer {
            crashLine = nil
            crashLineLength = 0
            buffer.deallocate()
        }
        return try body()
    }
}
