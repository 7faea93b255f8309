import Foundation
import Testing
import TestSupport

/// Every table of every tool, written as HDF5 and as a CSV folder, read back the way researchers read it —
/// pandas (`read_csv`, and `python/brainbatch_tables.py` for HDF5), R (`read.csv`, `rhdf5::h5read`, hdf5r) — and
/// compared value by value, type by type and missing value by missing value (`Tests/ReadBack/check_readback.py`,
/// which also validates the Frictionless `datapackage.json` and runs `check_readback.R`).
@Suite("Outputs read back exactly in R and pandas")
struct ReadBackTests {
    /// One tool run: the tool, its inputs (relative to the package root or to `../shared/realdata`), extra options.
    struct Case: CustomTestStringConvertible, Sendable {
        let tool: String
        let inputs: [String]
        var options: [String] = []
        var realData = false
        /// A subcommand, put before the inputs.
        var subcommand: [String] = []
        var testDescription: String { "\(([tool] + subcommand).joined(separator: " ")) \(inputs.first ?? "")\(inputs.count > 1 ? " …" : "")" }
    }

    static let sampleCases: [Case] = [
        Case(tool: "bt-decode", inputs: ["SampleData/brainiac/clean_v2.bin", "SampleData/brainiac/faulty_v2.bin",
                                         "SampleData/brainiac/legacy_le_v1.bin", "SampleData/brainiac/restart_mixed.bin"]),
        // A clean capture alone: empty gaps and anomalies tables.
        Case(tool: "bt-decode", inputs: ["SampleData/brainiac/clean_v2.bin"], options: ["--no-analysis"]),
        Case(tool: "ilog-parse", inputs: [
            "SampleData/interactlog/data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
            "SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt",
            "SampleData/interactlog/data/2021-12-08/Anonymous Participant (Trial 1) 2021-12-08 - 14-03-27.txt",
            "SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
        ]),
        Case(tool: "rt-stats", inputs: ["SampleData/braintracker/BrainTrackerResultsFile.csv"]),
        Case(tool: "rt-stats", inputs: ["SampleData/braintracker/brain_data_raw.csv"]),
        Case(tool: "mynd-parse", inputs: ["SampleData/mynd"], options: ["--definitions", "SampleData/mynd/definitions"]),
        Case(tool: "nt-analyze", inputs: ["SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"]),
        Case(tool: "nt-analyze", inputs: ["SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"], subcommand: ["decode"]),
    ]

    static let realCases: [Case] = [
        Case(tool: "rt-stats", inputs: ["braintracker/BrainTrackerResultsFile.csv",
                                        "braintracker/BrainTrackerResultsFile (thru9-4).csv"], realData: true),
        Case(tool: "nt-analyze", inputs: ["mindaffect/mindaffectBCI_exampledata.txt"], realData: true),
        Case(tool: "nt-analyze", inputs: ["mindaffect/mindaffectBCI_exampledata.txt"], realData: true, subcommand: ["decode"]),
        Case(tool: "mynd-parse", inputs: ["mynd/q_initial_1_0_0_565C1BB8-F700-46DE-9508-EFAA70288D44.json",
                                          "mynd/r_rest_1_2_1_565C1BB8-F700-46DE-9508-EFAA70288D44.hdf"],
             options: ["--definitions", "mynd"], realData: true),
    ]

    static let realDataFolder = TestSupport.realDataRoot
    static let realDataPresent = TestSupport.hasRealData("")

