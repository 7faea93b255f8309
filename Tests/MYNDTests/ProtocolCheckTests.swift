import Foundation
import Testing
import TestSupport
@testable import MYND

@Suite("--check-protocol (spec §7)")
struct ProtocolCheckTests {
    let tool = TestSupport.executable("mynd-parse")
    static let uuid = MYNDTestFiles.uuid

    @Test("The example protocol: 25 scenarios, 8 questionnaires, 51 recording files")
    func exampleProtocol() {
        let slots = StudyProtocol.myndExample.slots
        #expect(slots.count == 25)
        #expect(slots.filter { $0.kind == .questionnaire }.count == 8)
        #expect(slots.filter { $0.kind == .recording }.reduce(0) { $0 + $1.files } == 51)
        #expect(slots.map(\.sessionID) == Array(0...24))
        #expect(slots.last == StudyProtocol.Slot(sessionID: 24, day: 7, scenario: "music", kind: .recording, files: 3))
        #expect(Set(slots.filter { $0.day == 3 }.map(\.sessionID)) == [8, 9, 10])
    }

    @Test("A subject folder: present, encrypted, missing, partial, duplicated, extra; run checks and the dummy key",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func subjectFolder() throws {
        let q = try #require(MYNDTestFiles.questionnaire), r = try #require(MYNDTestFiles.recording)
        let dir = TestSupport.temporaryFolder().appendingPathComponent(Self.uuid)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: q, to: dir.appendingPathComponent(MYNDTestFiles.questionnaireName))
        try FileManager.default.copyItem(at: r, to: dir.appendingPathComponent(MYNDTestFiles.recordingName))
        let dummy = CommandLineTests.armored(keyID: [0xFB, 0xEB, 0x35, 0xFB, 0x47, 0x5E, 0x6E, 0x8A])
        let other = CommandLineTests.armored(keyID: [1, 2, 3, 4, 5, 6, 7, 8])
        let encrypted: [(String, String)] = [
            ("q_motivation_1_1_2_\(Self.uuid).json.asc", dummy),
            ("r_rest_1_2_4_\(Self.uuid).hdf.asc", other),      // runID 3 absent: run-gap
            ("r_memories_1_3_4_\(Self.uuid).hdf.asc", other),  // runID 4 twice: duplicate-run
            ("r_music_3_9_1_\(Self.uuid).hdf.asc", other),     // below runID 4 of session 3: run-reset
            ("r_rest_9_40_50_\(Self.uuid).hdf.asc", other),    // no slot 40: extra
        ]
        for (name, text) in encrypted { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        try Data("%PDF-1.4".utf8).write(to: dir.appendingPathComponent("mynd_example_consent_\(Self.uuid).pdf"))
        let out = TestSupport.temporaryFolder().appendingPathComponent("check").path
        let result = try TestSupport.run(tool, ["--check-protocol", dir.path, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 complete"))
        let script = """
        import sys, pandas as pd
        c = pd.read_csv(sys.argv[1] + '/completeness.csv')
        print(len(c), c['expected'].dtype, c['found'].dtype)
        for s in [0, 1, 2, 3, 9, 24, 40]:
            row = c[c.session_id == s].iloc[0]
            print(s, row.scenario, row.kind, row.expected, row.found, row.found_encrypted, row.run_ids, row.status)
        a = pd.read_csv(sys.argv[1] + '/anomalies.csv')
        print(sorted(set(a['code'])))
        """
        let lines = try TestSupport.python(script, [out]).split(separator: "\n").map(String.init)
        #expect(lines == [
            "26 int64 int64",
            "0 initial q 1 1 0 0 complete",
            "1 motivation q 1 1 1 2 complete",
            "2 rest r 3 2 1 1;4 partial",
            "3 memories r 3 1 1 4 partial",
            "9 music r 3 1 1 1 partial",
            "24 music r 3 0 0 nan missing",
            "40 rest r 0 1 1 50 extra",
            "['I_IGNORED', 'W_DUMMY_KEY', 'W_DUPLICATE_RUN', 'W_NAME_MISMATCH', 'W_RUN_GAP', 'W_RUN_RESET']",
        ])
        let anomalies = try String(contentsOfFile: out + "/anomalies.csv", encoding: .utf8)
        for code in ["W_DUMMY_KEY", "W_RUN_GAP", "W_DUPLICATE_RUN", "W_RUN_RESET", "W_NAME_MISMATCH", "I_IGNORED"] {
            #expect(anomalies.contains(",\(code),"), "\(code)")
        }
        #expect(!anomalies.contains("r_rest_1_2_4_\(Self.uuid).hdf.asc,NA,NA,warning,W_DUMMY_KEY"))
    }

    @Test("--protocol FILE replaces the example study; a bad protocol file is exit 65",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func customProtocol() throws {
        let q = try #require(MYNDTestFiles.questionnaire)
        let dir = TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: q, to: dir.appendingPathComponent(MYNDTestFiles.questionnaireName))
        let protocolPath = dir.appendingPathComponent("study.json.txt").path
        try Data("""
        {"name": "pilot", "slots": [{"session_id": 0, "day": 1, "scenario": "initial", "kind": "q", "files": 1},
                                    {"session_id": 1, "day": 1, "scenario": "rest", "kind": "r", "files": 2}]}
        """.utf8).write(to: URL(fileURLWithPath: protocolPath))
        let out = TestSupport.temporaryFolder().appendingPathComponent("c.csv").path
        let result = try TestSupport.run(tool, ["--check-protocol", dir.path, "--protocol", protocolPath, "-o", out,
                                                "--table", "completeness"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains(",0,1,initial,q,1,1,0,0,complete\n"))
        #expect(text.contains(",1,1,rest,r,2,0,0,NA,missing\n"))
        try Data("{\"slots\": [{\"day\": 1}]}".utf8).write(to: URL(fileURLWithPath: protocolPath))
        let bad = try TestSupport.run(tool, ["--check-protocol", dir.path, "--protocol", protocolPath, "-o", out,
                                             "--table", "completeness"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("study.json.txt: expected slot 1 with session_id"))
    }
}
