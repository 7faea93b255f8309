import FileSystem
import Foundation
import SystemPackage

/// Writes a whole file atomically: a temporary file in the same folder, flushed to disk, then renamed over the
/// destination (``FileSystem/replaceAtomically(_:with:)``).
public enum AtomicFile {
    /// Writes `data` to `path`; on failure the destination is untouched.
    public static func write(_ data: Data, to path: String) throws(TableOutputError) {
        do { try FileSystem.replaceAtomically(FilePath(path), with: data) } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
    }
}
