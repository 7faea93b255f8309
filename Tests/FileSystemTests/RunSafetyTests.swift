import FileSystem
import Foundation
import SystemPackage
import Testing
import TestSupport

/// The file-system side of issue 19's run safety: the output lock, the temporaries of killed runs, and the test
/// whether their process is gone (pid reuse included).
@Suite("Run safety: locks and stale temporaries")
struct RunSafetyTests {
    @Test("A second lock on an output is refused with the holder's pid; released, the lock file is gone and the lock can be taken again")
    func lockRefusesSecond() throws {
        let folder = TestSupport.temporaryFolder()
        let output = FilePath(folder.appendingPathComponent("out.h5").path)
        let lock = try FileLock.acquire(for: output)
        #expect(lock.path == FilePath(folder.appendingPathComponent(".out.h5.lock").path))
        #expect(FileManager.default.contents(atPath: lock.path.string) == Data("\(getpid())\n".utf8))
        #expect(throws: FileLock.Failure.held(pid: getpid())) { _ = try FileLock.acquire(for: output) }
        lock.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let again = try FileLock.acquire(for: output)
        again.release()
    }

    @Test("A lock file a killed run left (its pid, or empty) is taken over; a file of something else there is refused, unchanged")
    func lockFileLeftBehind() throws {
        let folder = TestSupport.temporaryFolder()
        let output = FilePath(folder.appendingPathComponent("tables").path)
        let path = folder.appendingPathComponent(".tables.lock")
        for left in ["\(try TestSupport.endedProcessID())\n", ""] {
            try Data(left.utf8).write(to: path)
            let lock = try FileLock.acquire(for: output)
            #expect(FileManager.default.contents(atPath: path.path) == Data("\(getpid())\n".utf8))
            lock.release()
            #expect(!FileManager.default.fileExists(atPath: path.path))
        }
        try Data("my notes\n".utf8).write(to: path)
        #expect(throws: FileLock.Failure.notALockFile) { _ = try FileLock.acquire(for: output) }
        #expect(FileManager.default.contents(atPath: path.path) == Data("my notes\n".utf8))
    }

    @Test("A lock that cannot be made (no folder) is a system error naming the lock file and the reason")
    func lockInMissingFolder() throws {
        let folder = TestSupport.temporaryFolder()
        let output = FilePath(folder.appendingPathComponent("absent/out.h5").path)
        #expect(throws: FileLock.Failure.system(FileSystemError(path: FileLock.lockPath(of: output), operation: .lock,
                                                                  errno: .noSuchFileOrDirectory))) {
            _ = try FileLock.acquire(for: output)
        }
    }

    @Test("Stale temporaries: .<name>.tmp-<pid>[suffix] of a gone process, files and folders; not a live process's, not another output's, not other names, not other suffixes, not numbers beyond any pid")
    func staleTemporaries() throws {
        let folder = TestSupport.temporaryFolder()
        let dead = try TestSupport.endedProcessID()
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        let live = sleeper.processIdentifier
        let own = getpid()
        let files = [".out.h5.tmp-\(dead)", ".out.h5.tmp-\(dead).schema.json", ".out.h5.tmp-\(live)",
                     ".out.h5.tmp-\(own)", ".other.h5.tmp-\(dead)", ".out.h5.tmp-x\(dead)", ".out.h5.tmp-\(dead)x",
                     "out.h5.tmp-\(dead)", "notes.txt", ".out.h5.tmp-\(dead).bak", ".out.h5.tmp-\(dead).schema.json~",
                     ".out.h5.tmp-20240101", ".out.h5.tmp-20240101.schema.json"]
        for name in files { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".out.h5.tmp-\(dead).old"),
                                                withIntermediateDirectories: false)
        let output = FilePath(folder.appendingPathComponent("out.h5").path)
        let names = { (list: [FileSystem.StaleTemporary]) in list.map { $0.path.lastComponent!.string } }
        #expect(names(FileSystem.staleTemporaries(of: output)) ==
                [".out.h5.tmp-\(dead)", ".out.h5.tmp-\(dead).old", ".out.h5.tmp-\(dead).schema.json"])
        #expect(Set(names(FileSystem.staleTemporaries(of: output, includingOwn: true))) ==
                [".out.h5.tmp-\(dead)", ".out.h5.tmp-\(dead).old", ".out.h5.tmp-\(dead).schema.json", ".out.h5.tmp-\(own)"])
        let stale = FileSystem.staleTemporaries(of: output)
        #expect(stale.map(\.isFolder) == [false, true, false])
        #expect(stale.map(\.suffix) == ["", ".old", ".schema.json"])
        stale.forEach(FileSystem.remove)
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) ==
                Set(files).subtracting([".out.h5.tmp-\(dead)", ".out.h5.tmp-\(dead).schema.json"]))
    }

    @Test("Pid reuse: a live process is the writer only if it started before the temporary last changed")
    func pidReuse() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        let pid = sleeper.processIdentifier
        let now = Int(Date().timeIntervalSince1970)
        // Changed now: the live process may be writing it. Changed an hour before the process started: a temporary
        // of an earlier process that had the same pid.
        #expect(!FileSystem.isGone(pid: pid, changedAt: now))
        #expect(FileSystem.isGone(pid: pid, changedAt: now - 3600))
        #expect(FileSystem.isGone(pid: try TestSupport.endedProcessID(), changedAt: now))
        // This process started before now, so whatever it changes now is its own.
        #expect(!FileSystem.isGone(pid: getpid(), changedAt: now))
    }

    @Test("A folder is removed with everything in it; a link in it is removed, not followed")
    func removeTree() throws {
        let folder = TestSupport.temporaryFolder()
        let outside = folder.appendingPathComponent("keep.txt")
        try Data("keep".utf8).write(to: outside)
        let tree = folder.appendingPathComponent(".t.tmp-1")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("a".utf8).write(to: tree.appendingPathComponent("a.csv"))
        try Data("b".utf8).write(to: tree.appendingPathComponent("sub/b.csv"))
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("link"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("folder-link"), withDestinationURL: folder)
        FileSystem.removeTree(FilePath(tree.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.txt"])
        #expect(FileManager.default.contents(atPath: outside.path) == Data("keep".utf8))
    }
}
