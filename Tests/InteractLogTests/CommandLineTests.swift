import FileSystem
import Foundation
import InteractLog
import SystemPackage
import Testing
import TestSupport

/// `ilog-parse` end to end: exit codes and messages for bad input, --skip-bad-lines, --keep-going, companion
/// inputs, and --java-companions.
@Suite struct CommandLineTests {
    let exe = TestSupport.executable("ilog-parse")
    let folder = TestSupport.temporaryFolder()

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    static let good = MalformedInputTests.java(["1;1000000000;0;0;DrawingEnabled", "2;2000000000;10;10;ButtonDown",
                                                "3;2500000000;20;10;ButtonReleased"])
    static let badFields = MalformedInputTests.java(["1;1000000000;0;0;DrawingEnabled", "13;24912044833416;373;ButtonDown"])

    @Test func badLineFailsWithFileLineAndCode() throws {
        let bad = try write("in/P01 (Trial 1) 2023-07-04 - 10-15-02.txt", Self.badFields)
        let result = try TestSupport.run(exe, [bad, "-o", path("out.h5")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(bad):15: E_FIELDS expected 5 ';'-separated fields, found 4"))
        #expect(!FileManager.default.fileExists(atPath: path("out.h5")))
    }

    @Test func skipBadLinesRecordsTheErrorAndSucceeds() throws {
        let bad = try write("in/P01 (Trial 1) 2023-07-04 - 10-15-02.txt", Self.badFields)
        let result = try TestSupport.run(exe, [bad, "-o", path("out"), "--skip-bad-lines"])
        #expect(result.status == 0, "\(result.stderr)")
        let csv = try String(contentsOfFile: path("out/anomalies.csv"), encoding: .utf8)
        #expect(csv.contains(",15,NA,error,E_FIELDS,\"expected 5 ';'-separated fields, found 4\",13;24912044833416;373;ButtonDown"))
        #expect(result.stderr.contains("1 E_FIELDS"))
    }

    @Test func fileLevelFailuresAndExitCodes() throws {
        let empty = try write("empty.txt", "  \n")
        var result = try TestSupport.run(exe, [empty, "-o", path("out.h5")])
        #expect(result.status == 65 && result.stderr.contains("\(empty): E_EMPTY"))
        let binary = try write("binary.txt", "Name:x\n\u{0}\n")
        result = try TestSupport.run(exe, [binary, "-o", path("out.h5"), "--skip-bad-lines"])
        #expect(result.status == 65 && result.stderr.contains("\(binary):2: E_BINARY"))
        let foreign = try write("foreign.txt", "id,value\n1,2\n")
        result = try TestSupport.run(exe, [foreign, "-o", path("out.h5")])
        #expect(result.status == 65 && result.stderr.contains("\(foreign):1: E_NOT_INTERACTLOG"))
        result = try TestSupport.run(exe, [path("missing.txt"), "-o", path("out.h5")])
        #expect(result.status == 66)
        result = try TestSupport.run(exe, [empty, "-o", path("out.csv")])
        #expect(result.status == 64)
    }

    @Test func keepGoingWritesWhatSucceeded() throws {
        let good = try write("P01 (Trial 1) 2023-07-04 - 10-15-02.txt", Self.good)
        let empty = try write("empty.txt", "")
        let companion = try write("P01 (Trial 1) 2023-07-04 - 10-15-02_strokes.txt", "Name:P01\n\n1;1;2;3;4;5;6\n")
        let result = try TestSupport.run(exe, [good, empty, companion, "-o", path("out"), "--keep-going"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("failed inputs:") && result.stderr.contains("E_EMPTY"))
        let trials = try String(contentsOfFile: path("out/trials.csv"), encoding: .utf8)
        #expect(trials.split(separator: "\n").count == 2)
        let anomalies = try String(contentsOfFile: path("out/anomalies.csv"), encoding: .utf8)
        #expect(anomalies.contains("I_COMPANION") && !result.stderr.contains("I_COMPANION"))
    }

    @Test("--keep-going: when every log fails and only a companion file was read, an earlier output stays as it was (exit 65)")
    func keepGoingCompanionOnlyWritesNothing() throws {
        let good = try write("P01 (Trial 1) 2023-07-04 - 10-15-02.txt", Self.good)
        let bad = try write("bad/P01 (Trial 1) 2023-07-04 - 10-15-02.txt", Self.badFields)
        let companion = try write("P01 (Trial 1) 2023-07-04 - 10-15-02_strokes.txt", "Name:P01\n\n1;1;2;3;4;5;6\n")
        #expect(try TestSupport.run(exe, [good, "-o", path("out.h5"), "-q"]).status == 0)
        let before = try TestSupport.sha256s(under: folder)
        let result = try TestSupport.run(exe, [bad, companion, "-o", path("out.h5"), "--keep-going"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("failed inputs:") && result.stderr.contains("E_FIELDS"), "\(result.stderr)")
        #expect(try TestSupport.sha256s(under: folder) == before)
    }

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func sameInputsGiveByteIdenticalOutputs() throws {
        let samples = try SampleLogs.folder()
        let inputs = SampleLogs.all.map { samples.appendingPathComponent($0).path }
        #expect(try TestSupport.run(exe, inputs + ["-o", path("out.h5"), "-q"]).status == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: path("out.h5")))
        #expect(try TestSupport.run(exe, inputs + ["-o", path("out.h5"), "-q"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("out.h5"))) == first)
    }

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func javaCompanionsAreWrittenInThe23Layout() throws {
        let samples = try SampleLogs.folder()
        let log = samples.appendingPathComponent(SampleLogs.java22Trial1).path
        let ipad = samples.appendingPathComponent(SampleLogs.ipad11).path
        let out = path("companions")
        var result = try TestSupport.run(exe, [log, ipad, "-o", path("out.h5"), "--java-companions", out])
        #expect(result.status == 0, "\(result.stderr)")
        let stem = "P01 (Trial 1) 2023-07-04 - 10-15-02"
        let strokes = try String(contentsOfFile: out + "/\(stem)_strokes.txt", encoding: .utf8)
        let keys = try String(contentsOfFile: out + "/\(stem)_keys.txt", encoding: .utf8)
        let lines = strokes.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Name                 :P01" && lines[11] == "Trial End            :04/07/2023 - 10:16:58")
        #expect(lines[12] == "" && lines[13] == "1;58239644405506;58241052606016;480;170;760;168")
        #expect(lines.count == 13 + 18 + 1)
        let keyLines = keys.split(separator: "\n")
        #expect(keyLines[12] == "2;38;1;UP;Up;58248816605955;58255324905479;6508299524")
        #expect(keyLines.count == 12 + 5)
        // The iPad log gets none; the folder's provenance lists the two files with their SHA-256.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
                == ["\(stem)_keys.txt", "\(stem)_strokes.txt", "ilog-parse-companions.provenance.json"])
        // Read back beside a copy of the log, the companions are skipped and agree with it.
        let copyBeside = try write("companions/\(stem).txt", try String(contentsOfFile: log, encoding: .utf8))
        result = try TestSupport.run(exe, [copyBeside, out + "/\(stem)_strokes.txt", out + "/\(stem)_keys.txt", "-o", path("back")])
        #expect(result.status == 0, "\(result.stderr)")
        let back = try String(contentsOfFile: path("back/anomalies.csv"), encoding: .utf8)
        #expect(back.components(separatedBy: "I_COMPANION").count == 3 && !back.contains("W_COMPANION_MISMATCH"))
        try FileManager.default.removeItem(atPath: copyBeside)
        // Its own earlier companions are replaced; a companion changed by hand is not, without --force (73).
        result = try TestSupport.run(exe, [log, "-o", path("out2.h5"), "--java-companions", out])
        #expect(result.status == 0, "\(result.stderr)")
        try Data((strokes + "edited\n").utf8).write(to: URL(fileURLWithPath: out + "/\(stem)_strokes.txt"))
        result = try TestSupport.run(exe, [log, "-o", path("out2.h5"), "--java-companions", out])
        #expect(result.status == 73 && result.stderr.contains("--force") && result.stderr.contains("changed"))
        result = try TestSupport.run(exe, [log, "-o", path("out2.h5"), "--java-companions", out, "--force"])
        #expect(result.status == 0)
        // Never beside the inputs (64); two inputs with one stem (73) even with --force.
        let inputFolder = (log as NSString).deletingLastPathComponent
        result = try TestSupport.run(exe, [log, "-o", path("out3.h5"), "--java-companions", inputFolder])
        #expect(result.status == 64)
        let copy = try write("other/\(stem).txt", try String(contentsOfFile: log, encoding: .utf8))
        result = try TestSupport.run(exe, [log, copy, "-o", path("out4.h5"), "--java-companions", out, "--force"])
        #expect(result.status == 73 && result.stderr.contains("same name"))
    }

    @Test("--java-companions: one run at a time per folder (73 while another holds its lock), and what killed runs left there is removed",
          .enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func javaCompanionsLockAndStaleTemporaries() throws {
        let log = try SampleLogs.folder().appendingPathComponent(SampleLogs.java22Trial1).path
        let out = path("companions")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let stem = "P01 (Trial 1) 2023-07-04 - 10-15-02"
        let dead = try TestSupport.endedProcessID()
        let stale = [".\(stem)_strokes.txt.tmp-\(dead)", ".ilog-parse-companions.provenance.json.tmp-\(dead)"]
        for name in stale + ["notes.txt"] { try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/" + name)) }

        let provenance = FilePath(out + "/ilog-parse-companions.provenance.json")
        let lock = try FileLock.acquire(for: provenance)
        let refused = try TestSupport.run(exe, [log, "-o", path("out.h5"), "--java-companions", out])
        lock.release()
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("another run (pid \(getpid())) is writing this output"), "\(refused.stderr)")

        let result = try TestSupport.run(exe, [log, "-o", path("out.h5"), "--java-companions", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
                == ["\(stem)_keys.txt", "\(stem)_strokes.txt", "ilog-parse-companions.provenance.json", "notes.txt"])
    }
}
