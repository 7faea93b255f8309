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
