import Foundation
import Testing
import TestSupport

/// Issue 19, inputs: every tool reads an input by its content, whether it is a file, a symbolic link (DataLad and
/// git-annex datasets), a named pipe, `/dev/stdin` or a process substitution; `mynd-parse` says clearly that an HDF5
/// recording must be a file it can seek in; an input reached through a link is never the output.
@Suite("Inputs read by content")
struct InputRouteTests {
    static func path(_ relative: String) -> String { TestSupport.packageRoot.appendingPathComponent(relative).path }

    static var toolInputs: [RunSafetyTests.ToolInput] { RunSafetyTests.toolInputs }

    /// How an input reaches the tool.
    enum Route: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case symlink = "a symbolic link (a DataLad/git-annex dataset)", fifo = "a named pipe",
             stdin = "/dev/stdin (a pipe)", processSubstitution = "process substitution <(cat …)"
        var testDescription: String { rawValue }
    }

    /// Runs `tool` on `input` reached by `route`, into the CSV folder `out`; returns the result and the path the
    /// tool was given.
    static func run(_ tool: String, _ input: String, by route: Route, into out: String) throws -> (TestSupport.ProcessResult, String) {
        let name = URL(fileURLWithPath: input).lastPathComponent
        let work = TestSupport.temporaryFolder()
        switch route {
        case .symlink:
            let annexed = work.appendingPathComponent(".git/annex/objects/Xk/9q/" + name)
            try FileManager.default.createDirectory(at: annexed.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: input, toPath: annexed.path)
            let link = work.appendingPathComponent(name).path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: ".git/annex/objects/Xk/9q/" + name)
            return (try TestSupport.run(TestSupport.executable(tool), [link, "-o", out, "-q"]), link)
        case .fifo:
            let fifo = work.appendingPathComponent(name).path
            try #require(mkfifo(fifo, 0o600) == 0)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
            let writer = Thread {
                if let handle = FileHandle(forWritingAtPath: fifo) { try? handle.write(contentsOf: bytes); try? handle.close() }
            }
            writer.start()
            return (try TestSupport.run(TestSupport.executable(tool), [fifo, "-o", out, "-q"]), fifo)
        case .stdin:
            let result = try TestSupport.run("/bin/sh", ["-c", "cat \"$1\" | \"$0\" /dev/stdin -o \"$2\" -q",
                                                         TestSupport.executable(tool), input, out])
            return (result, "/dev/stdin")
        case .processSubstitution:
            let result = try TestSupport.run("/bin/bash", ["-c", "exec \"$0\" <(cat \"$1\") -o \"$2\" -q",
                                                           TestSupport.executable(tool), input, out])
            let path = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/provenance.json"))) as? [String: Any])
                .flatMap { ($0["inputs"] as? [[String: Any]])?.first?["path"] as? String } ?? "/dev/fd/?"
            return (result, path)
        }
    }

    @Test("A run blocked reading a named pipe is stopped by SIGTERM and leaves nothing")
    func signalWhileBlockedOnPipe() throws {
        let (folder, _) = try RunSafetyTests.seededFolder(.hdf5)
        let fifo = TestSupport.temporaryFolder().appendingPathComponent("capture.bin").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let before = try TestSupport.sha256s(under: folder)
        let run = try RunSafetyTests.Running("bt-decode", [fifo] + RunSafetyTests.Kind.hdf5.arguments(in: folder))
        // Open the writing end and keep it open without writing: the tool waits in read(2).
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        try writer.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: RunSafetyTests.smallCapture)).prefix(100_000))
        try RunSafetyTests.waitMidRun(run, .hdf5, in: folder)
        Thread.sleep(forTimeInterval: 0.2)
        run.signal(SIGTERM)
        run.wait()
        try? writer.close()
        #expect(run.endingSignal == SIGTERM, "exit \(String(describing: run.exitStatus))")
        #expect(try TestSupport.sha256s(under: folder) == before)
    }

    /// A table's rows with the input's path (its `source_file`) written as `<input>`.
    static func rows(_ folder: String, _ table: String, input: String) throws -> [String] {
        let text = try String(contentsOfFile: folder + "/" + table + ".csv", encoding: .utf8)
        return text.replacingOccurrences(of: input, with: "<input>").split(separator: "\n").map(String.init)
    }

    @Test("Inputs are read by content: a link, a named pipe, /dev/stdin and a process substitution give the rows of the file, and the provenance its size and SHA-256",
          arguments: toolInputs, Route.allCases)
    func inputByContent(_ c: RunSafetyTests.ToolInput, _ route: Route) throws {
        let input = InputRouteTests.path(c.input)
        let folder = TestSupport.temporaryFolder()
        let reference = folder.appendingPathComponent("reference").path
        let plain = try TestSupport.run(TestSupport.executable(c.tool), [input, "-o", reference, "-q"])
        try #require(plain.status == 0, "\(plain.stderr)")
        let out = folder.appendingPathComponent("out").path
        let (result, given) = try InputRouteTests.run(c.tool, input, by: route, into: out)
        #expect(result.status == 0, "\(result.stderr)")
        let provenance = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: out + "/provenance.json"))) as? [String: Any])
        let record = try #require((provenance["inputs"] as? [[String: Any]])?.first { $0["path"] as? String == given },
                                  "\(String(describing: provenance["inputs"]))")
        #expect(record["sha256"] as? String == (try TestSupport.pythonSHA256(ofFile: input)))
        #expect(record["size"] as? Int == (try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int))
        let expected = try InputRouteTests.rows(reference, c.table, input: input)
        let found = try InputRouteTests.rows(out, c.table, input: given)
        #expect(expected.count > 1)
        // The rows themselves where the file name carries no meaning (a link and a pipe keep the name).
        if route == .symlink || route == .fifo || c.tool == "bt-decode" || c.tool == "rt-stats" {
            #expect(found == expected)
        } else {
            #expect(found.count == expected.count)
        }
    }

    @Test("An HDF5 recording given as a pipe: mynd-parse says it needs a file it can seek in (66, one line)",
          arguments: [Route.fifo, .stdin, .processSubstitution])
    func recordingThroughPipe(_ route: Route) throws {
        let input = InputRouteTests.path("SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf")
        let out = TestSupport.temporaryFolder().appendingPathComponent("out").path
        let (result, given) = try InputRouteTests.run("mynd-parse", input, by: route, into: out)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("seeking in the file"),
                "\(result.stderr)")
        if route != .processSubstitution { #expect(result.stderr.contains(given), "\(result.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("An HDF5 recording on /dev/stdin redirected from a file (seekable) is read")
    func recordingOnStdinFromFile() throws {
        let input = InputRouteTests.path("SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf")
        let out = TestSupport.temporaryFolder().appendingPathComponent("out").path
        let result = try TestSupport.run("/bin/sh", ["-c", "exec \"$0\" /dev/stdin -o \"$2\" -q < \"$1\"",
                                                     TestSupport.executable("mynd-parse"), input, out])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: out + "/recordings.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 2 && rows[1].hasPrefix("/dev/stdin,"), "\(rows)")
    }

    @Test("/dev/null is an empty input like any other (65, naming it), not a permission error", arguments: toolInputs)
    func devNull(_ c: RunSafetyTests.ToolInput) throws {
        let out = TestSupport.temporaryFolder().appendingPathComponent("out.h5").path
        let result = try TestSupport.run(TestSupport.executable(c.tool), ["/dev/null", "-o", out])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("/dev/null") && !result.stderr.contains("permission"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    // MARK: - Inputs behind links are never outputs

    @Test("-o naming the target of an input reached through a link is refused as the input (73), the input unchanged")
    func linkedInputIsNoOutput() throws {
        let folder = TestSupport.temporaryFolder()
        let store = folder.appendingPathComponent("store")
        let study = folder.appendingPathComponent("study")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: study, withIntermediateDirectories: true)
        let recordingName = "r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf"
        let recording = store.appendingPathComponent(recordingName).path
        try FileManager.default.copyItem(atPath: InputRouteTests.path("SampleData/mynd/" + recordingName), toPath: recording)
        try FileManager.default.createSymbolicLink(atPath: study.appendingPathComponent(recordingName).path,
                                                   withDestinationPath: recording)
        let results = store.appendingPathComponent("results.csv").path
        try FileManager.default.copyItem(atPath: InputRouteTests.path("SampleData/braintracker/BrainTrackerResultsFile.csv"),
                                         toPath: results)
        let link = study.appendingPathComponent("BrainTrackerResultsFile.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: results)
        let before = try TestSupport.sha256s(under: folder)
        // A file given through a link, -o its target.
        var result = try TestSupport.run(TestSupport.executable("rt-stats"), [link, "-o", results, "--table", "trials"])
        #expect(result.status == 73 && result.stderr.contains("refusing to write over an input file"), "\(result.stderr)")
        // A folder walked (mynd-parse), holding a link to the recording; -o the recording.
        result = try TestSupport.run(TestSupport.executable("mynd-parse"), [study.path, "-o", recording])
        #expect(result.status == 73 && result.stderr.contains("refusing to write over an input file"), "\(result.stderr)")
        // … or a folder output holding the recording.
        result = try TestSupport.run(TestSupport.executable("mynd-parse"), [study.path, "-o", store.path + "/"])
        #expect(result.status == 73 && result.stderr.contains("holds the input"), "\(result.stderr)")
        #expect(try TestSupport.sha256s(under: folder) == before)
    }
}
