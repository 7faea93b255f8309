#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A file written in full to the temporary sibling of its destination (``FileSystem/temporarySibling(of:)``) and
/// flushed to disk, waiting to be renamed into place: for an output of several files that must appear together
/// (a signal file and its provenance sidecar), each is staged first, then all are committed in one block that
/// SIGINT, SIGTERM and SIGHUP cannot cut (``FileSystem/deferringSignals(_:)``).
///
/// Until it is committed the temporary is registered for removal on those signals; ``discard()`` (or the last
/// reference going) removes it.
public final class StagedFile {
    /// Where the file goes.
    public let destination: FilePath
    /// Where it is until then.
    public let temporary: FilePath
    private var cleanup: FileSystem.SignalCleanup?

    init(destination: FilePath, temporary: FilePath, cleanup: FileSystem.SignalCleanup) {
        self.destination = destination
        self.temporary = temporary
        self.cleanup = cleanup
    }

    deinit { discard() }

    /// Renames the file into place; the error names the destination.
    public func commit() throws(FileSystemError) {
        guard let cleanup else { return }
        try FileSystem.rename(temporary, to: destination)
        cleanup.end()
        self.cleanup = nil
    }

    /// Removes the temporary, if it is not committed yet.
    public func discard() {
        guard let cleanup else { return }
        unlink(temporary.string)
        cleanup.end()
        self.cleanup = nil
    }
}

extension FileSystem {
    /// Writes the content of `path` into its temporary sibling, piece by piece (`body` calls `append` for each), and
    /// flushes it to disk; ``StagedFile/commit()`` then renames it into place. On failure nothing is left: an error of
    /// `body` is thrown as it is, a file-system error names `path`.
    public static func stage(_ path: FilePath,
                             writing body: (_ append: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> StagedFile {
        let temporary = temporarySibling(of: path)
        let staged = StagedFile(destination: path, temporary: temporary, cleanup: removeOnSignal(temporary))
        var file: FileDescriptor?
        do {
            let open = try create(temporary)
            file = open
            try body { bytes throws(FileSystemError) in try write(bytes, to: open, path: temporary) }
            try sync(open, path: temporary)
            file = nil
            try close(open, path: temporary)
            return staged
        } catch let error as FileSystemError {
            try? file?.close()
            staged.discard()
            throw FileSystemError(path: path, operation: error.operation, errno: error.errno)
        } catch {
            try? file?.close()
            staged.discard()
            throw error
        }
    }
}
