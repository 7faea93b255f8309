#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A lock on an output, so that two runs writing the same output cannot mix: `flock(2)` on a lock file beside it
/// (`.<name>.lock`), holding the pid of the run that has it. A second run does not wait: it is refused
/// (``Failure/held(pid:)``), since waiting would only make it overwrite the first run's fresh output.
///
/// The lock file is removed when the lock is released (and by the signal handler); one left by a killed run is
/// taken over by the next (a `flock` ends with its process). Removing a lock file is safe because a run that
/// locked a file which was meanwhile removed (or replaced) sees that its file is no longer the one at the path, and
/// tries again.
public final class FileLock {
    /// Why the lock could not be taken.
    public enum Failure: Error, Equatable {
        /// Another process holds it (its pid, where the lock file gave it).
        case held(pid: Int32?)
        /// The file at the lock's path is not a lock file (it holds something other than a pid).
        case notALockFile
        /// A system call failed (no folder, no permission, a full disk).
        case system(FileSystemError)
    }

    /// The lock file.
    public let path: FilePath
    private var file: FileDescriptor?
    private var cleanup: FileSystem.SignalCleanup?

    /// The lock file of `output`: `.<name>.lock` in the same folder.
    public static func lockPath(of output: FilePath) -> FilePath {
        let parent = output.removingLastComponent()
        return parent.appending(".\(output.lastComponent?.string ?? output.string).lock")
    }

    /// Takes the lock of `output` (its ``lockPath(of:)``), or throws at once.
    public static func acquire(for output: FilePath) throws(Failure) -> FileLock {
        let path = lockPath(of: output)
        for _ in 0..<100 {
            let cleanup = FileSystem.removeOnSignal(path)
            let file: FileDescriptor
            do {
                file = try FileDescriptor.open(path, .readWrite, options: [.create, .closeOnExec, .noFollow],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } catch {
                cleanup.end()
                throw .system(FileSystemError(path: path, operation: .lock, error))
            }
            if flock(file.rawValue, LOCK_EX | LOCK_NB) != 0 {
                let code = FileSystem.lastError
                let holder = readPid(file)
                cleanup.end()
                try? file.close()
                if code == .wouldBlock { throw .held(pid: holder.flatMap { $0 }) }
                throw .system(FileSystemError(path: path, operation: .lock, errno: code))
            }
            // The previous holder may have removed the file between our open and our lock: then lock the new one.
            var opened = stat(), current = stat()
            guard fstat(file.rawValue, &opened) == 0, lstat(path.string, &current) == 0,
                  opened.st_dev == current.st_dev, opened.st_ino == current.st_ino else {
                cleanup.end()
                try? file.close()
                continue
            }
            guard case .some = readPid(file) else {
                cleanup.end()
                try? file.close()
                throw .notALockFile
            }
            let text = Array("\(getpid())\n".utf8)
            errno = 0
            guard ftruncate(file.rawValue, 0) == 0,
                  (try? file.writeAll(toAbsoluteOffset: 0, text)) == text.count else {
                let code = errno == 0 ? Errno.ioError : FileSystem.lastError
                unlink(path.string)
                cleanup.end()
                try? file.close()
                throw .system(FileSystemError(path: path, operation: .lock, errno: code))
            }
            return FileLock(path: path, file: file, cleanup: cleanup)
        }
        throw .held(pid: nil)
    }

    private init(path: FilePath, file: FileDescriptor, cleanup: FileSystem.SignalCleanup) {
        self.path = path
        self.file = file
        self.cleanup = cleanup
    }

    deinit { release() }

    /// Removes the lock file and releases the lock (again: nothing).
    public func release() {
        guard let file else { return }
        unlink(path.string)
        cleanup?.end()
        try? file.close()
        self.file = nil
        cleanup = nil
    }

    /// The pid a lock file holds: `.some(nil)` for an empty file (a lock file being written, or one a killed run
    /// left before writing), `.some(pid)`, or `nil` when the file holds anything else (not a lock file).
    private static func readPid(_ file: FileDescriptor) -> Int32?? {
        var buffer = [UInt8](repeating: 0, count: 32)
        guard let count = try? buffer.withUnsafeMutableBytes({ try file.read(fromAbsoluteOffset: 0, into: $0) }) else {
            return .some(nil)
        }
        if count == 0 { return .some(nil) }
        guard count < buffer.count else { return nil }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = Int32(text) else { return nil }
        return .some(pid)
    }
}
