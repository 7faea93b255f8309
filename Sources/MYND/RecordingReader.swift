import Foundation
import HDF5

/// Reads a MYND recording (`r_*.hdf`) from its path. ``inProcess`` opens it with libhdf5 here; a tool that must
/// survive a crash of libhdf5 on a corrupt file gives a reader that does the same in a child process.
public struct RecordingReader: Sendable {
    private let body: @Sendable (String) throws(MYNDError) -> MYNDRecording

    public init(_ read: @escaping @Sendable (String) throws(MYNDError) -> MYNDRecording) {
        body = read
    }

    /// Reads the recording at `path` (also the name its rows and anomalies carry). libhdf5 reads a file by seeking
    /// in it: a pipe, a process substitution or a device is refused (``MYNDError/notSeekable(file:)``, exit 66).
    public func read(_ path: String) throws(MYNDError) -> MYNDRecording {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { throw .notSeekable(file: path) }
        return try body(path)
    }

    /// Opens the file with libhdf5 in this process and reads the layout of §3.
    public static let inProcess = RecordingReader { path throws(MYNDError) in
        let file: HDF5File
        do throws(HDF5Error) {
            file = try HDF5File.open(path: path)
        } catch {
            throw .hdf5(file: path, message: "not a readable HDF5 file (\(error.detail ?? error.operation))")
        }
        return try MYNDRecording.read(file, sourceFile: path)
    }
}
