import Foundation
import Testing
import TestSupport

/// `-o rec.bdf|rec.edf|rec.vhdr` from bt-decode, mynd-parse and nt-analyze (docs/bids.md): every file read back
/// with MNE (`mne.io.read_raw_bdf/edf/brainvision`) and edfio and compared sample by sample with the tool's own
/// `samples` table (`Tests/ReadBack/check_signal.py`), within the format's stated bound; and the conventions of
/// every output (nothing lost, exit codes, determinism) for the new outputs.
@Suite("Signal files from the EEG tools")
struct SignalExportTests {
    /// The pinned EEG-BIDS environment (`scripts/setup.sh` makes it from requirements-bids.txt).
    static let python = TestSupport.packageRoot.appendingPathComponent(".venv-bids/bin/python").path
    static let venvPresent = FileManager.default.isExecutableFile(atPath: python)
    static let venvReason: Comment = ".venv-bids is absent (make test runs scripts/setup.sh, which installs it)"

    /// One input and how its samples table is made and named.
    struct Case: CustomTestStringConvertible, Sendable {
        let tool: String
        let input: String
        var realData = false
        /// Options for the samples table that match the signal file (bt-decode fills gaps in signal files).
        var tableOptions: [String] = []
        let columns: [String]
        var filledColumn: String?
        /// The table prints float32 samples (MindAffect): compared in float32.
        var float32 = false
        /// Lost-sample runs and discontinuities the input has (Brainiac).
        var drops = false
        var discontinuities = 0
        var testDescription: String { "\(tool) \(URL(fileURLWithPath: input).lastPathComponent)" }
        var path: String {
            (realData ? TestSupport.realDataRoot : TestSupport.packageRoot).appendingPathComponent(input).path
        }
    }

    static let brainiac = ["t3_uv", "o1_uv", "t4_uv", "o2_uv"]
    static let muse = ["tp9_uv", "af7_uv", "af8_uv", "tp10_uv"]
    static let cases: [Case] = [
        Case(tool: "bt-decode", input: "SampleData/brainiac/faulty_v2.bin", tableOptions: ["--gaps", "fill"],
             columns: brainiac, filledColumn: "filled", drops: true),
        Case(tool: "bt-decode", input: "SampleData/brainiac/restart_mixed.bin", tableOptions: ["--gaps", "fill"],
             columns: brainiac, filledColumn: "filled", discontinuities: 1),
        Case(tool: "mynd-parse", input: "SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf",
             columns: muse),
        Case(tool: "nt-analyze", input: "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt",
             columns: ["ch1_uv", "ch2_uv", "ch3_uv", "ch4_uv"], float32: true),
    ]
    static let realCases: [Case] = [
        Case(tool: "mynd-parse", input: "mynd/r_rest_1_2_1_565C1BB8-F700-46DE-9508-EFAA70288D44.hdf", realData: true,
             columns: muse),
        Case(tool: "nt-analyze", input: "mindaffect/mindaffectBCI_exampledata.txt", realData: true,
             columns: ["ch1_uv", "ch2_uv", "ch3_uv", "ch4_uv"], float32: true),
    ]

    static func run(_ tool: String, _ arguments: [String]) throws -> TestSupport.ProcessResult {
        try TestSupport.run(TestSupport.executable(tool), arguments)
    }

    /// Writes the case as each format and its samples table, and reads each file back; returns the checks' results.
    static func check(_ c: Case) throws -> [String: [String: Any]] {
        let folder = TestSupport.temporaryFolder()
        let table = folder.appendingPathComponent("samples.csv").path
        let made = try run(c.tool, [c.path, "-o", table, "--table", "samples", "-q"] + c.tableOptions)
        try #require(made.status == 0, "\(made.stderr)")
        var results: [String: [String: Any]] = [:]
        for ext in ["bdf", "edf", "vhdr"] {
            let signal = folder.appendingPathComponent("rec." + ext).path
            let written = try run(c.tool, [c.path, "-o", signal])
            try #require(written.status == 0, "\(ext): \(written.stderr)")
            #expect(written.stderr.contains("rec.\(ext): "), "the summary line names the file")
            var arguments = [TestSupport.packageRoot.appendingPathComponent("Tests/ReadBack/check_signal.py").path,
                             signal, table, c.columns.joined(separator: ",")]
            if let filled = c.filledColumn { arguments += ["--filled-column", filled] }
            if c.float32 { arguments.append("--float32") }
            let check = try TestSupport.run(python, arguments)
            try #require(check.status == 0, "\(ext) read back: \(check.stderr)")
            results[ext] = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        }
        return results
    }

