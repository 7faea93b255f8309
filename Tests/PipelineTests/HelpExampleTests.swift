import Foundation
import Testing
import TestSupport

/// Every `EXAMPLES` line of every tool's `--help`, run literally by a shell in a folder seeded with the inputs it
/// names and with unrelated files: it succeeds, a second run replaces its own outputs, and every file that was
/// there before keeps its SHA-256. Then, with something foreign at each example's `-o` (a file the tool did not
/// write, a folder holding a researcher's paper), the example is refused (exit 73) and again nothing changes.
@Suite("Every --help example, run literally, loses nothing", .serialized)
struct HelpExampleTests {
    static let uuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    static let mindaffect = "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"

    /// The files the examples name, copied from SampleData (path in the seed folder → path in the package).
    static let inputs: [String: String] = [
        "capture.bin": "SampleData/brainiac/clean_v2.bin",
        "day1/a.bin": "SampleData/brainiac/faulty_v2.bin",
        "day1/b.bin": "SampleData/brainiac/restart_mixed.bin",
        "legacy.bin": "SampleData/brainiac/legacy_le_v1.bin",
        "data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt":
            "SampleData/interactlog/data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
        "data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt":
            "SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt",
        "data/2017-05-03/log.txt": "SampleData/interactlog/data/2017-05-03",
        "experiments/A/P07 (Trial 1) 2023-10-17 - 14-02-11.txt":
            "SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
        "experiments/A/InteractLog.json":
            "SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/InteractLog.json",
        "experiments/B/P02 (Trial 1) 2023-07-24 - 15-31-09.txt":
            "SampleData/interactlog/experiments/89BBF6D7-1405-4FC4-AF41-741A862C21FC/P02 (Trial 1) 2023-07-24 - 15-31-09.txt",
        "P01 (Trial 1) 2023-07-04 - 10-15-02.txt":
            "SampleData/interactlog/data/2023-07-04/P01 (Trial 1) 2023-07-04 - 10-15-02.txt",
        "BrainTrackerResultsFile.csv": "SampleData/braintracker/BrainTrackerResultsFile.csv",
        "brain_data_raw.csv": "SampleData/braintracker/brain_data_raw.csv",
        "q_initial_1_0_0_\(uuid).json": "SampleData/mynd/q_initial_1_0_0_\(uuid).json",
        "r_rest_1_2_1_\(uuid).hdf": "SampleData/mynd/r_rest_1_2_1_\(uuid).hdf",
        "subjects/\(uuid)/q_initial_1_0_0_\(uuid).json": "SampleData/mynd/q_initial_1_0_0_\(uuid).json",
        "subjects/\(uuid)/q_motivation_1_1_2_\(uuid).json": "SampleData/mynd/q_motivation_1_1_2_\(uuid).json",
        "subjects/\(uuid)/r_rest_1_2_1_\(uuid).hdf": "SampleData/mynd/r_rest_1_2_1_\(uuid).hdf",
        "app/Data/motivation_en.json": "SampleData/mynd/definitions/motivation_en.json",
        "mindaffectBCI_exampledata.txt": mindaffect,
        "mindaffectBCI_second.txt": mindaffect,
        "session.txt": mindaffect,
    ]

    /// Files a researcher keeps beside the inputs: never to be touched.
    static let unrelated: [String: String] = [
        "notes.md": "# my notes\n", "day1/notes.md": "day 1: electrode 3 loose\n",
        "data/README.txt": "raw logs, do not edit\n", "subjects/\(uuid)/consent.pdf": "%PDF-1.4 not really\n",
    ]

