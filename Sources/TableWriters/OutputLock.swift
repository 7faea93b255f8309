import FileSystem
import Foundation
import SystemPackage

/// One run at a time per output (conventions §3.1): the ``FileSystem/FileLock`` of the destination,
/// `.<name>.lock` beside it. A second run writing the same output is refused with exit 73 and a one-line message
/// naming the output and the pid of the run that has it; it does not wait.
///
/// Taking the lock also clears what killed runs left beside the output (only a holder of the lock may: no
/// other run is then writing there): their temporaries are removed, and a commit that was cut in the middle is
/// finished (``OutputCommit/recover(_:)``).
public final class OutputLock {
    /// The output locked.
    public let path: String
    private let lock: FileLock

    private init(path: String, lock: FileLock) {
        self.path = path
        self.lock = lock
    }

    /// Takes the lock of `destination`, then removes the temporaries of killed runs (finishing an interrupted
    /// commit). Throws ``TableOutputError/busy(path:pid:)`` when another run has the lock.
    public static func acquire(for destination: OutputDestination) throws(TableOutputError) -> OutputLock {
        let lock = try acquire(path: destination.path, trimmed: destination.trimmedPath)
        OutputCommit.recover(destination)
        return lock
    }

    /// Takes the lock of an output made of whole files (a signal file, `bt-synth`'s capture and its truth sidecar;
    /// locked by the first), finishing a commit of `commit`'s that a killed run was in the middle of
    /// (``SidecarCommit/recover()``), then removing the temporaries killed runs left for any of the files.
    public static func acquire(forFiles files: [String],
                               committedBy commit: SidecarCommit? = nil) throws(TableOutputError) -> OutputLock {
        let first = files.first ?? ""
        let lock = try acquire(path: first, trimmed: first)
        commit?.recover()
        for file in files {
            for stale in FileSystem.staleTemporaries(of: FilePath(file), includingOwn: true) { FileSystem.remove(stale) }
        }
        return lock
    }

    private static func acquire(path: String, trimmed: String) throws(TableOutputError) -> OutputLock {
        do {
            return OutputLock(path: path, lock: try FileLock.acquire(for: FilePath(trimmed)))
        } catch {
            switch error {
            case .held(let pid): throw .busy(path: path, pid: pid)
            case .notALockFile:
                throw .foreignFile(path: FileLock.lockPath(of: FilePath(trimmed)).string,
                                   reason: "is in the place of this output's lock file but holds something else")
            case .system(let failure): throw .cannotCreate(path: path, reason: failure.reason)
            }
        }
    }

    /// Removes the lock file and releases the lock (also done when the last reference goes).
    public func release() { lock.release() }
}
