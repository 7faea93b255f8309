import Foundation
import Testing
import TestSupport

/// The contract of docs/conventions.md, checked once for every table-writing tool from one table of the tools
/// instead of re-typed per tool: determinism (§2.6), exit codes (§3.3), nothing overwritten that BrainBatch did not
/// write (§3.1), every documented table written even when it has no rows, provenance (§2.6), and one
/// `<tool>: error: …` line per failure on stderr.
@Suite("Conventions, for every table tool")
struct ConventionsTests {
    /// An input a tool must reject with exit 65, made in the test's folder.
    enum BadInput: Sendable {
        /// 4096 bytes that are no format's, `(i·89 + 7) mod 251`: binary, with NUL bytes and line ends.
        case garbage(name: String)
        /// The first `bytes` bytes of a sample input.
        case truncated(String, bytes: Int, name: String)
    }

    /// A tool as the suite sees it.
    struct Tool: CustomTestStringConvertible, Sendable {
        /// The executable.
        let name: String
        /// Good SampleData inputs (relative to the package root), given together. The first alone gives every table
        /// in `emptyWithFirstInput` without rows.
        let inputs: [String]
        let bad: BadInput
        /// Every table the tool's page (docs/<tool>.md, for bt-decode also docs/bt-decode-analysis.md) documents for
        /// a run over files.
        let tables: [String]
        /// The documented tables that have no rows for `inputs[0]`.
        let emptyWithFirstInput: [String]
        /// A subcommand, put before every argument but `--version`.
        var subcommand: [String] = []
        var testDescription: String { ([name] + subcommand).joined(separator: " ") }
    }

    static let uuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    static let mindaffect = "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"

    static let tools: [Tool] = [
        Tool(name: "bt-decode",
             inputs: ["SampleData/brainiac/clean_v2.bin", "SampleData/brainiac/faulty_v2.bin"],
             bad: .truncated("SampleData/brainiac/clean_v2.bin", bytes: 7, name: "short.bin"),
             tables: ["recordings", "samples", "gaps", "anomalies", "frames", "baseline", "indicators", "band_power"],
             emptyWithFirstInput: ["gaps", "anomalies"]),
        Tool(name: "ilog-parse",
             inputs: ["SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
                      "SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt"],
             bad: .garbage(name: "P03 (Trial 1) 2023-07-04 - 11-00-00.txt"),
             tables: ["trials", "header", "events", "strokes", "stimulus_views", "stimulus_summary", "keys", "anomalies"],
             emptyWithFirstInput: ["keys", "anomalies"]),
        Tool(name: "rt-stats",
             inputs: ["SampleData/braintracker/brain_data_raw.csv", "SampleData/braintracker/BrainTrackerResultsFile.csv"],
             bad: .garbage(name: "BrainTrackerResultsFile (broken).csv"),
             tables: ["trials", "sessions", "anomalies"],
             emptyWithFirstInput: ["anomalies"]),
        // `completeness` is written only by --check-protocol, which reads no files: not a run over files.
        Tool(name: "mynd-parse",
             inputs: ["SampleData/mynd/q_initial_1_0_0_\(uuid).json", "SampleData/mynd/r_rest_1_2_1_\(uuid).hdf"],
             bad: .truncated("SampleData/mynd/r_rest_1_2_1_\(uuid).hdf", bytes: 20_000, name: "r_rest_1_2_2_\(uuid).hdf"),
             tables: ["answers", "recordings", "events", "epochs", "band_power", "quality", "quality_summary", "samples",
                      "anomalies"],
             emptyWithFirstInput: ["recordings", "events", "epochs", "band_power", "quality", "quality_summary", "samples"]),
        Tool(name: "nt-analyze",
             inputs: [mindaffect],
             bad: .garbage(name: "mindaffectBCI_broken_261123_1300.txt"),
             tables: ["messages", "modes", "trials", "samples", "stimuli", "summary", "anomalies"],
             emptyWithFirstInput: []),
        Tool(name: "nt-analyze",
             inputs: [mindaffect],
             bad: .garbage(name: "mindaffectBCI_broken_261123_1300.txt"),
             tables: ["decode_summary", "decode_trials", "decoding_curve", "model", "impulse_response", "anomalies"],
             emptyWithFirstInput: [], subcommand: ["decode"]),
    ]

