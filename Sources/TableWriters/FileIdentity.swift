import Foundation

/// A file as the file system knows it (device and inode, links followed), so that two paths to one file — a
/// symlink and its target, `a/../b` and `b` — compare equal.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, or `nil` where nothing is there.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The path with every link and `..` resolved, or `nil` where nothing is there.
    static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
