import Foundation
import Testing
import TestSupport

/// `make study` and the Snakemake workflow over a small study folder (conventions §5, issue 8): one output per
/// input, a `.failed` stamp for a broken input while the rest is processed, merged study tables, a no-op second run.
@Suite("Study pipelines", .serialized)
struct StudyPipelineTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let mynduuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"

    /// Good files copied from SampleData, and one broken file of each kind, in a study-like tree. P02's first trial
    /// is there from two runs (Java and iPad): one run over both gives W_DUPLICATE_TRIAL, which runs per file never see.
    static let good: [(kind: String, source: String, target: String)] = [
        ("brainiac", "brainiac/clean_v2.bin", "s01/eeg/clean_v2.bin"),
        ("brainiac", "brainiac/legacy_le_v1.bin", "s02/eeg/legacy_le_v1.bin"),
        ("interactlog", "interactlog/data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
         "s01/ipad/P01 (Trial 1) 2023-07-04 - 10-15-02.txt"),
        ("interactlog", "interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt",
         "s01/ipad/P01 (Trial 2) 2023-07-04 - 10-15-02.txt"),
        ("interactlog", "interactlog/data/2023-07-05/P02 (Trial 1) 2023-07-05 - 09-40-51.txt",
         "s02/java/P02 (Trial 1) 2023-07-05 - 09-40-51.txt"),
        ("interactlog", "interactlog/experiments/89BBF6D7-1405-4FC4-AF41-741A862C21FC/P02 (Trial 1) 2023-07-24 - 15-31-09.txt",
         "s02/ipad/P02 (Trial 1) 2023-07-24 - 15-31-09.txt"),
        ("braintracker", "braintracker/BrainTrackerResultsFile.csv", "s01/rt/BrainTrackerResultsFile.csv"),
        ("braintracker", "braintracker/brain_data_raw.csv", "s02/rt/brain_data_raw.csv"),
        ("mynd", "mynd/q_initial_1_0_0_\(mynduuid).json", "s01/mynd/q_initial_1_0_0_\(mynduuid).json"),
        ("mynd", "mynd/q_motivation_1_1_2_\(mynduuid).json", "s01/mynd/q_motivation_1_1_2_\(mynduuid).json"),
        ("mynd", "mynd/r_rest_1_2_1_\(mynduuid).hdf", "s01/mynd/r_rest_1_2_1_\(mynduuid).hdf"),
        ("mindaffect", "mindaffect/mindaffectBCI_sample_261123_1200.txt", "s01/bci/mindaffectBCI_sample_261123_1200.txt"),
    ]
    static let broken: [(kind: String, target: String, content: String)] = [
        ("brainiac", "s03/eeg/empty.bin", ""),
        ("interactlog", "s03/ipad/P03 (Trial 1) 2023-07-06 - 09-00-00.txt", "this is not an InteractLog\n"),
        ("braintracker", "s03/rt/BrainTrackerResultsFile.csv", "   \n"),
        ("mynd", "s03/mynd/q_initial_1_0_0_0A2504E0-4F89-41D3-9A0C-0305E82C3399.json", "{\"answers\": [1, 2"),
        ("mindaffect", "s03/bci/mindaffectBCI_broken_261123_1300.txt", ""),
    ]

    /// Not inputs: they must not show up in the summary. (The MYND definitions beside the questionnaires are
    /// copied from SampleData: the pipeline passes them as --definitions.)
    static let distractors = ["notes.txt", "s01/rt/make_sample.py", "s01/eeg/clean_v2.bin.truth.json"]

    static func makeStudy() throws -> URL {
        let root = TestSupport.temporaryFolder()
        let study = root.appendingPathComponent("study")
        let sample = repo.appendingPathComponent("SampleData")
        let fm = FileManager.default
        for file in good {
            let target = study.appendingPathComponent(file.target)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(at: sample.appendingPathComponent(file.source), to: target)
        }
        try fm.copyItem(at: sample.appendingPathComponent("mynd/definitions"),
                        to: study.appendingPathComponent("s01/mynd/definitions"))
        for file in broken + distractors.map({ (kind: "", target: $0, content: "{}\n") }) {
            let target = study.appendingPathComponent(file.target)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.content.utf8).write(to: target)
        }
        return root
    }

    /// Whether `tool` is on PATH: the `.enabled(if:)` condition of the tests that run it (a failed `which` is a no).
    static func found(_ tool: String) -> Bool {
        (try? TestSupport.run("/usr/bin/env", ["which", tool]).status) == 0
    }

    /// Snakemake: the project's pinned one in .venv (scripts/setup.sh), else the one on PATH.
    static var snakemake: [String]? {
        let venv = repo.appendingPathComponent(".venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: venv),
           (try? TestSupport.run(venv, ["-c", "import snakemake"]).status) == 0 {
            return [venv, "-m", "snakemake"]
        }
        return found("snakemake") ? ["/usr/bin/env", "snakemake"] : nil
    }

    static var bin: String { URL(fileURLWithPath: TestSupport.executable("bt-decode")).deletingLastPathComponent().path }

    static func make(_ args: [String], study: URL, out: URL, bin: String = bin, config: URL? = nil)
        throws -> TestSupport.ProcessResult {
        try TestSupport.run("/usr/bin/env", ["make", "-C", repo.path] + args
                            + ["STUDY=\(study.path)", "OUT=\(out.path)", "BIN=\(bin)"]
                            + (config.map { ["CONFIG=\($0.path)"] } ?? []))
    }

    static func runSnakemake(study: URL, out: URL, directory: URL, bin: String = bin, config: URL? = nil,
                             extra: [String] = []) throws -> TestSupport.ProcessResult {
        let command = try #require(snakemake)
        return try TestSupport.run(command[0], Array(command.dropFirst()) + [
            "-s", repo.appendingPathComponent("workflow/Snakefile").path, "--cores", "2", "--directory", directory.path]
            + (config.map { ["--configfile", $0.path] } ?? [])
            + ["--config", "study=\(study.path)", "out=\(out.path)", "bin=\(bin)"] + extra)
    }

    /// Every regular file under `folder` (relative path) with its modification time; fails the caller when the
    /// folder cannot be walked or holds no file.
    static func mtimes(_ folder: URL) throws -> [String: Date] {
        var result: [String: Date] = [:]
        let fm = FileManager.default
        let walker = try #require(fm.enumerator(at: folder,
                                                includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey]))
        for case let url as URL in walker {
            let values = try url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
            if values.isRegularFile == true, let date = values.contentModificationDate {
                result[String(url.path.dropFirst(folder.path.count + 1))] = date
            }
        }
        try #require(!result.isEmpty, "no file under \(folder.path)")
        return result
    }

    /// The files rewritten between two `mtimes` snapshots (new ones included).
    static func rewritten(_ before: [String: Date], _ after: [String: Date]) -> Set<String> {
        Set(after.keys.filter { after[$0] != before[$0] })
    }

    /// The tool outputs (`.h5` and `.failed` stamps) among `paths`, as `kind/…`.
    static func toolOutputs(_ paths: Set<String>) -> Set<String> {
        paths.filter { !$0.hasPrefix("study/") && !$0.hasPrefix(".study/") && ($0.hasSuffix(".h5") || $0.hasSuffix(".failed")) }
    }

    /// summary.csv as (kind, input, status, message, output) rows, read with pandas.
    static func summary(_ out: URL) throws -> [[String]] {
        let json = try TestSupport.python("""
        import sys, json, pandas as pd
        s = pd.read_csv(sys.argv[1] + "/study/summary.csv", keep_default_na=False)
        print(json.dumps(s[["kind", "input", "status", "message", "output"]].values.tolist()))
        """, [out.path])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]], "summary.csv: \(json)")
    }

    /// The output of one input, from the summary (`kind/<unit>.h5`, relative to OUT).
    static func output(of target: String, in out: URL) throws -> URL {
        let row = try #require(try summary(out).first { $0[1] == target }, "\(target) is not in summary.csv")
        return out.appendingPathComponent(row[4])
    }

    /// For each merged table: its rows (pandas) and the sum of `n_rows` over the kind's per-unit HDF5 outputs (h5py).
    static func rowCounts(_ out: URL) throws -> [String: [Int]] {
        let json = try TestSupport.python("""
        import sys, glob, os, json, h5py, pandas as pd
        out = sys.argv[1]
        result = {}
        for path in sorted(glob.glob(out + "/study/*_*.csv")):
            name = os.path.basename(path)[:-4]
            kind, table = name.split("_", 1)
            rows = len(pd.read_csv(path))
            total = 0
            for h5 in glob.glob(out + "/" + kind + "/**/*.h5", recursive=True):
                with h5py.File(h5, "r") as f:
                    total += int(f[table].attrs["n_rows"]) if table in f else 0
            result[name] = [rows, total]
        print(json.dumps(result))
        """, [out.path])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [Int]], "\(json)")
    }

    /// An HDF5 output's root attribute (the tools' provenance), as text.
    static func provenance(_ h5: URL, _ attribute: String) throws -> String {
        try TestSupport.python("""
        import sys, h5py
        v = h5py.File(sys.argv[1], "r").attrs[sys.argv[2]]
        print(v.decode() if isinstance(v, bytes) else v)
        """, [h5.path, attribute]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// OUT/report/index.html (issue 17): a row per input with its kind, status and link, every link to a page the
    /// unit's tool wrote, the failed inputs with their messages, no remote URL, the same bytes when remade; and in
    /// headless Chromium, the index and every unit page load without error and are neither blank nor cut off.
    static func checkIndex(_ out: URL, rows: [[String]]) throws {
        let index = out.appendingPathComponent("report/index.html")
        let page = try String(contentsOf: index, encoding: .utf8)
        #expect(!page.contains("http:") && !page.contains("https:") && !page.contains("<script"))
        let inputs = try #require(page.range(of: "<h2>Inputs</h2>")).upperBound
        let inputRows = page[inputs...].components(separatedBy: "<tr>").dropFirst(2)
        #expect(inputRows.count == rows.count, "one row per input")
        for row in rows {
            let escaped = row[1].replacingOccurrences(of: "&", with: "&amp;")
            #expect(inputRows.contains { $0.contains(">\(escaped)</td>") && $0.contains(">\(row[2])</td>") },
                    "\(row[1]) (\(row[2])) is not in the index")
        }
        let failedSection = try #require(page.range(of: "<h2>Inputs</h2>").map { page[..<$0.lowerBound] })
        for row in rows where row[2] == "failed" {
            #expect(failedSection.contains(row[1]), "failed input \(row[1]) is not listed")
        }
        // Links: one per unit that wrote a page; each one a page beside the unit's HDF5 output.
        let links = page.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let units = Set(rows.filter { $0[2] == "ok" }.map { $0[4] })
        #expect(Set(links).count == units.count, "\(Set(links).count) pages for \(units.count) units")
        var pages: [String] = []
        for link in Set(links).sorted() {
            let path = try #require(link.removingPercentEncoding)
            let target = out.appendingPathComponent("report").appendingPathComponent(path).standardized
            #expect(FileManager.default.fileExists(atPath: target.path), "\(link) does not exist")
            #expect(units.contains(String(target.path.dropFirst(out.standardized.path.count + 1).dropLast(5)) + ".h5"),
                    "\(link) is no unit's page")
            pages.append(target.path)
        }
        let remade = try TestSupport.run("/usr/bin/env", ["python3", repo.appendingPathComponent("scripts/study_merge.py").path,
                                                          "summary", out.path])
        #expect(remade.status == 0)
        #expect(try String(contentsOf: index, encoding: .utf8) == page, "the index is not deterministic")
        try #require(ReportTests.chromium != nil, "headless Chromium is not installed (scripts/setup.sh installs it)")
        try ReportTests.checkInBrowser([index.path], screenshots: "study", plots: false)
        try ReportTests.checkInBrowser(pages, screenshots: "study")
    }

    @Test("make study: one output per unit, a .failed stamp per broken unit, merged tables, summary, participants and a valid codebook, a no-op second run, only a changed input re-runs",
          .enabled(if: found("make"), "make is not installed"))
    func makeStudy() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study"), out = root.appendingPathComponent("out")

        let first = try Self.make(["study", "-j", "2"], study: study, out: out)
        #expect(first.status == 0, "\(first.stderr)")

        let rows = try Self.summary(out)
        #expect(rows.count == Self.good.count + Self.broken.count)
        for file in Self.good {
            let output = try Self.output(of: file.target, in: out)
            #expect(FileManager.default.fileExists(atPath: output.path), "\(output.path)")
            #expect(!FileManager.default.fileExists(atPath: output.path + ".failed"), "\(file.target)")
        }
        for file in Self.broken {
            let output = try Self.output(of: file.target, in: out)
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(file.target)")
            let stamp = try String(contentsOfFile: output.path + ".failed", encoding: .utf8)
            #expect(stamp.hasPrefix("exit status 65"), "\(file.target): \(stamp)")
        }
        // Units of work: each participant's logs are one ilog-parse run, the MYND subject's three files one mynd-parse run.
        let units = Dictionary(grouping: rows.filter { $0[2] == "ok" }, by: { $0[4] }).mapValues(\.count)
        #expect(units["interactlog/by-participant/P01.h5"] == 2, "\(units)")
        #expect(units["interactlog/by-participant/P02.h5"] == 2, "\(units)")
        #expect(units["mynd/by-subject/\(Self.mynduuid).h5"] == 3, "\(units)")
        #expect(units.count == Self.good.count - 4, "\(units)")

        let failed = Set(rows.filter { $0[2] == "failed" }.map { $0[1] })
        #expect(failed == Set(Self.broken.map(\.target)))
        #expect(rows.filter { $0[2] == "ok" }.count == Self.good.count)
        #expect(rows.filter { $0[2] == "failed" }.allSatisfy { !$0[3].isEmpty })
        #expect(first.stderr.contains("FAILED"), "the failures are listed at the end")

        let counts = try Self.rowCounts(out)
        for table in ["brainiac_recordings", "brainiac_samples", "interactlog_strokes", "interactlog_trials",
                      "braintracker_trials", "braintracker_sessions", "mynd_answers", "mynd_band_power",
                      "mindaffect_trials", "mindaffect_summary"] {
            #expect(counts[table] != nil, "merged table \(table)")
        }
        for (table, pair) in counts { #expect(pair[0] == pair[1], "\(table): merged \(pair[0]) rows, files \(pair[1])") }
        #expect(counts["brainiac_recordings"].map { $0[0] } ?? 0 >= 2)
        #expect(counts["mindaffect_summary"]?[0] == 1)

        // The study tables: summary per input, participants per participant (the first folder by default), in the
        // toolkit's CSV dialect, and a codebook that frictionless validates against every study CSV.
        let tables = try TestSupport.python("""
        import sys, json, pandas as pd
        out = sys.argv[1]
        s = pd.read_csv(out + "/study/summary.csv")
        p = pd.read_csv(out + "/study/participants.csv")
        ok = s[s.status == "ok"]
        print(json.dumps({
          "summary": list(s.columns), "participants": list(p.columns), "who": sorted(p.participant),
          "s01": p[p.participant == "s01"].iloc[0][["n_inputs", "n_brainiac", "n_interactlog", "n_mynd", "n_failed"]].astype(int).tolist(),
          "s03_failed": int(p[p.participant == "s03"].n_failed.iloc[0]),
          "durations": int(ok[ok.kind.isin(["brainiac", "mynd", "mindaffect", "interactlog"]) & ~ok.input.str.startswith("s01/mynd/q_")].duration_s.notna().all()),
          "lost": int(ok[ok.kind == "brainiac"].lost_pct.notna().all()),
          "signal": int(ok[ok.input.str.startswith("s01/mynd/r_")].signal_ok_pct.notna().all()),
          "duplicate_warnings": int(ok[(ok.kind == "interactlog") & ok.input.str.startswith("s02/")].n_warnings.sum()),
          "unlabelled": int(pd.read_csv(out + "/study/mynd_answers.csv").question_type.isna().all()),
        }))
        """, [out.path])
        let study_ = try #require(try JSONSerialization.jsonObject(with: Data(tables.utf8)) as? [String: Any])
        #expect(study_["summary"] as? [String] == ["kind", "input", "participant", "session", "unit", "output", "status",
                                                    "message", "duration_s", "lost_pct", "signal_ok_pct", "code_agreement",
                                                    "n_sessions", "n_trials", "n_errors", "n_warnings", "n_info"])
        #expect(study_["participants"] as? [String] == ["participant", "n_inputs", "n_brainiac", "n_interactlog",
                                                         "n_braintracker", "n_mynd", "n_mindaffect", "n_failed", "n_sessions",
                                                         "recording_s", "lost_pct", "n_trials", "n_errors", "n_warnings", "n_info"])
        #expect(study_["who"] as? [String] == ["s01", "s02", "s03"])
        #expect(study_["s01"] as? [Int] == [8, 1, 2, 3, 0])
        #expect(study_["s03_failed"] as? Int == 5)
        #expect(study_["durations"] as? Int == 1 && study_["lost"] as? Int == 1 && study_["signal"] as? Int == 1, "\(tables)")
        #expect((study_["duplicate_warnings"] as? Int ?? 0) >= 1, "W_DUPLICATE_TRIAL on the later log: \(tables)")
        #expect(study_["unlabelled"] as? Int == 0, "the definitions beside the questionnaires label the answers")
        let validate = try TestSupport.run("/usr/bin/env", ["python3", "-m", "frictionless", "validate",
                                                            out.appendingPathComponent("study/datapackage.json").path])
        #expect(validate.status == 0, "\(validate.stdout.suffix(3000))")
        try Self.checkIndex(out, rows: rows)

        // Second run: nothing to do, nothing rewritten.
        let before = try Self.mtimes(out)
        let question = try Self.make(["-q", "study"], study: study, out: out)
        #expect(question.status == 0, "make -q: \(question.stdout)\(question.stderr)")
        let second = try Self.make(["study"], study: study, out: out)
        #expect(second.status == 0)
        #expect(second.stdout.contains("Nothing to be done"), "\(second.stdout)\(second.stderr)")
        #expect(try Self.mtimes(out) == before)

        // A changed input re-runs that input and its kind's tables only.
        let changed = study.appendingPathComponent(Self.good[0].target)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: changed.path)
        let third = try Self.make(["study"], study: study, out: out)
        #expect(third.status == 0)
        let after = try Self.mtimes(out)
        let rewritten = Self.rewritten(before, after)
        let changedOutput = "brainiac/" + Self.good[0].target + ".h5"
        #expect(rewritten.contains(changedOutput))
        let changedPage = "brainiac/" + Self.good[0].target + ".html"
        #expect(rewritten.contains(changedPage))
        #expect(rewritten.allSatisfy { $0 == changedOutput || $0 == changedPage || $0 == "report/index.html"
                                       || $0.hasPrefix("study/") || $0.hasPrefix(".study/") },
                "\(rewritten.sorted())")
        #expect(!rewritten.contains { $0.hasPrefix("study/interactlog_") || $0.hasPrefix("study/mynd_") })

        // Fixing a broken input replaces its stamp with an output.
        let fixed = Self.broken[0]
        try FileManager.default.removeItem(at: study.appendingPathComponent(fixed.target))
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("SampleData/brainiac/clean_v2.bin"),
                                         to: study.appendingPathComponent(fixed.target))
        let fourth = try Self.make(["study"], study: study, out: out)
        #expect(fourth.status == 0)
        let output = try Self.output(of: fixed.target, in: out)
        #expect(FileManager.default.fileExists(atPath: output.path))
        #expect(!FileManager.default.fileExists(atPath: output.path + ".failed"))
        #expect(try Self.summary(out).filter { $0[2] == "failed" }.count == Self.broken.count - 1)
    }

    @Test("The merged study tables equal one hand run of each tool over all inputs of its kind, row for row (byte for byte as CSV), cross-file anomalies included",
          .enabled(if: found("make"), "make is not installed"))
    func mergedEqualsHandRun() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study"), out = root.appendingPathComponent("out")
        let run = try Self.make(["study", "-j", "2"], study: study, out: out)
        #expect(run.status == 0, "\(run.stderr)")
        let check = try TestSupport.run("/usr/bin/env", ["python3", Self.repo.appendingPathComponent("scripts/study_check.py").path,
                                                         study.path, out.path, Self.bin])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let lines = check.stdout.split(separator: "\n")
        #expect(lines.count >= 25, "\(check.stdout)")
        #expect(lines.allSatisfy { $0.contains(": same (") }, "\(check.stdout)")
        let anomalies = try String(contentsOf: out.appendingPathComponent("study/interactlog_anomalies.csv"), encoding: .utf8)
        #expect(anomalies.contains("W_DUPLICATE_TRIAL"), "one participant's logs are one unit")
    }

    /// A folder of stand-ins for the tools: each runs the real one, but answers --version with `versions[tool]`.
    static func wrappedTools(_ folder: URL, versions: [String: String]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for tool in ["bt-decode", "ilog-parse", "rt-stats", "mynd-parse", "nt-analyze"] {
            let script = """
            #!/bin/sh
            if [ "$1" = "--version" ]; then echo "\(versions[tool] ?? "0.1.0")"; exit 0; fi
            exec '\(bin)/\(tool)' "$@"

            """
            let path = folder.appendingPathComponent(tool)
            try? FileManager.default.removeItem(at: path)
            try Data(script.utf8).write(to: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
        }
    }

    @Test("A study configuration: options reach the tools and their provenance, skipped inputs stay out; a changed option, tool version or definitions file re-runs only the units it applies to",
          .enabled(if: found("make"), "make is not installed"))
    func configurationAndStaleness() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study"), out = root.appendingPathComponent("out")
        let tools = root.appendingPathComponent("tools"), config = root.appendingPathComponent("study.yaml")
        try Self.wrappedTools(tools, versions: [:])
        func configure(_ bands: String) throws {
            try Data("""
            # a study configuration
            participant_pattern: '^(?P<session>s[0-9]+)/'
            skip: ["s02/rt/*", "s03/**"]
            options:
              brainiac: {gaps: fill, bands: "\(bands)"}
              mindaffect: {clock: rts}
            merge_skip: [brainiac_samples]

            """.utf8).write(to: config)
        }
        try configure("alpha:8-12,beta:12-30")
        let first = try Self.make(["study", "-j", "2"], study: study, out: out, bin: tools.path, config: config)
        #expect(first.status == 0, "\(first.stderr)")

        let rows = try Self.summary(out)
        #expect(!rows.contains { $0[1].hasPrefix("s02/rt/") || $0[1].hasPrefix("s03/") }, "skipped: \(rows.map { $0[1] })")
        #expect(rows.count == Self.good.count - 1)
        let capture = try Self.output(of: Self.good[0].target, in: out)
        #expect(try Self.provenance(capture, "command_line").contains("--gaps fill --bands alpha:8-12,beta:12-30"))
        #expect(try Self.provenance(capture, "parameters").contains("fill"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("study/brainiac_samples.csv").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("study/brainiac_recordings.csv").path))
        let participants = try String(contentsOf: out.appendingPathComponent("study/participants.csv"), encoding: .utf8)
        #expect(participants.hasPrefix("participant,") && participants.contains("\nNA,"),
                "no participant group in the pattern: one NA row\n\(participants)")
        let check = try TestSupport.run("/usr/bin/env", ["python3", Self.repo.appendingPathComponent("scripts/study_check.py").path,
                                                         study.path, out.path, tools.path, config.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        var before = try Self.mtimes(out)
        #expect(try Self.make(["-q", "study"], study: study, out: out, bin: tools.path, config: config).status == 0)

        // One option of one kind: only that kind's units re-run, and its merge.
        try configure("alpha:8-12")
        #expect(try Self.make(["-q", "study"], study: study, out: out, bin: tools.path, config: config).status != 0)
        #expect(try Self.make(["study"], study: study, out: out, bin: tools.path, config: config).status == 0)
        var after = try Self.mtimes(out)
        #expect(Self.toolOutputs(Self.rewritten(before, after)) == ["brainiac/s01/eeg/clean_v2.bin.h5", "brainiac/s02/eeg/legacy_le_v1.bin.h5"])
        #expect(!Self.rewritten(before, after).contains { $0.hasPrefix("study/mindaffect_") || $0.hasPrefix("study/mynd_") })
        #expect(try Self.provenance(capture, "command_line").contains("--bands alpha:8-12 "))
        #expect(try Self.make(["-q", "study"], study: study, out: out, bin: tools.path, config: config).status == 0)

        // A new version of one tool re-runs that tool's units only.
        before = after
        try Self.wrappedTools(tools, versions: ["nt-analyze": "0.1.1"])
        #expect(try Self.make(["study"], study: study, out: out, bin: tools.path, config: config).status == 0)
        after = try Self.mtimes(out)
        #expect(Self.toolOutputs(Self.rewritten(before, after)) == ["mindaffect/s01/bci/mindaffectBCI_sample_261123_1200.txt.h5"])

        // The definitions an option names (here found beside the questionnaires) are part of what the output
        // depends on: a changed definitions file re-runs the MYND subject.
        before = after
        let definitions = study.appendingPathComponent("s01/mynd/definitions/motivation_en.json")
        var text = try String(contentsOf: definitions, encoding: .utf8)
        text += "\n"
        try Data(text.utf8).write(to: definitions)
        #expect(try Self.make(["study"], study: study, out: out, bin: tools.path, config: config).status == 0)
        after = try Self.mtimes(out)
        #expect(Self.toolOutputs(Self.rewritten(before, after)) == ["mynd/by-subject/\(Self.mynduuid).h5"])

        // A wrong configuration stops before anything runs, naming the setting.
        try Data("options:\n  brainiac: {o: x.h5}\n".utf8).write(to: config)
        let wrong = try Self.make(["study"], study: study, out: out, bin: tools.path, config: config)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("options.brainiac.o: set by the pipeline"), "\(wrong.stderr)")
    }

    @Test("The Snakemake workflow with 2 cores gives the same outputs, summary and merged tables as make, a no-op second run, and re-runs on a changed input or option (params)",
          .enabled(if: found("make"), "make is not installed"),
          .enabled(if: snakemake != nil, "snakemake is not installed (scripts/setup.sh installs it)"))
    func snakemakeStudy() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study")
        let viaMake = root.appendingPathComponent("make"), viaSnakemake = root.appendingPathComponent("snakemake")
        #expect(try Self.make(["study"], study: study, out: viaMake).status == 0)

        let run = try Self.runSnakemake(study: study, out: viaSnakemake, directory: root)
        #expect(run.status == 0, "\(run.stderr)")

        #expect(try Self.summary(viaSnakemake) == Self.summary(viaMake))
        for table in ["summary.csv", "participants.csv", "datapackage.json", "interactlog_anomalies.csv", "mynd_answers.csv"] {
            let a = try Data(contentsOf: viaSnakemake.appendingPathComponent("study/" + table))
            let b = try Data(contentsOf: viaMake.appendingPathComponent("study/" + table))
            #expect(a == b, "\(table) differs between Snakemake and make")
        }
        let outputs = { (out: URL) in Set(try Self.mtimes(out).keys.filter { $0.hasSuffix(".h5") || $0.hasSuffix(".failed") }) }
        #expect(try outputs(viaSnakemake) == outputs(viaMake))
        let fromSnakemake = try Self.rowCounts(viaSnakemake), fromMake = try Self.rowCounts(viaMake)
        #expect(fromSnakemake == fromMake)
        #expect(!fromSnakemake.isEmpty)

        let before = try Self.mtimes(viaSnakemake)
        let again = try Self.runSnakemake(study: study, out: viaSnakemake, directory: root)
        #expect(again.status == 0)
        #expect((again.stdout + again.stderr).contains("Nothing to be done"), "\(again.stderr)")
        #expect(try Self.mtimes(viaSnakemake) == before)

        // A changed input (Snakemake compares contents, not only times) re-runs that input only.
        let fixed = Self.broken[0]
        try FileManager.default.removeItem(at: study.appendingPathComponent(fixed.target))
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("SampleData/brainiac/clean_v2.bin"),
                                         to: study.appendingPathComponent(fixed.target))
        let third = try Self.runSnakemake(study: study, out: viaSnakemake, directory: root)
        #expect(third.status == 0, "\(third.stderr)")
        let output = try Self.output(of: fixed.target, in: viaSnakemake)
        #expect(FileManager.default.fileExists(atPath: output.path))
        #expect(!FileManager.default.fileExists(atPath: output.path + ".failed"))
        #expect(try Self.summary(viaSnakemake).filter { $0[2] == "failed" }.count == Self.broken.count - 1)
        var after = try Self.mtimes(viaSnakemake)
        #expect(Self.toolOutputs(Self.rewritten(before, after)) == [fixed.kind + "/" + fixed.target + ".h5"])

        // An option in the configuration file: its kind's units re-run (params), the others do not.
        let config = root.appendingPathComponent("study.yaml")
        try Data("options:\n  braintracker: {trim: 0.2}\n".utf8).write(to: config)
        let snapshot = after
        let fourth = try Self.runSnakemake(study: study, out: viaSnakemake, directory: root, config: config)
        #expect(fourth.status == 0, "\(fourth.stderr)")
        after = try Self.mtimes(viaSnakemake)
        #expect(Self.toolOutputs(Self.rewritten(snapshot, after))
                == ["braintracker/s01/rt/BrainTrackerResultsFile.csv.h5", "braintracker/s02/rt/brain_data_raw.csv.h5",
                    "braintracker/s03/rt/BrainTrackerResultsFile.csv.h5.failed"], "\(Self.rewritten(snapshot, after).sorted())")
        #expect(!Self.rewritten(snapshot, after).contains { $0.hasPrefix("study/brainiac_") || $0.hasPrefix("study/mynd_") })
    }

    /// `make test-slurm` sets BRAINBATCH_TEST_SLURM=1 around this test, with a Slurm cluster started on this machine
    /// (scripts/slurm-local.sh: root, about 3–4 minutes here).
    static let slurmWanted = ProcessInfo.processInfo.environment["BRAINBATCH_TEST_SLURM"] == "1"

    @Test("make study-slurm on the single-node Slurm cluster of scripts/slurm-local.sh: every unit is a Slurm job that completes, and the outputs equal the local run's",
          .enabled(if: slurmWanted, "make test-slurm runs it (BRAINBATCH_TEST_SLURM=1)"),
          .timeLimit(.minutes(15)))
    func slurmStudy() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study")
        let local = root.appendingPathComponent("local"), cluster = root.appendingPathComponent("slurm")
        #expect(try Self.make(["study", "-j", "2"], study: study, out: local).status == 0)

        // `make test-slurm` started the cluster (scripts/slurm-local.sh start) and stops it after the test.
        let status = try TestSupport.run(Self.repo.appendingPathComponent("scripts/slurm-local.sh").path, ["status"])
        try #require(status.status == 0, "no local Slurm cluster runs: \(status.stdout)")
        let began = Date()
        let run = try Self.make(["study-slurm", "SNAKEMAKE_ARGS=--slurm-init-seconds-before-status-checks 1"],
                                study: study, out: cluster)
        let seconds = Date().timeIntervalSince(began)
        #expect(run.status == 0, "\(run.stdout.suffix(4000))\(run.stderr.suffix(4000))")

        // The executor's own word: one Slurm job id per unit of work.
        let log = run.stdout + run.stderr
        let submitted = log.split(separator: "\n").filter { $0.contains("has been submitted with SLURM jobid") }
        let units = Set(try Self.summary(local).map { $0[4] }).count
        #expect(submitted.count == units, "\(submitted.count) Slurm jobs for \(units) units\n\(log.suffix(3000))")
        let ids = submitted.compactMap { line in
            line.components(separatedBy: "SLURM jobid ").last?.split(separator: " ").first.map(String.init) }
        // Slurm's: squeue still lists the finished jobs (MinJobAge), each COMPLETED.
        let queue = try TestSupport.run("/usr/bin/env", ["PATH=/usr/bin:/bin:/usr/sbin", "squeue", "--states=all", "-h",
                                                         "-o", "%i %T", "-j", ids.joined(separator: ",")])
        #expect(queue.status == 0, "\(queue.stderr)")
        let states = Dictionary(uniqueKeysWithValues: queue.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil })
        #expect(Set(states.keys) == Set(ids) && states.values.allSatisfy { $0 == "COMPLETED" }, "\(queue.stdout)")
        print("slurmStudy: \(ids.count) Slurm jobs (ids \(ids.sorted { Int($0) ?? 0 < Int($1) ?? 0 }.joined(separator: ","))), \(Int(seconds)) s for make study-slurm")

        // The same outputs as the local run.
        #expect(try Self.summary(cluster) == Self.summary(local))
        for table in ["summary.csv", "participants.csv", "datapackage.json"] {
            #expect(try Data(contentsOf: cluster.appendingPathComponent("study/" + table))
                    == Data(contentsOf: local.appendingPathComponent("study/" + table)), "\(table)")
        }
        let merged = try FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent("study").path)
            .filter { $0.hasSuffix(".csv") }
        #expect(merged.count > 20)
        for table in merged {
            #expect(try Data(contentsOf: cluster.appendingPathComponent("study/" + table))
                    == Data(contentsOf: local.appendingPathComponent("study/" + table)), "\(table)")
        }
    }

    @Test("Each tool given several files with --keep-going processes the rest and lists the broken one at the end with its reason")
    func keepGoing() throws {
        let folder = TestSupport.temporaryFolder()
        let tools = ["brainiac": "bt-decode", "interactlog": "ilog-parse", "braintracker": "rt-stats",
                     "mynd": "mynd-parse", "mindaffect": "nt-analyze"]
        for bad in Self.broken {
            let tool = try #require(tools[bad.kind])
            let good = try #require(Self.good.first { $0.kind == bad.kind })
            let goodPath = Self.repo.appendingPathComponent("SampleData").appendingPathComponent(good.source).path
            let badPath = folder.appendingPathComponent(bad.kind + "-" + URL(fileURLWithPath: bad.target).lastPathComponent).path
            try Data(bad.content.utf8).write(to: URL(fileURLWithPath: badPath))
            let output = folder.appendingPathComponent(tool + ".h5").path
            let run = try TestSupport.run(TestSupport.executable(tool), [badPath, goodPath, "-o", output, "--keep-going"])
            #expect(run.status == 65, "\(tool): \(run.stderr)")
            let tail = run.stderr.components(separatedBy: "failed inputs:").last ?? ""
            #expect(run.stderr.contains("failed inputs:") && tail.contains("  \(badPath)"), "\(tool): \(run.stderr)")
            let sources = try TestSupport.python("""
            import sys, h5py
            seen = set()
            with h5py.File(sys.argv[1], "r") as f:
                for name, g in f.items():
                    if isinstance(g, h5py.Group) and "source_file" in g:
                        seen.update(x.decode() if isinstance(x, bytes) else x for x in g["source_file"][()])
            print("\\n".join(sorted(seen)))
            """, [output])
            #expect(sources.split(separator: "\n").map(String.init) == [goodPath], "\(tool): \(sources)")
        }
    }
}