    func check(_ c: Case) throws {
        let base = c.realData ? ReadBackTests.realDataFolder : TestSupport.packageRoot
        let resolve = { (path: String) in base.appendingPathComponent(path).path }
        var options = c.options
        if let index = options.firstIndex(of: "--definitions") { options[index + 1] = resolve(options[index + 1]) }
        let out = TestSupport.temporaryFolder()
        let h5 = out.appendingPathComponent("out.h5").path, csv = out.appendingPathComponent("csv").path
        let tool = TestSupport.executable(c.tool)
        for target in [h5, csv] {
            let run = try TestSupport.run(tool, c.subcommand + c.inputs.map(resolve) + options + ["-o", target, "-q"])
            try #require(run.status == 0, "\(c.tool) -o \(target): \(run.stderr)")
        }
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/ReadBack/check_readback.py").path
        let check = try TestSupport.run("/usr/bin/env", ["python3", script, h5, csv])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains(" rows"), "the checker read no table: \(check.stdout)")
        try checkAnomalyCodes(csv + "/anomalies.csv")
    }

    /// One anomaly vocabulary (conventions §3.2): every code is `E_`/`W_`/`I_` + UPPER_SNAKE, its prefix the
    /// row's severity.
    func checkAnomalyCodes(_ path: String) throws {
        let offVocabulary = try TestSupport.python("""
        import csv, re, sys
        prefix = {"error": "E_", "warning": "W_", "info": "I_"}
        rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
        bad = {f"{r['code']} ({r['severity']})" for r in rows
               if not re.fullmatch(r"[EWI]_[A-Z0-9_]+", r["code"]) or not r["code"].startswith(prefix[r["severity"]])}
        print(";".join(sorted(bad)))
        """, [path])
        #expect(offVocabulary.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "anomaly codes off the vocabulary in \(path): \(offVocabulary)")
    }

    @Test("SampleData: HDF5 equals CSV in pandas and in R, every table, every column", arguments: sampleCases)
    func sampleData(_ c: Case) throws { try check(c) }

    @Test("The real files: HDF5 equals CSV in pandas and in R, every table, every column",
          .enabled(if: realDataPresent, "../shared/realdata is absent"), arguments: realCases)
    func realFiles(_ c: Case) throws { try check(c) }

    /// Two runs whose content differs (all-missing columns in one, values in the other) give each column one type.
    static let pairs: [(tool: String, first: [String], second: [String])] = [
        ("rt-stats", ["SampleData/braintracker/BrainTrackerResultsFile.csv"], ["SampleData/braintracker/brain_data_raw.csv"]),
        ("mynd-parse", ["SampleData/mynd/q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json"],
         ["SampleData/mynd", "--definitions", "SampleData/mynd/definitions"]),
        ("bt-decode", ["SampleData/brainiac/clean_v2.bin"], ["SampleData/brainiac/faulty_v2.bin"]),
    ]

    @Test("A column has the same type in every output, whatever its content", arguments: 0..<pairs.count)
    func stableTypes(_ index: Int) throws {
        let pair = ReadBackTests.pairs[index]
        let out = TestSupport.temporaryFolder()
        var files: [String] = []
        for (n, arguments) in [pair.first, pair.second].enumerated() {
            let resolved = arguments.map { $0.hasPrefix("SampleData") ? TestSupport.packageRoot.appendingPathComponent($0).path : $0 }
            for target in ["\(n).h5", "\(n)"] {
                let run = try TestSupport.run(TestSupport.executable(pair.tool),
                                              resolved + ["-o", out.appendingPathComponent(target).path, "-q"])
                try #require(run.status == 0, "\(run.stderr)")
            }
            files.append(out.appendingPathComponent("\(n)").path)
        }
        let python = TestSupport.packageRoot.appendingPathComponent("python").path
        let result = try TestSupport.python("""
        import json, sys
        sys.path.insert(0, sys.argv[1])
        import brainbatch_tables as bb
        a, b = sys.argv[2], sys.argv[3]
        problems, compared = [], 0
        pa, pb = (json.load(open(p + "/datapackage.json")) for p in (a, b))
        fields = lambda p: {(r["name"], f["name"]): f["type"] for r in p["resources"] for f in r["schema"]["fields"]}
        fa, fb = fields(pa), fields(pb)
        for key in fa.keys() & fb.keys():
            compared += 1
            if fa[key] != fb[key]: problems.append(f"datapackage {key}: {fa[key]} vs {fb[key]}")
        ta, tb = bb.read_tables(a + ".h5"), bb.read_tables(b + ".h5")
        for name in ta.keys() & tb.keys():
            for column in set(ta[name].columns) & set(tb[name].columns):
                compared += 1
                if str(ta[name][column].dtype) != str(tb[name][column].dtype):
                    problems.append(f"{name}.{column}: {ta[name][column].dtype} vs {tb[name][column].dtype}")
        print(json.dumps({"problems": problems, "compared": compared}))
        """, [python, files[0], files[1]])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.utf8)) as? [String: Any])
        #expect(json["problems"] as? [String] == [])
        #expect((json["compared"] as? Int ?? 0) > 20)
    }
}
