import Foundation
import Testing
import Tables
@testable import TableWriters
import TestSupport

/// Issue 19's commit rules: one run at a time per output, what killed runs left is removed (a commit cut in the
/// middle finished), and a CSV output replaced file by file (a single CSV, or a folder where the file system
/// cannot exchange folders) never shows a provenance that does not match the files beside it.
@Suite("Output commit, lock and recovery")
struct CommitTests {
    /// Writes tables `t` (rows `values`) and, when `withU`, `u` to `destination`, and commits.
    static func write(_ destination: OutputDestination, values: [Int], withU: Bool = true,
                      exchangesFolders: Bool = true) throws {
        let output = try TableOutput(destination: destination, tableNames: ["t", "u"])
        output.exchangesFolders = exchangesFolders
        try output.write(Table("t", [.int32("n", values)]))
        if withU { try output.write(Table("u", [.string("s", values.map { "row \($0)" })])) }
        try output.commit(provenance: provenanceForTests())
    }

    static func files(_ folder: URL) throws -> [String: Data] { try TestSupport.files(under: folder) }

    @Test("A second output of the same destination is refused while the first is open (73, naming the output and the pid); once it is committed the destination is free")
    func secondWriterRefused() throws {
        let folder = TestSupport.temporaryFolder()
        for destination in [OutputDestination.hdf5(path: folder.appendingPathComponent("a.h5").path),
                            .csvFolder(path: folder.appendingPathComponent("tables").path),
                            .csvFile(path: folder.appendingPathComponent("t.csv").path, table: "t")] {
            let first = try TableOutput(destination: destination, tableNames: ["t"])
            try first.write(Table("t", [.int32("n", [1])]))
            let error = #expect(throws: TableOutputError.self) {
                _ = try TableOutput(destination: destination, tableNames: ["t"])
            }
            #expect(error == .busy(path: destination.path, pid: getpid()))
            #expect(error?.description.hasPrefix("\(destination.path): another run (pid \(getpid())) is writing this output") == true)
            try first.commit(provenance: provenanceForTests())
            let second = try TableOutput(destination: destination, tableNames: ["t"])
            try second.write(Table("t", [.int32("n", [2])]))
            try second.commit(provenance: provenanceForTests())
        }
        // No lock file or temporary is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["a.h5", "t.csv", "t.csv.provenance.json", "t.csv.schema.json", "tables"])
    }

    @Test("Temporaries of killed runs (a file, a folder with tables, single-CSV sidecars) are removed when the output is opened; unrelated files keep their bytes")
    func staleTemporariesRemoved() throws {
        let folder = TestSupport.temporaryFolder()
        let dead = try TestSupport.endedProcessID()
        let unrelated = [".a.h5.tmp-notapid": "x", "notes.txt": "mine", ".b.h5.tmp-\(dead)": "another output's"]
        for (name, text) in unrelated { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        try Data("partial".utf8).write(to: folder.appendingPathComponent(".a.h5.tmp-\(dead)"))
        let tree = folder.appendingPathComponent(".tables.tmp-\(dead)")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: false)
        try Data("n\n1\n".utf8).write(to: tree.appendingPathComponent("t.csv"))
        for suffix in ["", ".schema.json", ".provenance.json"] {
            try Data("partial".utf8).write(to: folder.appendingPathComponent(".t.csv.tmp-\(dead)\(suffix)"))
        }
        try Data("\(dead)\n".utf8).write(to: folder.appendingPathComponent(".tables.lock"))
        let before = try CommitTests.files(folder)
        try CommitTests.write(.hdf5(path: folder.appendingPathComponent("a.h5").path), values: [1])
        try CommitTests.write(.csvFolder(path: folder.appendingPathComponent("tables").path), values: [1])
        try CommitTests.write(.csvFile(path: folder.appendingPathComponent("t.csv").path, table: "t"), values: [1])
        let after = try CommitTests.files(folder)
        #expect(Set(after.keys) == Set(unrelated.keys).union(["a.h5", "tables/t.csv", "tables/u.csv",
                                                                "tables/datapackage.json", "tables/provenance.json",
                                                                "t.csv", "t.csv.schema.json", "t.csv.provenance.json"]))
        for name in unrelated.keys { #expect(after[name] == before[name], "\(name)") }
    }

    @Test("Without a folder exchange, a folder output is replaced file by file: the new files, old tables the new output lacks removed, the provenance last; nothing else in the parent touched",
          arguments: [false, true])
    func folderReplacedFileByFile(_ exchanges: Bool) throws {
        let folder = TestSupport.temporaryFolder()
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let out = OutputDestination.csvFolder(path: folder.appendingPathComponent("out").path)
        try CommitTests.write(out, values: [1, 2], exchangesFolders: exchanges)
        let reference = TestSupport.temporaryFolder()
        try CommitTests.write(.csvFolder(path: reference.appendingPathComponent("out").path), values: [3], withU: false)
        try CommitTests.write(out, values: [3], withU: false, exchangesFolders: exchanges)
        let after = try CommitTests.files(folder)
        #expect(after.filter { $0.key.hasPrefix("out/") } == (try CommitTests.files(reference)))
        #expect(Set(after.keys) == ["notes.txt", "out/t.csv", "out/datapackage.json", "out/provenance.json"])
        // A file nobody listed stops the next run, as before.
        try Data("x".utf8).write(to: folder.appendingPathComponent("out/extra.txt"))
        #expect(throws: TableOutputError.self) {
            try CommitTests.write(out, values: [4], exchangesFolders: exchanges)
        }
    }

    /// A commit of a single CSV cut after `steps` of its steps (0: the temporary is complete, the commit not
    /// started; 1: the old provenance aside; 2: the schema in place; 3: the table in place) by a process now gone.
    @Test("A single-CSV commit cut by a kill is finished by the next run once it has started, and forgotten before", arguments: 0...3)
    func interruptedSingleCSV(_ steps: Int) throws {
        let folder = TestSupport.temporaryFolder()
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let x = folder.appendingPathComponent("x.csv").path
        try CommitTests.write(.csvFile(path: x, table: "t"), values: [1, 2])
        let old = try CommitTests.files(folder)
        let staging = TestSupport.temporaryFolder()
        try CommitTests.write(.csvFile(path: staging.appendingPathComponent("x.csv").path, table: "t"), values: [3, 4, 5])
        let new = try CommitTests.files(staging)
        let temporary = folder.appendingPathComponent(".x.csv.tmp-\(try TestSupport.endedProcessID())").path
        let move = { (from: String, to: String) in try #require(rename(from, to) == 0, "\(from) → \(to)") }
        for suffix in ["", ".schema.json", ".provenance.json"] {
            try move(staging.appendingPathComponent("x.csv" + suffix).path, temporary + suffix)
        }
        if steps >= 1 { try move(x + ".provenance.json", temporary + ".previous.json") }
        if steps >= 2 { try move(temporary + ".schema.json", x + ".schema.json") }
        if steps >= 3 { try move(temporary, x) }
        let lock = try OutputLock.acquire(for: .csvFile(path: x, table: "t"))
        lock.release()
        let after = try CommitTests.files(folder)
        #expect(after == (steps == 0 ? old : new.merging(["notes.txt": Data("mine".utf8)]) { a, _ in a }))
    }

    /// A folder commit without exchange cut after `steps` (0: not started; 1: the old provenance aside in the
    /// temporary folder; 2: datapackage.json in place; 3: t.csv in place; 4: u.csv, which the new output lacks,
    /// removed).
    @Test("A file-by-file folder commit cut by a kill is finished by the next run once it has started", arguments: 0...4)
    func interruptedFolder(_ steps: Int) throws {
        let folder = TestSupport.temporaryFolder()
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let out = folder.appendingPathComponent("out").path
        try CommitTests.write(.csvFolder(path: out), values: [1, 2])
        let old = try CommitTests.files(folder)
        let staging = TestSupport.temporaryFolder()
        try CommitTests.write(.csvFolder(path: staging.appendingPathComponent("out").path), values: [3], withU: false)
        let new = try CommitTests.files(staging)
        let temporary = folder.appendingPathComponent(".out.tmp-\(try TestSupport.endedProcessID())").path
        let move = { (from: String, to: String) in try #require(rename(from, to) == 0, "\(from) → \(to)") }
        try move(staging.appendingPathComponent("out").path, temporary)
        if steps >= 1 { try move(out + "/provenance.json", temporary + "/.previous-provenance.json") }
        if steps >= 2 { try move(temporary + "/datapackage.json", out + "/datapackage.json") }
        if steps >= 3 { try move(temporary + "/t.csv", out + "/t.csv") }
        if steps >= 4 { try FileManager.default.removeItem(atPath: out + "/u.csv") }
        let lock = try OutputLock.acquire(for: .csvFolder(path: out))
        lock.release()
        let after = try CommitTests.files(folder)
        #expect(after == (steps == 0 ? old : new.merging(["notes.txt": Data("mine".utf8)]) { a, _ in a }))
    }

    @Test("An interrupted commit is not finished over a file neither provenance lists: the old provenance goes back, every file stays")
    func interruptedCommitWithForeignFile() throws {
        let folder = TestSupport.temporaryFolder()
        let out = folder.appendingPathComponent("out").path
        try CommitTests.write(.csvFolder(path: out), values: [1, 2])
        let oldProvenance = try Data(contentsOf: URL(fileURLWithPath: out + "/provenance.json"))
        let staging = TestSupport.temporaryFolder()
        try CommitTests.write(.csvFolder(path: staging.appendingPathComponent("out").path), values: [3], withU: false)
        let temporary = folder.appendingPathComponent(".out.tmp-\(try TestSupport.endedProcessID())").path
        try FileManager.default.moveItem(atPath: staging.appendingPathComponent("out").path, toPath: temporary)
        try #require(rename(out + "/provenance.json", temporary + "/.previous-provenance.json") == 0)
        try #require(rename(temporary + "/t.csv", out + "/t.csv") == 0)
        try Data("my analysis".utf8).write(to: URL(fileURLWithPath: out + "/mine.txt"))
        let lock = try OutputLock.acquire(for: .csvFolder(path: out))
        lock.release()
        let after = try CommitTests.files(folder)
        #expect(Set(after.keys) == ["out/t.csv", "out/u.csv", "out/datapackage.json", "out/provenance.json", "out/mine.txt"])
        #expect(after["out/provenance.json"] == oldProvenance)
        #expect(after["out/mine.txt"] == Data("my analysis".utf8))
        #expect(throws: TableOutputError.self) { try PreviousOutput.checkReplaceable(.csvFolder(path: out)) }
    }
}