    // MARK: - Helpers

    static func path(_ relative: String) -> String { TestSupport.packageRoot.appendingPathComponent(relative).path }

    static func run(_ tool: Tool, _ arguments: [String]) throws -> TestSupport.ProcessResult {
        try TestSupport.run(TestSupport.executable(tool.name), (arguments == ["--version"] ? [] : tool.subcommand) + arguments)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The lines of a process's output (a final line end ends the last line, it does not start another).
    static func lines(_ text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Writes the tool's bad input into `folder` and returns its path.
    static func writeBadInput(_ tool: Tool, in folder: URL) throws -> String {
        switch tool.bad {
        case .garbage(let name):
            let url = folder.appendingPathComponent(name)
            try Data((0..<4096).map { UInt8(($0 * 89 + 7) % 251) }).write(to: url)
            return url.path
        case .truncated(let source, let bytes, let name):
            let url = folder.appendingPathComponent(name)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path(source)))
            try #require(whole.count > bytes, "\(source) is not longer than \(bytes) bytes")
            try whole.prefix(bytes).write(to: url)
            return url.path
        }
    }

    /// A JSON object from a file's bytes (`nil`: the file is missing).
    static func jsonObject(_ data: Data?, _ what: String) throws -> [String: Any] {
        let data = try #require(data, "\(what) is missing")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(what) is not a JSON object")
    }

    // MARK: - Failures (exit codes, messages, nothing changed)

