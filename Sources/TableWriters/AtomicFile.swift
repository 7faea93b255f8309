import Foundation

/// Writes a whole file atomically: a temporary file in the same folder, then a rename over the destination.
public enum AtomicFile {
    /// Writes `data` to `path`; on failure the destination is untouched.
    public static func write(_ data: Data, to path: String) throws(TableOutputError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        do {
            try data.write(to: temporary)
        } catch {
            throw .cannotCreate(path: path, reason: error.localizedDescription)
        }
        if rename(temporary.path, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotCreate(path: path, reason: reason)
        }
    }
}
