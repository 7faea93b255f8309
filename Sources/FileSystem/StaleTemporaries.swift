#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Temporaries left by runs that were killed (SIGKILL, a power cut): recognised by name, `.<name>.tmp-<pid>` (or
/// that with one of the suffixes the writers use, ``temporarySuffixes``), and by their process being gone.
extension FileSystem {
    /// What the writers put after `.<name>.tmp-<pid>`: nothing (the output itself), a single CSV's sidecars
    /// (`.schema.json`, `.provenance.json`), the old provenance set aside during a commit (`.previous.json`) and the
    /// old folder an earlier version's commit moved aside (`.old`). A name with any other suffix is not taken for a
    /// temporary, so that a file a researcher named alike (`.out.h5.tmp-20240101.bak`) is never removed.
    public static let temporarySuffixes: Set<String> = ["", ".schema.json", ".provenance.json", ".previous.json", ".old"]

    /// The largest process ID Linux gives (`PID_MAX_LIMIT` on 64-bit systems, 2²²): a larger number after `.tmp-`
    /// is not a pid, so the name is not a temporary's.
    static let largestProcessID: Int32 = 1 << 22

    /// A temporary sibling of an output left by a process that no longer runs.
    public struct StaleTemporary: Equatable, Sendable {
        public var path: FilePath
        /// The process that made it.
        public var pid: Int32
        /// What follows `.tmp-<pid>` in its name (`""`, `.schema.json`, …).
        public var suffix: String
        public var isFolder: Bool
    }

    /// The temporaries of `path` in its folder whose process is gone (``isGone(pid:changedAt:)``), sorted by name.
    /// This process's own are included when `includingOwn` (a caller holding the output's lock knows that no
    /// temporary of its process is in use for that output).
    public static func staleTemporaries(of path: FilePath, includingOwn: Bool = false) -> [StaleTemporary] {
        let parent = path.removingLastComponent()
        let folder = parent.isEmpty ? "." : parent.string
        let prefix = ".\(path.lastComponent?.string ?? path.string).tmp-"
        let own = getpid()
        var found: [StaleTemporary] = []
        for name in entries(of: folder) where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            let digits = rest.prefix(while: \.isASCII).prefix(while: \.isNumber)
            let suffix = String(rest.dropFirst(digits.count))
            guard !digits.isEmpty, digits.count <= 10, let pid = Int32(digits), pid > 0, pid <= largestProcessID,
                  temporarySuffixes.contains(suffix) else { continue }
            let entry = parent.appending(name)
            var info = stat()
            guard lstat(entry.string, &info) == 0 else { continue }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            guard info.st_mode & S_IFMT == S_IFREG || isFolder else { continue }
            let stale = pid == own ? includingOwn : isGone(pid: pid, changedAt: Int(info.st_ctim.tv_sec))
            if stale { found.append(StaleTemporary(path: entry, pid: pid, suffix: suffix, isFolder: isFolder)) }
        }
        return found.sorted { $0.path.string < $1.path.string }
    }

    /// Whether the process that made a temporary last changed at `changedAt` (seconds since 1970, its `ctime`) is
    /// gone: no process has that pid (`kill(pid, 0)` fails with `ESRCH`), or the process that has it now started
    /// after the temporary last changed (the pid was reused; two seconds of margin for the clock's resolution), so
    /// it cannot be the one that wrote it.
    public static func isGone(pid: Int32, changedAt: Int) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        guard let started = processStart(pid) else { return false }
        return started > changedAt + 2
    }

    /// When process `pid` started, in seconds since 1970 (from `/proc`), or `nil` where that cannot be read.
    static func processStart(_ pid: Int32) -> Int? {
        guard let stat = contents(of: "/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")"),
              let boot = contents(of: "/proc/stat") else { return nil }
        // The fields after the command name `(…)`, which may hold spaces: state is field 3, starttime field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Int(fields[19]) else { return nil }
        guard let line = boot.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let bootTime = Int(line.dropFirst(6).trimmingPrefix(while: { $0 == " " })) else { return nil }
        let perSecond = sysconf(Int32(_SC_CLK_TCK))
        return bootTime + ticks / max(1, perSecond)
    }

    /// Removes a stale temporary: a file, or a folder with everything in it (links removed, not followed).
    public static func remove(_ temporary: StaleTemporary) {
        if temporary.isFolder { removeTree(temporary.path) } else { unlink(temporary.path.string) }
    }

    /// Removes a folder and everything under it; links are removed, never followed.
    public static func removeTree(_ folder: FilePath) {
        for name in entries(of: folder.string) {
            let entry = folder.appending(name)
            var info = stat()
            guard lstat(entry.string, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR { removeTree(entry) } else { unlink(entry.string) }
        }
        rmdir(folder.string)
    }

    /// The names in a folder (without `.` and `..`); empty when it cannot be read.
    public static func entries(of folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A small file's text (`/proc` files report size 0, so it is read until the end), or `nil`.
    static func contents(of path: String) -> String? {
        guard let file = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec]) else { return nil }
        defer { try? file.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            guard let count = try? buffer.withUnsafeMutableBytes({ try file.read(into: $0) }), count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