    /// The failures of conventions §3.3 and §3.1, each a kind of mistake a user makes.
    enum Failure: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case usage = "usage error"
        case missingInput = "missing input"
        case badInput = "bad input"
        case missingOutputFolder = "-o into a folder that does not exist"
        case outputIsInput = "-o is an input"
        case foreignOutput = "-o names a file BrainBatch did not write"
        var testDescription: String { rawValue }
    }

    /// One failing run: its arguments, the exit code conventions.md gives it, a text stderr must contain, files
    /// whose SHA-256 it must not change, and paths it must not create.
    struct FailingRun {
        var what: String
        var arguments: [String]
        var status: Int32
        var names: String?
        var unchanged: [String] = []
        var absent: [String] = []
        /// Found by swift-argument-parser while parsing the command line (it prints its own message).
        var parseError = false
    }

    /// The runs of one kind of failure for `tool`, set up in `folder`.
    static func failingRuns(_ kind: Failure, _ tool: Tool, in folder: URL) throws -> [FailingRun] {
        let good = path(tool.inputs[0])
        let out = folder.appendingPathComponent("out.h5").path
        switch kind {
        case .usage:
            return [FailingRun(what: "no inputs", arguments: ["-o", out], status: 64, absent: [out], parseError: true),
                    FailingRun(what: "unknown option", arguments: [good, "-o", out, "--no-such-option"], status: 64,
                               names: "--no-such-option", absent: [out], parseError: true)]
        case .missingInput:
            let missing = folder.appendingPathComponent("absent-" + URL(fileURLWithPath: good).lastPathComponent).path
            return [FailingRun(what: "missing input", arguments: [missing, "-o", out], status: 66, names: missing, absent: [out])]
        case .badInput:
            let bad = try writeBadInput(tool, in: folder)
            return [FailingRun(what: "bad input", arguments: [bad, "-o", out], status: 65, names: bad,
                               unchanged: [bad], absent: [out])]
        case .missingOutputFolder:
            let absent = folder.appendingPathComponent("absent")
            return [FailingRun(what: "HDF5 in a missing folder", arguments: [good, "-o", absent.appendingPathComponent("x.h5").path],
                               status: 73, names: absent.path, absent: [absent.path]),
                    FailingRun(what: "CSV folder in a missing folder",
                               arguments: [good, "-o", absent.appendingPathComponent("tables").path + "/"],
                               status: 73, names: absent.path, absent: [absent.path])]
        case .outputIsInput:
            // §3.1 refuses an output path that is an input (73). Where the input's name is not an output name at
            // all (x.bin, x.txt, x.csv without --table, x.json), §2.1 decides first: an existing file of another
            // kind is a usage error (64). An input named like an HDF5 output (MYND's r_*.hdf, or any input renamed
            // x.h5) is an HDF5 destination, refused by §3.1 with 73.
            var runs: [FailingRun] = []
            let inputs = folder.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            for input in tool.inputs {
                let copy = inputs.appendingPathComponent(URL(fileURLWithPath: input).lastPathComponent).path
                try FileManager.default.copyItem(atPath: path(input), toPath: copy)
                let hdf5Name = ["h5", "hdf5", "hdf"].contains(URL(fileURLWithPath: copy).pathExtension)
                runs.append(FailingRun(what: "-o the input itself", arguments: [copy, "-o", copy], status: hdf5Name ? 73 : 64,
                                       names: copy, unchanged: [copy]))
            }
            let renamed = inputs.appendingPathComponent("input.h5").path
            try FileManager.default.copyItem(atPath: good, toPath: renamed)
            runs.append(FailingRun(what: "-o an input named .h5", arguments: [renamed, "-o", renamed], status: 73,
                                   names: renamed, unchanged: [renamed]))
            return runs
        case .foreignOutput:
            let text = folder.appendingPathComponent("existing.h5").path
            try Data("results I typed in myself\n".utf8).write(to: URL(fileURLWithPath: text))
            // A real HDF5 file of another program: the MYND app's recording.
            let other = folder.appendingPathComponent("other-program.h5").path
            try FileManager.default.copyItem(atPath: path("SampleData/mynd/r_rest_1_2_1_\(uuid).hdf"), toPath: other)
            let csv = folder.appendingPathComponent("existing.csv").path
            try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: csv))
            return [FailingRun(what: "a text file named .h5", arguments: [good, "-o", text], status: 73, names: text,
                               unchanged: [text]),
                    FailingRun(what: "another program's HDF5 file", arguments: [good, "-o", other], status: 73,
                               names: other, unchanged: [other]),
                    FailingRun(what: "another program's CSV file", arguments: [good, "-o", csv, "--table", tool.tables[0]],
                               status: 73, names: csv, unchanged: [csv],
                               absent: [csv + ".provenance.json", csv + ".schema.json"])]
        }
    }

    @Test("Failures exit with conventions §3.3's code, name the file, and change nothing",
          arguments: tools, Failure.allCases)
    func exitCodes(_ tool: Tool, _ kind: Failure) throws {
        let folder = TestSupport.temporaryFolder()
        for run in try ConventionsTests.failingRuns(kind, tool, in: folder) {
            let before = try run.unchanged.map { try TestSupport.pythonSHA256(ofFile: $0) }
            let result = try ConventionsTests.run(tool, run.arguments)
            #expect(result.status == run.status, "\(run.what): exit \(result.status), expected \(run.status): \(result.stderr)")
            if let names = run.names {
                #expect(result.stderr.contains(names), "\(run.what): stderr does not name \(names): \(result.stderr)")
            }
            if kind == .missingInput {
                #expect(ConventionsTests.lines(result.stderr).count == 1, "\(run.what): \(result.stderr)")
            }
            let after = try run.unchanged.map { try TestSupport.pythonSHA256(ofFile: $0) }
            #expect(after == before, "\(run.what) changed \(run.unchanged)")
            for path in run.absent {
                #expect(!ConventionsTests.exists(path), "\(run.what) created \(path)")
            }
        }
    }

    @Test("stderr: each failure is one line, '<tool>: error: …' (-q: nothing else)", arguments: tools, Failure.allCases)
    func errorLines(_ tool: Tool, _ kind: Failure) throws {
        let folder = TestSupport.temporaryFolder()
        for run in try ConventionsTests.failingRuns(kind, tool, in: folder) {
            let result = try ConventionsTests.run(tool, run.arguments + ["-q"])
            try #require(result.status == run.status, "\(run.what): exit \(result.status): \(result.stderr)")
            let check = {
                let lines = ConventionsTests.lines(result.stderr)
                #expect(lines.count == 1, "\(run.what): \(lines.count) lines: \(result.stderr)")
                #expect(lines.allSatisfy { $0.hasPrefix("\(tool.name): error: ") }, "\(run.what): \(result.stderr)")
            }
            check()
        }
    }

    // MARK: - Determinism

    @Test("Determinism: two runs into two CSV folders give byte-identical tables and datapackage.json (provenance differs only in the command line); an HDF5 output written again is byte-identical",
          arguments: tools)
    func determinism(_ tool: Tool) throws {
        let folder = TestSupport.temporaryFolder()
        let inputs = tool.inputs.map(ConventionsTests.path)
        var outputs: [[String: Data]] = []
        for name in ["first", "second"] {
            let out = folder.appendingPathComponent(name)
            let result = try ConventionsTests.run(tool, inputs + ["-o", out.path, "-q"])
            try #require(result.status == 0, "\(tool.name) -o \(out.path): \(result.stderr)")
            outputs.append(try TestSupport.files(under: out))
        }
        let (first, second) = (outputs[0], outputs[1])
        #expect(Set(first.keys) == Set(tool.tables.map { $0 + ".csv" } + ["datapackage.json", "provenance.json"]),
                "\(first.keys.sorted())")
        #expect(Set(second.keys) == Set(first.keys))
        for (name, bytes) in first where name != "provenance.json" {
            #expect(second[name] == bytes, "\(name) differs between two runs")
        }
        var provenance = try [first, second].map { try ConventionsTests.jsonObject($0["provenance.json"], "provenance.json") }
        for index in provenance.indices {
            let commandLine = provenance[index].removeValue(forKey: "command_line") as? String
            #expect(commandLine?.contains(["first", "second"][index]) == true, "command_line: \(commandLine ?? "none")")
        }
        let canonical = try provenance.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        #expect(canonical[0] == canonical[1], "provenance.json differs beyond the command line")

        // HDF5 records the command line too (with its -o), so the same output is written twice.
        let h5 = folder.appendingPathComponent("out.h5")
        #expect(try ConventionsTests.run(tool, inputs + ["-o", h5.path, "-q"]).status == 0)
        let once = try Data(contentsOf: h5)
        #expect(try ConventionsTests.run(tool, inputs + ["-o", h5.path, "-q"]).status == 0)
        #expect(try Data(contentsOf: h5) == once, "the HDF5 file differs when written again")
    }

    // MARK: - Every table, also without rows

    @Test("--keep-going with a good and a bad input: exit 65, and every documented table is written, with its header when it has no rows",
          arguments: tools)
    func keepGoingWritesEveryTable(_ tool: Tool) throws {
        let folder = TestSupport.temporaryFolder()
        let bad = try ConventionsTests.writeBadInput(tool, in: folder)
        let out = folder.appendingPathComponent("tables")
        let result = try ConventionsTests.run(tool, [ConventionsTests.path(tool.inputs[0]), bad, "-o", out.path,
                                                     "--keep-going", "-q"])
        #expect(result.status == 65, "\(result.stderr)")
        // stderr: the failure as it happened, then the list of §3.3.
        let lines = ConventionsTests.lines(result.stderr)
        let errorLines = lines.filter { !$0.hasPrefix("  ") }
        #expect(errorLines.allSatisfy { $0.hasPrefix("\(tool.name): error: ") }, "\(result.stderr)")
        #expect(errorLines.filter { $0.contains(bad) }.count == 1, "\(result.stderr)")
        #expect(errorLines.contains("\(tool.name): error: failed inputs:"), "\(result.stderr)")
        let listed = lines.filter { $0.hasPrefix("  ") }
        // Each failed input once, named first, and not twice (messages start with their file).
        #expect(listed.count == 1 && listed[0].hasPrefix("  \(bad)"), "\(result.stderr)")
        #expect(listed.first?.components(separatedBy: bad).count == 2, "\(result.stderr)")

        let files = try TestSupport.files(under: out)
        #expect(Set(files.keys) == Set(tool.tables.map { $0 + ".csv" } + ["datapackage.json", "provenance.json"]),
                "\(files.keys.sorted())")
        let package = try ConventionsTests.jsonObject(files["datapackage.json"], "datapackage.json")
        let resources = try #require(package["resources"] as? [[String: Any]])
        #expect(Set(resources.compactMap { $0["name"] as? String }) == Set(tool.tables))
        for table in tool.tables {
            let csv = try #require(files[table + ".csv"], "\(table).csv is missing")
            let rows = ConventionsTests.lines(String(decoding: csv, as: UTF8.self))
            let resource = try #require(resources.first { $0["name"] as? String == table }, "\(table) not in datapackage.json")
            let fields = try #require((resource["schema"] as? [String: Any])?["fields"] as? [[String: Any]])
            let header = fields.compactMap { $0["name"] as? String }.joined(separator: ",")
            #expect(!header.isEmpty && rows.first.map(String.init) == header, "\(table).csv header: \(rows.first ?? "none")")
            if tool.emptyWithFirstInput.contains(table) {
                #expect(rows.count == 1, "\(table) should have no rows for \(tool.inputs[0]), has \(rows.count - 1)")
            } else {
                #expect(rows.count > 1, "\(table) has no rows for \(tool.inputs[0])")
            }
        }
    }

    // MARK: - Provenance

    @Test("Provenance: the CSV folder's provenance.json names the tool, its version, every input with its SHA-256, and the parameters; HDF5 records the same",
          arguments: tools)
    func provenance(_ tool: Tool) throws {
        let folder = TestSupport.temporaryFolder()
        let inputs = tool.inputs.map(ConventionsTests.path)
        let csv = folder.appendingPathComponent("tables").path, h5 = folder.appendingPathComponent("out.h5").path
        for target in [csv, h5] {
            let result = try ConventionsTests.run(tool, inputs + ["-o", target, "-q"])
            try #require(result.status == 0, "\(tool.name) -o \(target): \(result.stderr)")
        }
        let version = try ConventionsTests.run(tool, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        let hashes = try inputs.map { try TestSupport.pythonSHA256(ofFile: $0) }
        let sizes = try inputs.map { try #require(try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }

        let provenance = try ConventionsTests.jsonObject(FileManager.default.contents(atPath: csv + "/provenance.json"),
                                                         "provenance.json")
        #expect(provenance["tool"] as? String == tool.name)
        #expect(provenance["version"] as? String == version)
        #expect((provenance["command_line"] as? String)?.contains(csv) == true)
        #expect(provenance["parameters"] is [String: Any], "parameters: \(String(describing: provenance["parameters"]))")
        // Every input given, with its SHA-256 and size; and every other file a tool read (ilog-parse reads the
        // InteractLog.json beside an iPad log) with the SHA-256 of that file.
        let recorded = try #require(provenance["inputs"] as? [[String: Any]])
        for (index, input) in inputs.enumerated() {
            let record = recorded.first { $0["path"] as? String == input }
            #expect(record?["sha256"] as? String == hashes[index], "\(input): \(String(describing: record))")
            #expect(record?["size"] as? Int == sizes[index], "\(input): \(String(describing: record))")
        }
        for record in recorded {
            let path = try #require(record["path"] as? String, "\(record)")
            #expect(record["sha256"] as? String == (try TestSupport.pythonSHA256(ofFile: path)), "\(record)")
        }

        let bytes = try Data(contentsOf: URL(fileURLWithPath: h5))
        #expect(bytes.count > 0 && bytes.prefix(8) == Data([0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]), "\(h5) is not HDF5")
        let attributes = try TestSupport.python("""
        import h5py, json, sys
        f = h5py.File(sys.argv[1], "r")
        text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
        print(json.dumps({"tool": text(f.attrs["tool"]), "version": text(f.attrs["tool_version"]),
                          "paths": [text(v) for v in f.attrs["input_paths"]],
                          "sha256": [text(v) for v in f.attrs["input_sha256"]],
                          "parameters": json.loads(text(f.attrs["parameters"])),
                          "tables": [text(v) for v in f.attrs["tables"]], "groups": list(f.keys())}))
        """, [h5])
        let root = try ConventionsTests.jsonObject(Data(attributes.utf8), "HDF5 root attributes")
        #expect(root["tool"] as? String == tool.name)
        #expect(root["version"] as? String == version)
        #expect(root["paths"] as? [String] == recorded.map { $0["path"] as? String ?? "" })
        #expect(root["sha256"] as? [String] == recorded.map { $0["sha256"] as? String ?? "" })
        #expect(root["parameters"] is [String: Any])
        #expect(Set(root["tables"] as? [String] ?? []) == Set(tool.tables))
        // §2.3: N-dimensional arrays (/arrays/…) are not tables.
        #expect(Set(root["groups"] as? [String] ?? []).subtracting(["arrays"]) == Set(tool.tables))
    }
}
