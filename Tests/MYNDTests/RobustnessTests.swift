import Foundation
import Testing
import TestSupport
@testable import MYND

/// Damaged copies of the real files: every run ends with tables or one error line, never a crash.
@Suite("Damaged files")
struct RobustnessTests {
    let tool = TestSupport.executable("mynd-parse")

    @Test("2,000 byte-level mutations of the real questionnaire parse or fail with a message",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func mutatedQuestionnaires() throws {
        let url = try #require(MYNDTestFiles.questionnaire)
        let original = [UInt8](try Data(contentsOf: url))
        var generator = SystemRandomNumberGenerator()
        var failures = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: position)
                default: bytes.insert(Array("{}[]\":,\\0".utf8).randomElement(using: &generator)!, at: position)
                }
            }
            do {
                let result = try QuestionnaireResult.parse(Data(bytes), sourceFile: "q.json")
                _ = result.answerRows(definition: nil)
            } catch {
                failures += 1
                #expect(error.description.hasPrefix("q.json"))
            }
        }
        #expect(failures > 0)
    }

    @Test("Mutated copies of the real recording: exit 0 or 65 with a line naming the file, never a crash",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func mutatedRecordings() throws {
        let url = try #require(MYNDTestFiles.recording)
        let dir = TestSupport.temporaryFolder()
        let script = """
        import random, sys
        src = open(sys.argv[1], 'rb').read(); random.seed(7)
        for i in range(40):
            b = bytearray(src)
            for _ in range(random.randint(1, 20)):
                lo, hi = random.choice([(0, 8192), (len(b) - 65536, len(b))])
                b[random.randrange(lo, hi)] = random.randrange(256)
            open(f'{sys.argv[2]}/r_rest_1_2_{i}_565C1BB8-F700-46DE-9508-EFAA70288D44.hdf', 'wb').write(b)
        """
        _ = try TestSupport.python(script, [url.path, dir.path])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".hdf") }.sorted()
        #expect(files.count == 40)
        let out = TestSupport.temporaryFolder()
        for name in files {
            let path = dir.appendingPathComponent(name).path
            let result = try TestSupport.run(tool, [path, "-o", out.appendingPathComponent("t").path, "-q"])
            #expect(result.status == 0 || result.status == 65, "\(name): \(result.status) \(result.stderr)")
            if result.status == 65 { #expect(result.stderr.hasPrefix("mynd-parse: error: \(path)"), "\(result.stderr)") }
            #expect(!result.stderr.contains("Program crashed"))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    /// The constructed recording of SampleData/mynd with two bytes of its global heap set to 0xFF: libhdf5 1.10
    /// dies of SIGSEGV reading it (found by mutating the heap's header).
    static func heapCorruptedRecording(in folder: URL, name: String) throws -> String {
        let sample = TestSupport.packageRoot
            .appendingPathComponent("SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf")
        var bytes = [UInt8](try Data(contentsOf: sample))
        let heap = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual("GCOL".utf8) })
        bytes[heap + 59] = 0xFF
        bytes[heap + 63] = 0xFF
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A crash of libhdf5 on a corrupt recording fails that input alone, named with the signal; --keep-going goes on")
    func libraryCrashIsolated() throws {
        let dir = TestSupport.temporaryFolder()
        let corrupt = try Self.heapCorruptedRecording(in: dir, name: "r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf")
        let good = TestSupport.packageRoot
            .appendingPathComponent("SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf").path
        let out = dir.appendingPathComponent("out.h5").path

        let alone = try TestSupport.run(tool, [corrupt, "-o", out])
        #expect(alone.status == 65)
        #expect(alone.stderr == "mynd-parse: error: \(corrupt): the reader of this HDF5 file died of signal SIGSEGV "
                + "(libhdf5 crashes on some corrupt files; if h5dump reads the file, please report it)\n")
        #expect(!FileManager.default.fileExists(atPath: out))

        let both = try TestSupport.run(tool, [corrupt, good, "-o", out, "--keep-going"])
        #expect(both.status == 65)
        #expect(both.stderr.contains("\(corrupt): the reader of this HDF5 file died of signal SIGSEGV"))
        #expect(both.stderr.contains("failed inputs:"))
        let rows = try TestSupport.python("""
        import h5py, sys
        f = h5py.File(sys.argv[1], "r")
        print([v.decode() for v in f["recordings/source_file"][()]])
        """, [out])
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "['\(good)']")
    }

    static let sampleRecording = TestSupport.packageRoot
        .appendingPathComponent("SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf").path
    static let sampleQuestionnaire = TestSupport.packageRoot
        .appendingPathComponent("SampleData/mynd/q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json").path

    @Test("A reader process stopped by a trap of our own code is an internal fault: exit 70, one line naming the file and the trap's message; --keep-going writes the rest and exits 70")
    func readerTrapIsInternalFault() throws {
        let dir = TestSupport.temporaryFolder()
        let out = dir.appendingPathComponent("out.h5").path
        let trap = ["BRAINBATCH_TEST_READER_FAULT": "trap"]
        let alone = try TestSupport.run(tool, [Self.sampleRecording, "-o", out], environment: trap)
        #expect(alone.status == 70, "\(alone.stderr)")
        #expect(alone.stderr.split(separator: "\n").count == 1, "\(alone.stderr)")
        #expect(alone.stderr.hasPrefix("mynd-parse: error: \(Self.sampleRecording): the reader of this HDF5 file stopped on an internal error ("),
                "\(alone.stderr)")
        #expect(alone.stderr.contains("Fatal error: the test fault asked for by BRAINBATCH_TEST_READER_FAULT"), "\(alone.stderr)")
        #expect(alone.stderr.hasSuffix("this is a bug of BrainBatch, please report it with the file\n"), "\(alone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let both = try TestSupport.run(tool, [Self.sampleRecording, Self.sampleQuestionnaire, "-o", out, "--keep-going", "-q"],
                                       environment: trap)
        #expect(both.status == 70, "\(both.stderr)")
        #expect(both.stderr.contains("stopped on an internal error"), "\(both.stderr)")
        let answers = try TestSupport.python("""
        import h5py, sys
        f = h5py.File(sys.argv[1], "r")
        print(sorted({v.decode() for v in f["answers/source_file"][()]}))
        """, [out])
        #expect(answers.trimmingCharacters(in: .whitespacesAndNewlines) == "['\(Self.sampleQuestionnaire)']")
    }

    @Test("A reader process does not outlive its run: killed with SIGKILL while its reader hangs, mynd-parse leaves no process behind")
    func readerEndsWithParent() throws {
        let dir = TestSupport.temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [Self.sampleRecording, "-o", dir.appendingPathComponent("out.h5").path, "-q"]
        process.environment = ProcessInfo.processInfo.environment.merging(["BRAINBATCH_TEST_READER_FAULT": "hang"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let parent = process.processIdentifier
        var child: Int32?
        let deadline = Date().addingTimeInterval(60)
        while child == nil && Date() < deadline {
            child = Self.children(of: parent).first
            if child == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        let reader = try #require(child, "no reader process appeared")
        // Let the child reach its request to end with its parent (its first act), then kill the parent.
        Thread.sleep(forTimeInterval: 0.5)
        kill(parent, SIGKILL)
        process.waitUntilExit()
        var gone = false
        let end = Date().addingTimeInterval(10)
        while !gone && Date() < end {
            gone = kill(reader, 0) != 0 || Self.isZombie(reader)
            if !gone { Thread.sleep(forTimeInterval: 0.05) }
        }
        if !gone { kill(reader, SIGKILL) }
        #expect(gone, "the reader process \(reader) lived on after its parent was killed")
    }

    /// The processes whose parent is `pid` (from `/proc/<pid>/stat`: the parent is the field after the state).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// Whether `pid` has ended and waits for its parent to reap it.
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    @Test("A lone UTF-16 surrogate escape in a definition or a result is read as U+FFFD, not a trap")
    func loneSurrogate() throws {
        for text in [#"{"a": "\ud800\u0000"}"#, #"{"a": "\ud800"}"#, #"{"a": "\udc00\ud800\ud800\udc00"}"#] {
            let document = try JSONDocument.parse(Array(text.utf8))
            guard case .object(let members) = document, case .string(let value)? = members.first?.value else {
                Issue.record("\(text): not an object with a string"); continue
            }
            #expect(value.unicodeScalars.first == "\u{FFFD}", "\(text) → \(value)")
        }
    }
}
