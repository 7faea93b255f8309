import FileSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one folder a test process makes its temporary folders in: `$TMPDIR/brainbatch-tests-<pid>`.
///
/// The suite runs the tools thousands of times into temporary folders; left behind, they filled 45 GB of `/tmp`
/// over a few days of `make test`. So every temporary folder lives under this root, which is removed when the process
/// exits normally, and a root whose process is gone (a test run killed or crashed, or its pid reused since) is removed by the next test
/// process that makes its own. A root of a process that is still running (a parallel test process) is left alone.
public enum TestScratch {
    /// The name every root starts with; the process id follows.
    static let prefix = "brainbatch-tests-"

    /// This process's root, made (and its removal at exit registered, stale roots swept) on first use.
    public static let root: URL = {
        let parent = FileManager.default.temporaryDirectory
        removeStaleRoots(in: parent)
        let url = parent.appendingPathComponent("\(prefix)\(getpid())")
        // A root left by an earlier process with this same id (it is gone, or this could not run) is stale too.
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TestScratch.removeRoot() }
        return url
    }()

    /// Removes this process's root and everything in it.
    static func removeRoot() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Removes every root in `parent` whose process no longer exists.
    static func removeStaleRoots(in parent: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            let url = parent.appendingPathComponent(name)
            let changed = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
                .map { Int($0.timeIntervalSince1970) } ?? 0
            // The tools' own test (`FileSystem.isGone`): no such process, or one started after the root changed.
            if FileSystem.isGone(pid: pid, changedAt: changed) { try? FileManager.default.removeItem(at: url) }
        }
    }
}
