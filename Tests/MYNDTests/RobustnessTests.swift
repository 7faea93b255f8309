import Foundation
import Testing
import TestSupport
@testable import MYND

/// Damaged copies of the real files: every run ends with tables or one error line, never a crash.
@Suite("Damaged files")
struct RobustnessTests {
    let tool = TestSupport.executable("mynd-parse")

    @Test("2,000 byte-level mutations of the real questionnaire parse or fail with a message")
    func mutatedQuestionnaires() throws {
        guard let url = MYNDTestFiles.questionnaire else { return }
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

    @Test("Mutated copies of the real recording: exit 0 or 65 with a line naming the file, never a crash")
    func mutatedRecordings() throws {
        guard let url = MYNDTestFiles.recording else { return }
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
}
