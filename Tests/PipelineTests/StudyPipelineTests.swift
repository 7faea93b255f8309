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

    /// Good files copied from SampleData, and one broken file of each kind, in a study-like tree.
    static let good: [(kind: String, source: String, target: String)] = [
        ("brainiac", "brainiac/clean_v2.bin", "s01/eeg/clean_v2.bin"),
        ("brainiac", "brainiac/legacy_le_v1.bin", "s02/eeg/legacy_le_v1.bin"),
        ("interactlog", "interactlog/data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
         "s01/ipad/P01 (Trial 1) 2023-07-04 - 10-15-02.txt"),
        ("interactlog", "interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt",
         "s01/ipad/P01 (Trial 2) 2023-07-04 - 10-15-02.txt"),
        ("braintracker", "braintracker/BrainTrackerResultsFile.csv", "s01/rt/BrainTrackerResultsFile.csv"),
        ("braintracker", "braintracker/brain_data_raw.csv", "s02/rt/brain_data_raw.csv"),
        ("mynd", "mynd/q_initial_1_0_0_\(mynduuid).json", "s01/mynd/q_initial_1_0_0_\(mynduuid).json"),
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

    /// Not inputs: they must not show up in the summary.
    static let distractors = ["notes.txt", "s01/mynd/definitions/motivation_en.json", "s01/rt/make_sample.py",
                              "s01/eeg/clean_v2.bin.truth.json"]

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

    static var bin: String { URL(fileURLWithPath: TestSupport.executable("bt-decode")).deletingLastPathComponent().path }

    static func make(_ args: [String], study: URL, out: URL) throws -> TestSupport.ProcessResult {
        try TestSupport.run("/usr/bin/env", ["make", "-C", repo.path] + args
                            + ["STUDY=\(study.path)", "OUT=\(out.path)", "BIN=\(bin)"])
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

    /// summary.csv as (kind, input, status, message) rows, read with pandas.
    static func summary(_ out: URL) throws -> [[String]] {
        let json = try TestSupport.python("""
        import sys, json, pandas as pd
        s = pd.read_csv(sys.argv[1] + "/study/summary.csv", keep_default_na=False)
        print(json.dumps(s[["kind", "input", "status", "message"]].values.tolist()))
        """, [out.path])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]], "summary.csv: \(json)")
    }

    /// For each merged table: its rows (pandas) and the sum of `n_rows` over the kind's per-file HDF5 outputs (h5py).
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

    static func outputPath(_ out: URL, kind: String, target: String) -> URL {
        let safe = String(target.map { $0.isLetter && $0.isASCII || $0.isNumber || "._+/-".contains($0) ? $0 : "_" })
        return out.appendingPathComponent(kind).appendingPathComponent(safe + ".h5")
    }

    @Test("make study: one output per input, a .failed stamp per broken file, merged tables, a no-op second run, only a changed input re-runs",
          .enabled(if: found("make"), "make is not installed"))
    func makeStudy() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study"), out = root.appendingPathComponent("out")

        let first = try Self.make(["study", "-j", "2"], study: study, out: out)
        #expect(first.status == 0, "\(first.stderr)")

        for file in Self.good {
            let output = Self.outputPath(out, kind: file.kind, target: file.target)
            #expect(FileManager.default.fileExists(atPath: output.path), "\(output.path)")
            #expect(!FileManager.default.fileExists(atPath: output.path + ".failed"), "\(file.target)")
        }
        for file in Self.broken {
            let output = Self.outputPath(out, kind: file.kind, target: file.target)
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(file.target)")
            let stamp = try String(contentsOfFile: output.path + ".failed", encoding: .utf8)
            #expect(stamp.hasPrefix("exit status 65"), "\(file.target): \(stamp)")
        }

        let rows = try Self.summary(out)
        #expect(rows.count == Self.good.count + Self.broken.count)
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
        let rewritten = Set(after.keys.filter { after[$0] != before[$0] })
        let changedOutput = "brainiac/" + Self.good[0].target + ".h5"
        #expect(rewritten.contains(changedOutput))
        #expect(rewritten.allSatisfy { $0 == changedOutput || $0.hasPrefix("study/") || $0.hasPrefix(".study/") },
                "\(rewritten.sorted())")
        #expect(!rewritten.contains { $0.hasPrefix("study/interactlog_") || $0.hasPrefix("study/mynd_") })

        // Fixing a broken input replaces its stamp with an output.
        let fixed = Self.broken[0]
        try FileManager.default.removeItem(at: study.appendingPathComponent(fixed.target))
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("SampleData/brainiac/clean_v2.bin"),
                                         to: study.appendingPathComponent(fixed.target))
        let fourth = try Self.make(["study"], study: study, out: out)
        #expect(fourth.status == 0)
        let output = Self.outputPath(out, kind: fixed.kind, target: fixed.target)
        #expect(FileManager.default.fileExists(atPath: output.path))
        #expect(!FileManager.default.fileExists(atPath: output.path + ".failed"))
        #expect(try Self.summary(out).filter { $0[2] == "failed" }.count == Self.broken.count - 1)
    }

    @Test("The Snakemake workflow with 2 cores gives the same outputs, summary and merged tables as make, and a no-op second run",
          .enabled(if: found("make"), "make is not installed"),
          .enabled(if: found("snakemake"), "snakemake is not installed (scripts/setup.sh installs it)"))
    func snakemakeStudy() throws {
        let root = try Self.makeStudy()
        let study = root.appendingPathComponent("study")
        let viaMake = root.appendingPathComponent("make"), viaSnakemake = root.appendingPathComponent("snakemake")
        #expect(try Self.make(["study"], study: study, out: viaMake).status == 0)

        let arguments = ["snakemake", "-s", Self.repo.appendingPathComponent("workflow/Snakefile").path,
                         "--cores", "2", "--directory", root.path, "--config", "study=\(study.path)",
                         "out=\(viaSnakemake.path)", "bin=\(Self.bin)"]
        let run = try TestSupport.run("/usr/bin/env", arguments)
        #expect(run.status == 0, "\(run.stderr)")

        #expect(try Self.summary(viaSnakemake) == Self.summary(viaMake))
        let outputs = { (out: URL) in Set(try Self.mtimes(out).keys.filter { $0.hasSuffix(".h5") || $0.hasSuffix(".failed") }) }
        #expect(try outputs(viaSnakemake) == outputs(viaMake))
        let fromSnakemake = try Self.rowCounts(viaSnakemake), fromMake = try Self.rowCounts(viaMake)
        #expect(fromSnakemake == fromMake)
        #expect(!fromSnakemake.isEmpty)

        let before = try Self.mtimes(viaSnakemake)
        let again = try TestSupport.run("/usr/bin/env", arguments)
        #expect(again.status == 0)
        #expect((again.stdout + again.stderr).contains("Nothing to be done"), "\(again.stderr)")
        #expect(try Self.mtimes(viaSnakemake) == before)

        // A changed input (Snakemake compares contents, not only times) re-runs that input only.
        let fixed = Self.broken[0]
        try FileManager.default.removeItem(at: study.appendingPathComponent(fixed.target))
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("SampleData/brainiac/clean_v2.bin"),
                                         to: study.appendingPathComponent(fixed.target))
        let third = try TestSupport.run("/usr/bin/env", arguments)
        #expect(third.status == 0, "\(third.stderr)")
        let output = Self.outputPath(viaSnakemake, kind: fixed.kind, target: fixed.target)
        #expect(FileManager.default.fileExists(atPath: output.path))
        #expect(!FileManager.default.fileExists(atPath: output.path + ".failed"))
        #expect(try Self.summary(viaSnakemake).filter { $0[2] == "failed" }.count == Self.broken.count - 1)
        let after = try Self.mtimes(viaSnakemake)
        let rewritten = after.keys.filter { after[$0] != before[$0] && ($0.hasSuffix(".h5") || $0.hasSuffix(".failed")) }
        #expect(rewritten == [fixed.kind + "/" + fixed.target + ".h5"], "\(rewritten)")
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
