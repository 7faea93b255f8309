import Foundation
import InteractLog
import Testing
import TestSupport

/// No input crashes the parser: every sample, cut and mutated at seeded random places, either parses into
/// consistent tables or fails with an `InteractLogError`.
@Suite struct RobustnessTests {

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func mutatedSamplesNeverCrash() throws {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array(";:0123456789-.\n\r ()_OnOffKeyPressed_".utf8) + [0xFF, 0xE9, 0xEF, 0xBB, 0xBF]
        var parsed = 0, failed = 0
        for name in SampleLogs.all {
            let original = try SampleLogs.data(name)
            for round in 0..<60 {
                var bytes = [UInt8](original)
                for _ in 0..<(1 + round % 8) {
                    guard !bytes.isEmpty else { break }
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: bytes[at] = alphabet.randomElement(using: &generator) ?? 0x3B
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(alphabet.randomElement(using: &generator) ?? 0x3B, at: at)
                    default: bytes = Array(bytes[..<at])
                    }
                }
                for skip in [false, true] {
                    do {
                        let log = try ParsedLog.parse(Data(bytes), sourceFile: name, skipBadLines: skip)
                        let tables = InteractLogTables.tables(TrialAnalysis(log))
                        #expect(tables.count == InteractLogTables.names.count)
                        _ = JavaCompanionFiles.strokes(TrialAnalysis(log)) + JavaCompanionFiles.keys(TrialAnalysis(log))
                        parsed += 1
                    } catch {
                        #expect(!error.message.isEmpty)
                        failed += 1
                    }
                }
            }
        }
        #expect(parsed + failed == SampleLogs.all.count * 120)
        #expect(parsed > 0 && failed > 0)
    }
}
