import Dispatch

/// The slow half of recognising an earlier output: each existing file's SHA-256 against the one its provenance
/// recorded, computed on a thread of its own while the run reads its input (for a signal file as large as the
/// capture, the hash took a sixth of a 1-hour export when it ran first).
///
/// What can be told without reading the files (nothing there, no provenance, a file not listed) is thrown at
/// once by ``PreviousOutput/checkReplaceableDeferringContent(files:sidecar:)``; ``verify()`` must be called, and
/// must return, before anything is replaced.
public final class DeferredContentCheck: @unchecked Sendable {
    // @unchecked: `failure` is written on the check's queue before `done` is signalled and read after waiting on it.
    private let done = DispatchSemaphore(value: 0)
    private var failure: TableOutputError?

    /// Starts hashing `files` (path, SHA-256 recorded for it) in the background.
    init(_ files: [(path: String, expected: String)]) {
        guard !files.isEmpty else {
            done.signal()
            return
        }
        DispatchQueue.global().async { [self] in
            do throws(TableOutputError) {
                for file in files { try PreviousOutput.checkUnchanged(file.path, expected: file.expected) }
            } catch {
                failure = error
            }
            done.signal()
        }
    }

    /// Waits for the hashes; throws ``TableOutputError/foreignFile(path:reason:)`` for the first file that changed
    /// since it was written. Call once.
    public func verify() throws(TableOutputError) {
        done.wait()
        if let failure { throw failure }
    }
}
