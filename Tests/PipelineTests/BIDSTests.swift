import Foundation
import Testing
import TestSupport

/// `make bids STUDY=… BIDS=…` (docs/bids.md): the official validator (bids-validator-deno, pinned in
/// requirements-bids.txt) finds 0 errors in the dataset built from SampleData and from the real files, MNE-BIDS
/// reads every recording back with its channels, rate and events, and a second run does nothing.
@Suite("EEG-BIDS from a study folder")
struct BIDSTests {
    static let repo = TestSupport.packageRoot
    static let venv = repo.appendingPathComponent(".venv-bids/bin")
    static let ready = FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("bids-validator-deno").path)
        && ((try? TestSupport.run("/usr/bin/env", ["which", "make"]).status) == 0)
    static let reason: Comment = ".venv-bids or make is absent (make test runs scripts/setup.sh, which installs the venv)"
    static var bin: String { URL(fileURLWithPath: TestSupport.executable("bt-decode")).deletingLastPathComponent().path }

    static func makeBIDS(study: String, bids: URL, _ extra: [String] = []) throws -> TestSupport.ProcessResult {
        try TestSupport.run("/usr/bin/env", ["make", "-C", repo.path, "bids", "STUDY=\(study)", "BIDS=\(bids.path)",
                                             "BIN=\(bin)"] + extra)
    }

    /// The validator's issues by severity and code.
    static func validate(_ bids: URL) throws -> [String: [String: Int]] {
        let result = try TestSupport.run(venv.appendingPathComponent("bids-validator-deno").path,
                                         [bids.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stderr)")
        let issues = ((object["issues"] as? [String: Any])?["issues"] as? [[String: Any]]) ?? []
        var counts: [String: [String: Int]] = [:]
        for issue in issues {
            counts[issue["severity"] as? String ?? "?", default: [:]][issue["code"] as? String ?? "?", default: 0] += 1
        }
        return counts
    }

    /// mne_bids.read_raw_bids on every EEG file: basename → [channels, sfreq, annotation count, BAD_lost_samples].
    static func readBack(_ bids: URL) throws -> [String: [Any]] {
        let script = """
        import json, sys, warnings
        import mne
        from mne_bids import find_matching_paths, read_raw_bids
        mne.set_log_level("ERROR"); warnings.simplefilter("ignore")
        out = {}
        for p in find_matching_paths(sys.argv[1], datatypes="eeg", suffixes="eeg", extensions=[".bdf", ".edf", ".vhdr"]):
            raw = read_raw_bids(p)
            out[p.basename] = [raw.ch_names, raw.info["sfreq"], len(raw.annotations),
                               sum(d == "BAD_lost_samples" for d in raw.annotations.description)]
        print(json.dumps(out))
        """
        let result = try TestSupport.run(venv.appendingPathComponent("python").path, ["-c", script, bids.path])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [Any]])
    }

    @Test("SampleData: 0 validator errors, MNE-BIDS reads every recording, a second run does nothing",
          .enabled(if: ready, reason))
    func sampleData() throws {
        let bids = TestSupport.temporaryFolder().appendingPathComponent("bids")
        let first = try Self.makeBIDS(study: Self.repo.appendingPathComponent("SampleData").path, bids: bids, ["-j", "2"])
        try #require(first.status == 0, "\(first.stderr)")
        let issues = try Self.validate(bids)
        #expect(issues["error"] == nil, "\(issues["error"] ?? [:])")
        let read = try Self.readBack(bids)
        #expect(read.count == 6, "\(read.keys.sorted())")
        let faulty = try #require(read["sub-faultyv2_task-brainiac_eeg.bdf"])
        #expect(faulty[0] as? [String] == ["T3", "O1", "T4", "O2"])
        #expect(faulty[1] as? Double == 250)
        // faulty_v2: 93 BAD_lost_samples in its events.tsv, one per run of lost samples (as in the signal file).
        #expect((faulty[3] as? Int ?? 0) > 0)
        let mynd = try #require(read["sub-3F2504E04F8941D39A0C0305E82C3301_ses-2_task-rest_run-1_eeg.bdf"])
        #expect(mynd[0] as? [String] == ["TP9", "AF7", "AF8", "TP10"])
        #expect(mynd[1] as? Double == 256)
        for file in ["dataset_description.json", "participants.tsv", "participants.json", "README",
                     "sourcedata/brainiac/faulty_v2.bin", "sub-faultyv2/sub-faultyv2_scans.tsv",
                     // Behaviour and questionnaires.
                     "sub-P01/ses-20230704/beh/sub-P01_ses-20230704_task-interactlog_run-2_beh.tsv",
                     "sub-P01/ses-20230704/beh/sub-P01_ses-20230704_task-interactlog_run-2_beh.json",
                     "sub-BrainTrackerResultsFile/beh/sub-BrainTrackerResultsFile_task-braintracker_beh.tsv",
                     "phenotype/initial.tsv", "phenotype/initial.json", "phenotype/motivation.tsv"] {
            #expect(FileManager.default.fileExists(atPath: bids.appendingPathComponent(file).path), "\(file)")
        }
        let scans = try String(contentsOf: bids.appendingPathComponent("sub-faultyv2/sub-faultyv2_scans.tsv"), encoding: .utf8)
        let sha = try TestSupport.pythonSHA256(ofFile: Self.repo.appendingPathComponent("SampleData/brainiac/faulty_v2.bin").path)
        #expect(scans.contains(sha), "the input's SHA-256 is in the scans table")
        let second = try Self.makeBIDS(study: Self.repo.appendingPathComponent("SampleData").path, bids: bids)
        #expect(second.status == 0)
        #expect(second.stdout.contains("Nothing to be done"), "\(second.stdout)\(second.stderr)")
    }

    @Test("The real files: 0 validator errors and MNE-BIDS reads them", .enabled(if: ready, reason),
          .enabled(if: TestSupport.hasRealData(""), "../shared/realdata is absent"))
    func realData() throws {
        let bids = TestSupport.temporaryFolder().appendingPathComponent("bids")
        let result = try Self.makeBIDS(study: TestSupport.realDataRoot.path, bids: bids, ["LINE_FREQ=50"])
        try #require(result.status == 0, "\(result.stderr)")
        let issues = try Self.validate(bids)
        #expect(issues["error"] == nil, "\(issues["error"] ?? [:])")
        let read = try Self.readBack(bids)
        #expect(read.count == 2, "\(read.keys.sorted())")
    }

    @Test("Entities from folders and a mapping file; a changed input re-runs alone; options reach _eeg.json",
          .enabled(if: ready, reason))
    func incrementalAndMapping() throws {
        let root = TestSupport.temporaryFolder()
        let study = root.appendingPathComponent("study/P05"), bids = root.appendingPathComponent("bids")
        try FileManager.default.createDirectory(at: study, withIntermediateDirectories: true)
        for (source, name) in [("faulty_v2.bin", "a.bin"), ("clean_v2.bin", "b.bin")] {
            try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("SampleData/brainiac/" + source),
                                             to: study.appendingPathComponent(name))
        }
        let map = root.appendingPathComponent("map.tsv")
        try Data("input\tsubject\tsession\ttask\trun\nP05/b.bin\t\t1\trest\t\n".utf8).write(to: map)
        let options = ["MAP=\(map.path)", "LINE_FREQ=50", "EEG_REFERENCE=Fpz"]
        let studyPath = study.deletingLastPathComponent().path
        let first = try Self.makeBIDS(study: studyPath, bids: bids, options + ["-j", "2"])
        try #require(first.status == 0, "\(first.stderr)")
        let a = bids.appendingPathComponent("sub-P05/eeg/sub-P05_task-brainiac_eeg.json")
        let b = bids.appendingPathComponent("sub-P05/ses-1/eeg/sub-P05_ses-1_task-rest_eeg.json")
        let sidecar = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: a)) as? [String: Any])
        #expect(sidecar["PowerLineFrequency"] as? Double == 50)
        #expect(sidecar["EEGReference"] as? String == "Fpz")
        #expect(FileManager.default.fileExists(atPath: b.path), "the mapping's session and task")
        // A changed input re-runs alone; then nothing is left to do.
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: study.appendingPathComponent("a.bin").path)
        let second = try Self.makeBIDS(study: studyPath, bids: bids, options)
        #expect(second.status == 0)
        #expect(second.stderr.contains("P05/a.bin") && !second.stderr.contains("P05/b.bin"), "\(second.stderr)")
        let third = try Self.makeBIDS(study: studyPath, bids: bids, options)
        #expect(third.stdout.contains("Nothing to be done"), "\(third.stdout)\(third.stderr)")
        #expect(try Self.validate(bids)["error"] == nil)
        // An input that leaves the study takes exactly its files along; a researcher's file stays.
        let mine = bids.appendingPathComponent("sub-P05/ses-1/eeg/my-notes.txt")
        try Data("mine\n".utf8).write(to: mine)
        try FileManager.default.removeItem(at: study.appendingPathComponent("b.bin"))
        let fourth = try Self.makeBIDS(study: studyPath, bids: bids, options)
        #expect(fourth.status == 0, "\(fourth.stderr)")
        #expect(!FileManager.default.fileExists(atPath: b.path))
        #expect(!FileManager.default.fileExists(atPath: bids.appendingPathComponent("sub-P05/ses-1/sub-P05_ses-1_scans.tsv").path))
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine\n")
        try FileManager.default.removeItem(at: mine)   // not a BIDS file: the validator would flag it
        #expect(try Self.validate(bids)["error"] == nil)
    }
}