    /// Every example line of every tool and subcommand, from `--experimental-dump-help` (unwrapped text).
    static func examples() throws -> [String] {
        var lines: [String] = []
        for (tool, subcommands) in [("bt-decode", [""]), ("bt-synth", [""]), ("ilog-parse", [""]), ("rt-stats", [""]),
                                    ("mynd-parse", [""]), ("nt-analyze", ["", "decode", "codes"])] {
            for sub in subcommands {
                let run = try TestSupport.run(TestSupport.executable(tool),
                                              (sub.isEmpty ? [] : [sub]) + ["--experimental-dump-help"])
                let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
                let discussion = (json?["command"] as? [String: Any])?["discussion"] as? String ?? ""
                guard let start = discussion.range(of: "EXAMPLES:") else {
                    Issue.record("\(tool) \(sub): --help has no EXAMPLES")
                    continue
                }
                lines += discussion[start.upperBound...].split(separator: "\n")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix(tool + " ") }
            }
        }
        return lines
    }

    /// A folder seeded with the inputs and unrelated files, and the code-table files `nt-analyze codes` checks.
    static func seed() throws -> URL {
        let root = TestSupport.temporaryFolder()
        let fm = FileManager.default
        for (target, source) in inputs {
            let url = root.appendingPathComponent(target)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let from = TestSupport.packageRoot.appendingPathComponent(source)
            var isFolder: ObjCBool = false
            if fm.fileExists(atPath: from.path, isDirectory: &isFolder), isFolder.boolValue {
                // A folder of Java logs: its first log under the given name.
                let first = try fm.contentsOfDirectory(atPath: from.path).filter { $0.hasSuffix(".txt") }.sorted()[0]
                try fm.copyItem(at: from.appendingPathComponent(first), to: url.deletingLastPathComponent()
                    .appendingPathComponent(first))
            } else {
                try fm.copyItem(at: from, to: url)
            }
        }
        for (target, text) in unrelated {
            let url = root.appendingPathComponent(target)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        for family in ["61_6521", "65_6532"] {
            let codes = try TestSupport.run(TestSupport.executable("nt-analyze"), ["codes", "--print", family])
            try Data(codes.stdout.utf8).write(to: root.appendingPathComponent("mgold_\(family)_psk_60hz.txt"))
        }
        return root
    }

    /// SHA-256 of every file under `root` (hidden ones too), by relative path, as Python's hashlib computes it.
    static func hashes(_ root: URL) throws -> [String: String] {
        let json = try TestSupport.python("""
        import hashlib, json, os, sys
        root = sys.argv[1]; out = {}
        for folder, _, files in os.walk(root):
            for name in files:
                path = os.path.join(folder, name)
                out[os.path.relpath(path, root)] = hashlib.sha256(open(path, "rb").read()).hexdigest()
        print(json.dumps(out))
        """, [root.path])
        let hashes = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String], "\(json)")
        try #require(!hashes.isEmpty, "no file under \(root.path)")
        return hashes
    }

    /// Runs one example line in `root` with the built tools first on PATH.
    static func shell(_ line: String, in root: URL) throws -> TestSupport.ProcessResult {
        let bin = URL(fileURLWithPath: TestSupport.executable("bt-decode")).deletingLastPathComponent().path
        return try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && PATH=\"$2:$PATH\" && eval \"$3\"", "sh",
                                              root.path, bin, line])
    }

    /// The `-o` of an example, if any.
    static func output(of line: String) -> String? {
        let words = line.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: "-o"), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    @Test("Each example succeeds twice and every file that was there before is unchanged")
    func examplesLoseNothing() throws {
        let lines = try HelpExampleTests.examples()
        #expect(lines.count >= 18, "found \(lines.count) examples")
        let root = try HelpExampleTests.seed()
        let before = try HelpExampleTests.hashes(root)
        for line in lines {
            for attempt in 1...2 {
                let run = try HelpExampleTests.shell(line, in: root)
                #expect(run.status == 0, "\(line) (run \(attempt)): exit \(run.status): \(run.stderr)")
            }
        }
        let after = try HelpExampleTests.hashes(root)
        for (path, hash) in before {
            #expect(after[path] == hash, "\(path) was changed or removed")
        }
        let litter = after.keys.filter { $0.contains(".tmp-") }
        #expect(litter.isEmpty, "temporary files left: \(litter)")
    }

    @Test("With a foreign file or folder at its -o, each example is refused (exit 73) and changes nothing")
    func foreignDestinationsRefused() throws {
        let lines = try HelpExampleTests.examples().filter { HelpExampleTests.output(of: $0) != nil }
        #expect(lines.count >= 15)
        for line in lines {
            let root = try HelpExampleTests.seed()
            let target = HelpExampleTests.output(of: line)!
            let url = root.appendingPathComponent(target)
            if target.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                try Data("\\documentclass{article}\n".utf8).write(to: url.appendingPathComponent("paper.tex"))
            } else {
                try Data("a file the researcher wrote\n".utf8).write(to: url)
            }
            let before = try HelpExampleTests.hashes(root)
            let run = try HelpExampleTests.shell(line, in: root)
            #expect(run.status == 73, "\(line): exit \(run.status): \(run.stderr)")
            #expect(run.stderr.contains(target.hasSuffix("/") ? "paper.tex" : target), "\(line): \(run.stderr)")
            #expect(try HelpExampleTests.hashes(root) == before, "\(line) changed the folder")
        }
    }
}