    @Test("MNE and edfio read every sample and annotation back", .enabled(if: venvPresent, venvReason),
          arguments: cases)
    func readBack(_ c: Case) throws {
        let results = try Self.check(c)
        if c.tool == "bt-decode" {
            // BDF holds every received Brainiac sample exactly (interpolated fills to the nearest nV).
            let bdf = try #require(results["bdf"])
            #expect((bdf["max_error_received_uv"] as? Double ?? 1) < 1e-9)
            #expect((bdf["max_error_uv"] as? Double ?? 1) <= 0.0005 + 1e-9)
            for (ext, result) in results {
                // As many BAD_lost_samples as runs of lost (filled) samples.
                #expect(result["bad_lost_samples"] as? Int == result["filled_runs"] as? Int, "\(ext)")
                #expect(((result["filled_runs"] as? Int ?? 0) > 0) == c.drops, "\(ext): drops")
                #expect(result["bad_discontinuity"] as? Int == c.discontinuities, "\(ext)")
            }
        }
        for (ext, result) in results {
            #expect((result["annotations"] as? Int ?? 0) > 0, "\(ext)")
            if ext != "vhdr" { #expect(result["edfio_annotations"] as? Int == result["annotations"] as? Int, "\(ext)") }
        }
    }

    @Test("The real recordings read back too", .enabled(if: venvPresent, venvReason),
          .enabled(if: TestSupport.hasRealData(""), "../shared/realdata is absent"), arguments: realCases)
    func realReadBack(_ c: Case) throws {
        let results = try Self.check(c)
        #expect(results.count == 3)
    }

    @Test("Nothing is lost: a foreign or edited file is refused (73), a tool's own output is replaced, re-runs are identical")
    func nothingLost() throws {
        let folder = TestSupport.temporaryFolder()
        let input = TestSupport.packageRoot.appendingPathComponent("SampleData/brainiac/faulty_v2.bin").path
        let before = try TestSupport.pythonSHA256(ofFile: input)
        for ext in ["bdf", "edf", "vhdr"] {
            let signal = folder.appendingPathComponent("own." + ext).path
            #expect(try Self.run("bt-decode", [input, "-o", signal, "-q"]).status == 0)
            let files = ext == "vhdr" ? ["own.eeg", "own.vmrk", "own.vhdr"] : ["own." + ext]
            let first = try files.map { try TestSupport.pythonSHA256(ofFile: folder.appendingPathComponent($0).path) }
            let sidecar = try Data(contentsOf: URL(fileURLWithPath: signal + ".provenance.json"))
            #expect(try Self.run("bt-decode", [input, "-o", signal, "-q"]).status == 0, "its own output is replaced")
            let second = try files.map { try TestSupport.pythonSHA256(ofFile: folder.appendingPathComponent($0).path) }
            #expect(first == second, "\(ext): the same bytes on a re-run")
            #expect(try Data(contentsOf: URL(fileURLWithPath: signal + ".provenance.json")) == sidecar)
            // Edited since: refused, unchanged.
            let edited = folder.appendingPathComponent(files[0]).path
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: edited))
            try handle.seekToEnd(); try handle.write(contentsOf: Data([0])); try handle.close()
            let editedSHA = try TestSupport.pythonSHA256(ofFile: edited)
            let refused = try Self.run("bt-decode", [input, "-o", signal])
            #expect(refused.status == 73 && refused.stderr.contains(edited), "\(ext): \(refused.stderr)")
            #expect(try TestSupport.pythonSHA256(ofFile: edited) == editedSHA)
            // Someone else's file of that name.
            let foreign = folder.appendingPathComponent("foreign." + ext).path
            try Data("not ours\n".utf8).write(to: URL(fileURLWithPath: foreign))
            let other = try Self.run("bt-decode", [input, "-o", foreign])
            #expect(other.status == 73 && other.stderr.contains(foreign), "\(ext): \(other.stderr)")
            #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not ours\n")
            #expect(!FileManager.default.fileExists(atPath: foreign + ".provenance.json"))
        }
        #expect(try TestSupport.pythonSHA256(ofFile: input) == before, "the input is never touched")
        // No temporary file is left behind.
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "\(hidden)")
    }

    @Test("Usage and input errors: one line, the conventions' exit code, nothing written")
    func failures() throws {
        let folder = TestSupport.temporaryFolder()
        let root = TestSupport.packageRoot
        let clean = root.appendingPathComponent("SampleData/brainiac/clean_v2.bin").path
        let faulty = root.appendingPathComponent("SampleData/brainiac/faulty_v2.bin").path
        let out = folder.appendingPathComponent("x.bdf").path
        let runs: [(String, [String], Int32)] = [
            ("bt-decode", [clean, faulty, "-o", out], 64),
            ("bt-decode", [clean, "-o", out, "--table", "samples"], 64),
            ("bt-decode", [clean, "-o", out, "--report", folder.appendingPathComponent("r.html").path], 64),
            ("rt-stats", [root.appendingPathComponent("SampleData/braintracker/BrainTrackerResultsFile.csv").path, "-o", out], 64),
            ("mynd-parse", [root.appendingPathComponent("SampleData/mynd/q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json").path,
                            "-o", out], 65),
            ("bt-decode", [clean, "-o", folder.appendingPathComponent("absent/x.edf").path], 73),
        ]
        for (tool, arguments, status) in runs {
            let result = try Self.run(tool, arguments)
            #expect(result.status == status, "\(tool) \(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").filter { $0.contains("error:") }.count == 1, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
