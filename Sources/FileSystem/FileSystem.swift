#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// The one file-system layer of BrainBatch: the calls the output side makes to put files in place, each failing
/// with a ``FileSystemError`` that names the path, what was attempted and the system's reason.
///
/// - ``temporarySibling(of:)``: where a file or folder is made before it is moved into place
///   (`.<name>.tmp-<pid>` beside it, so the rename stays on one file system and a crash leaves a name that says
///   whose it was);
/// - ``replaceAtomically(_:with:)``: a whole file written to that sibling, flushed to disk and renamed over the
///   destination, which is then either the old file or the new one, never a part; ``stage(_:writing:)`` the same
///   in two steps (``StagedFile``), for files that are renamed into place together;
/// - ``create(_:)``, ``write(_:to:path:)``, ``sync(_:path:)``, ``close(_:path:)`` and
///   ``rename(_:to:)``: the single steps, for writers that stream;
/// - ``message(_:)``: the system's text for an error number, for the errors of calls made elsewhere;
/// - ``removeOnSignal(_:isFolder:)`` and ``deferringSignals(_:)``: temporaries removed when SIGINT, SIGTERM or
///   SIGHUP stops the process, and commits that such a signal does not cut (`SignalCleanup.swift`);
/// - ``staleTemporaries(of:includingOwn:)``: the temporaries of killed runs, for the next run to remove;
/// - ``FileLock``: one run at a time per output.
///
/// Paths are swift-system `FilePath`s, open files `FileDescriptor`s and error numbers `Errno`s; `fsync(2)` and
/// `rename(2)`, which swift-system does not wrap, are called here and nowhere else.
public enum FileSystem {
    /// The system's one-line text for an error number (`strerror(3)`), e.g. `Permission denied`.
    public static func message(_ code: Errno) -> String {
        code.description
    }

    /// The error number the last failed system call of this thread left (`errno`). Read it right after the call.
    public static var lastError: Errno {
        Errno(rawValue: errno)
    }

    /// The temporary sibling of `path` made by process `pid` (this one unless said): `.<name>.tmp-<pid>` in the
    /// same folder (`path` without a trailing `/`).
    public static func temporarySibling(of path: FilePath, pid: Int32 = getpid()) -> FilePath {
        let parent = path.removingLastComponent()
        let name = path.lastComponent?.string ?? path.string
        return parent.appending(".\(name).tmp-\(pid)")
    }

    /// Writes `bytes` as the whole content of `path`: into ``temporarySibling(of:)``, flushed to disk, then renamed
    /// over `path`. On failure `path` is untouched, the temporary file is removed, and the error names `path`.
    public static func replaceAtomically(_ path: FilePath, with bytes: some Sequence<UInt8>) throws(FileSystemError) {
        do {
            try replaceAtomically(path) { append in
                let done: Void? = try bytes.withContiguousStorageIfAvailable { try append(UnsafeRawBufferPointer($0)) }
                if done == nil { try Array(bytes).withUnsafeBytes { try append($0) } }
            }
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw FileSystemError(path: path, operation: .write, error)   // not thrown: `append` throws the above only
        }
    }

    /// As ``replaceAtomically(_:with:)``, the content handed over piece by piece: `body` calls `append` for each (a
    /// document too large to hold in memory twice). An error of `body` removes the temporary file and is thrown as
    /// it is; a file-system error names `path`.
    public static func replaceAtomically(_ path: FilePath,
                                         writing body: (_ append: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        let staged = try stage(path, writing: body)
        try deferringSignals { () throws(FileSystemError) in try staged.commit() }
    }

    /// Creates `path` for writing (emptied if it exists; mode 0666 less the umask).
    public static func create(_ path: FilePath) throws(FileSystemError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                           permissions: [.ownerReadWrite, .groupReadWrite, .otherReadWrite])
        } catch {
            throw FileSystemError(path: path, operation: .create, error)
        }
    }

    /// Writes all of `bytes` to `file` (the file at `path`), retrying short writes and interruptions.
    public static func write(_ bytes: some Sequence<UInt8>, to file: FileDescriptor,
                             path: FilePath) throws(FileSystemError) {
        do { _ = try file.writeAll(bytes) } catch {
            throw FileSystemError(path: path, operation: .write, error)
        }
    }

    /// Flushes what was written to `file` (the file at `path`) to the disk (`fsync(2)`).
    public static func sync(_ file: FileDescriptor, path: FilePath) throws(FileSystemError) {
        while fsync(file.rawValue) != 0 {
            let code = lastError
            guard code == .interrupted else { throw FileSystemError(path: path, operation: .sync, errno: code) }
        }
    }

    /// Closes `file` (the file at `path`); a delayed write error shows here.
    public static func close(_ file: FileDescriptor, path: FilePath) throws(FileSystemError) {
        do { try file.close() } catch {
            throw FileSystemError(path: path, operation: .close, error)
        }
    }

    /// Renames `source` to `destination`, replacing a file there in one step (`rename(2)`); the error names
    /// `destination`.
    public static func rename(_ source: FilePath, to destination: FilePath) throws(FileSystemError) {
        guard systemRename(source.string, destination.string) == 0 else {
            throw FileSystemError(path: destination, operation: .rename, errno: lastError)
        }
    }
}

/// `rename(2)` (unqualified, the name would find ``FileSystem/rename(_:to:)``).
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.rename(source, destination)
    #else
    Darwin.rename(source, destination)
    #endif
}
