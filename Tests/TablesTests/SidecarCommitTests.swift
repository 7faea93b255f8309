import Foundation
import Testing
import Tables
@testable import TableWriters
import TestSupport

/// An output of whole files listed by a provenance sidecar (a signal file, bt-synth's capture and truth,
/// ilog-parse's companion files): the old sidecar aside, the files, the new sidecar last; a commit cut by a kill is
/// finished by the next run that takes the output's lock, and only when that loses nothing.
@Suite("Sidecar commit")
struct SidecarCommitTests {
    /// Writes `a.dat` and `b.dat` holding `content` with their sidecar `a.dat.provenance.json` in `folder`.
    static func write(_ content: String, in folder: URL) throws {
        let commit = SidecarCommit(sidecar: folder.appendingPathComponent("a.dat.provenance.json").path)
        let files = ["a.dat", "b.dat"].map { (path: folder.appendingPathComponent($0).path, data: Data("\($0): \(content)".utf8)) }
        var provenance = provenanceForTests()
        provenance.outputs = files.map {
            OutputFileRecord(file: URL(fileURLWithPath: $0.path).lastPathComponent, sha256: InputRecord(path: $0.path, contents: $0.data).sha256)
        }
        try commit.write(files, sidecarData: provenance.jsonDocument())
    }

    static func lock(_ folder: URL) throws {
        let sidecar = folder.appendingPathComponent("a.dat.provenance.json").path
        let lock = try OutputLock.acquire(forFiles: ["a.dat", "b.dat", "a.dat.provenance.json"].map { folder.appendingPathComponent($0).path },
                                          committedBy: SidecarCommit(sidecar: sidecar))
        lock.release()
    }

    /// The folder with the new output staged by a process now gone and its commit cut after `steps` (0: every file
    /// complete beside its place, the commit not started; 1: the old sidecar aside; 2: `a.dat` in place; 3: `b.dat`
    /// in place). Returns the folder's files before and the new output's files.
    static func cutCommit(after steps: Int, folder: URL) throws -> (old: [String: Data], new: [String: Data]) {
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try write("old", in: folder)
        let old = try TestSupport.files(under: folder)
        let staging = TestSupport.temporaryFolder()
        try write("new", in: staging)
        let new = try TestSupport.files(under: staging)
        let pid = try TestSupport.endedProcessID()
        let move = { (from: String, to: String) in try #require(rename(from, to) == 0, "\(from) → \(to)") }
        for name in ["a.dat", "b.dat", "a.dat.provenance.json"] {
            try move(staging.appendingPathComponent(name).path, folder.appendingPathComponent(".\(name).tmp-\(pid)").path)
        }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        if steps >= 1 { try move(path("a.dat.provenance.json"), path(".a.dat.provenance.json.tmp-\(pid).previous.json")) }
        if steps >= 2 { try move(path(".a.dat.tmp-\(pid)"), path("a.dat")) }
        if steps >= 3 { try move(path(".b.dat.tmp-\(pid)"), path("b.dat")) }
        return (old, new)
    }

    @Test("A commit writes the files and the sidecar listing them, and leaves nothing else")
    func commitInPlace() throws {
        let folder = TestSupport.temporaryFolder()
        try Self.write("old", in: folder)
        try Self.write("new", in: folder)
        let files = try TestSupport.files(under: folder)
        #expect(files.keys.sorted() == ["a.dat", "a.dat.provenance.json", "b.dat"])
        #expect(files["b.dat"] == Data("b.dat: new".utf8))
        // The sidecar lists both files with their SHA-256 as Python's hashlib computes it from the files in place.
        let recorded = PreviousOutput.recordedFiles(provenance: folder.appendingPathComponent("a.dat.provenance.json").path)
        #expect(recorded.keys.sorted() == ["a.dat", "b.dat"])
        for name in ["a.dat", "b.dat"] {
            #expect(recorded[name] == (try TestSupport.pythonSHA256(ofFile: folder.appendingPathComponent(name).path)))
        }
    }

    @Test("A commit cut by a kill is finished by the next run once it has started, and forgotten before", arguments: 0...3)
    func interrupted(_ steps: Int) throws {
        let folder = TestSupport.temporaryFolder()
        let (old, new) = try Self.cutCommit(after: steps, folder: folder)
        try Self.lock(folder)
        let after = try TestSupport.files(under: folder)
        #expect(after == (steps == 0 ? old : new.merging(["notes.txt": Data("mine".utf8)]) { a, _ in a }))
    }

    @Test("A cut commit is not finished over a file neither sidecar lists with its content: the old sidecar goes back, every file stays")
    func interruptedWithChangedFile() throws {
        let folder = TestSupport.temporaryFolder()
        let (old, _) = try Self.cutCommit(after: 2, folder: folder)
        let b = folder.appendingPathComponent("b.dat")
        try Data("my edit".utf8).write(to: b)
        try Self.lock(folder)
        let after = try TestSupport.files(under: folder)
        #expect(Set(after.keys) == ["a.dat", "b.dat", "a.dat.provenance.json", "notes.txt"])
        #expect(after["a.dat.provenance.json"] == old["a.dat.provenance.json"])
        #expect(after["b.dat"] == Data("my edit".utf8))
        #expect(after["a.dat"] == Data("a.dat: new".utf8))
        #expect(throws: TableOutputError.self) {
            try PreviousOutput.checkReplaceable(files: [b.path], listedIn: folder.appendingPathComponent("a.dat.provenance.json").path)
        }
    }

    @Test("A cut commit whose waiting file is incomplete is not finished: the old sidecar goes back")
    func interruptedWithIncompleteTemporary() throws {
        let folder = TestSupport.temporaryFolder()
        let (old, _) = try Self.cutCommit(after: 2, folder: folder)
        let waiting = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix(".b.dat.tmp-") })
        try Data("b.d".utf8).write(to: folder.appendingPathComponent(waiting))
        try Self.lock(folder)
        let after = try TestSupport.files(under: folder)
        #expect(Set(after.keys) == ["a.dat", "b.dat", "a.dat.provenance.json", "notes.txt"])
        #expect(after["a.dat.provenance.json"] == old["a.dat.provenance.json"])
        #expect(after["b.dat"] == old["b.dat"])
    }

    @Test("A first commit (no old sidecar: its mark is an empty file) cut after it started is finished")
    func interruptedFirstCommit() throws {
        for steps in [1, 2] {
            let folder = TestSupport.temporaryFolder()
            let staging = TestSupport.temporaryFolder()
            try Self.write("new", in: staging)
            let new = try TestSupport.files(under: staging)
            let pid = try TestSupport.endedProcessID()
            for name in ["a.dat", "b.dat", "a.dat.provenance.json"] {
                #expect(rename(staging.appendingPathComponent(name).path, folder.appendingPathComponent(".\(name).tmp-\(pid)").path) == 0)
            }
            // The mark of a first commit is an empty file.
            try Data().write(to: folder.appendingPathComponent(".a.dat.provenance.json.tmp-\(pid).previous.json"))
            if steps >= 2 {
                #expect(rename(folder.appendingPathComponent(".a.dat.tmp-\(pid)").path, folder.appendingPathComponent("a.dat").path) == 0)
            }
            try Self.lock(folder)
            #expect(try TestSupport.files(under: folder) == new, "cut after step \(steps)")
        }
    }
}
