import Foundation
import Testing
import TestSupport

/// The output conventions every table tool shares, run against each tool (conventions §2 and §3): `-o` is resolved
/// without guessing, nothing a tool did not write is removed or overwritten, inputs are never outputs, a file given
/// to the wrong tool says which tool reads it, and stderr has one summary line per input unless `--verbose`.
@Suite("Output safety, for every tool")
struct OutputSafetyTests {
    /// A tool, one of its sample inputs, and a sample input of another tool.
    struct ToolCase: CustomTestStringConvertible, Sendable {
        let tool: String
        let input: String
        let foreign: String
        let readBy: String
        var testDescription: String { tool }
    }

    static let cases: [ToolCase] = [
        ToolCase(tool: "bt-decode", input: "SampleData/brainiac/faulty_v2.bin",
                 foreign: "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt", readBy: "nt-analyze"),
        ToolCase(tool: "ilog-parse", input: "SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt",
                 foreign: "SampleData/brainiac/clean_v2.bin", readBy: "bt-decode"),
        ToolCase(tool: "rt-stats", input: "SampleData/braintracker/BrainTrackerResultsFile.csv",
                 foreign: "SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf", readBy: "mynd-parse"),
        ToolCase(tool: "mynd-parse", input: "SampleData/mynd/r_rest_1_2_1_3F2504E0-4F89-41D3-9A0C-0305E82C3301.hdf",
                 foreign: "SampleData/braintracker/brain_data_raw.csv", readBy: "rt-stats"),
        ToolCase(tool: "nt-analyze", input: "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt",
                 foreign: "SampleData/braintracker/BrainTrackerResultsFile.csv", readBy: "rt-stats"),
    ]

    /// A work folder holding a copy of the case's input, and the path of that copy.
    static func workFolder(_ c: ToolCase) throws -> (URL, String) {
        let folder = TestSupport.temporaryFolder()
        let name = URL(fileURLWithPath: c.input).lastPathComponent
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("in/" + name)
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent(c.input), to: copy)
        return (folder, copy.path)
    }

    static func run(_ c: ToolCase, _ arguments: [String]) throws -> TestSupport.ProcessResult {
        try TestSupport.run(TestSupport.executable(c.tool), arguments)
    }

    @Test("-o without guessing: unknown extensions, contradictions and --table with HDF5 are usage errors; .hdf is HDF5",
          arguments: cases)
    func destinationRules(_ c: ToolCase) throws {
        let (folder, input) = try OutputSafetyTests.workFolder(c)
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("mine\n".utf8).write(to: notes)
        for arguments in [["-o", notes.path], ["-o", folder.appendingPathComponent("x.h5").path, "--format", "csv"],
                          ["-o", folder.appendingPathComponent("x.h5").path, "--table", "anomalies"],
                          ["-o", folder.appendingPathComponent("out/").path, "--format", "hdf5"],
                          ["-o", folder.appendingPathComponent("x.parquet").path]] {
            let result = try OutputSafetyTests.run(c, [input] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("-o"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: notes) == Data("mine\n".utf8))
        let hdf = folder.appendingPathComponent("x.hdf").path
        let result = try OutputSafetyTests.run(c, [input, "-o", hdf, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: hdf)).prefix(4) == Data([0x89, 0x48, 0x44, 0x46]))
        // The same input twice is a usage error: its rows would be counted twice.
        let twice = try OutputSafetyTests.run(c, [input, input, "-o", folder.appendingPathComponent("y.h5").path])
        #expect(twice.status == 64 && twice.stderr.contains("twice"), "\(twice.stderr)")
    }

    @Test("An earlier output is replaced, a hand-edited or foreign one is refused (73), inputs are never outputs",
          arguments: cases)
    func nothingLost(_ c: ToolCase) throws {
        let (folder, input) = try OutputSafetyTests.workFolder(c)
        let out = folder.appendingPathComponent("tables").path
        #expect(try OutputSafetyTests.run(c, [input, "-o", out, "-q"]).status == 0)
        let first = try TestSupport.files(under: folder)
        #expect(first.keys.contains("tables/datapackage.json") && first.keys.contains("tables/provenance.json"))
        // Its own output is replaced (same bytes: deterministic), leaving no temporary files.
        #expect(try OutputSafetyTests.run(c, [input, "-o", out, "-q"]).status == 0)
        #expect(try TestSupport.files(under: folder) == first)
        // A table edited by hand is the researcher's now: refused, named, nothing changes.
        let table = try #require(first.keys.first { $0.hasPrefix("tables/") && $0.hasSuffix(".csv") })
        try (first[table]! + Data("edited\n".utf8)).write(to: folder.appendingPathComponent(table))
        let edited = try TestSupport.files(under: folder)
        var result = try OutputSafetyTests.run(c, [input, "-o", out])
        #expect(result.status == 73 && result.stderr.contains(table), "\(result.stderr)")
        #expect(try TestSupport.files(under: folder) == edited)
        // A folder that holds an input is refused, whatever else it holds.
        result = try OutputSafetyTests.run(c, [input, "-o", folder.appendingPathComponent("in").path + "/"])
        #expect(result.status == 73 && result.stderr.contains("holds the input"), "\(result.stderr)")
        // An output path that is an input through a symbolic link is refused.
        let link = folder.appendingPathComponent("link.h5").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        result = try OutputSafetyTests.run(c, [input, "-o", link])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try TestSupport.files(under: folder) == edited.merging(["link.h5": edited["in/" + URL(fileURLWithPath: input).lastPathComponent]!]) { a, _ in a })
    }

    @Test("One-letter names, relative to the working folder: -o o/, -o o.h5, -o t.csv --table, an input named x.<ext>; each run succeeds and writes its output (Foundation's NSString path functions trap on such names)",
          arguments: cases)
    func oneLetterNames(_ c: ToolCase) throws {
        let folder = TestSupport.temporaryFolder()
        let source = TestSupport.packageRoot.appendingPathComponent(c.input)
        let input = "x." + source.pathExtension
        try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(input))
        let table = c.tool == "mynd-parse" ? "recordings" : "anomalies"
        for output in [["-o", "o/"], ["-o", "o.h5"], ["-o", "t.csv", "--table", table]] {
            // `cd` first: the names stay one letter long, relative to the working folder.
            let result = try TestSupport.run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path,
                                                         TestSupport.executable(c.tool), input] + output + ["-q"])
            #expect(result.status == 0, "\(output): \(result.status) \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(output[1]).path), "\(output)")
        }
    }

    @Test("A file given to the wrong tool says what it looks like and which tool reads it", arguments: cases)
    func wrongTool(_ c: ToolCase) throws {
        let folder = TestSupport.temporaryFolder()
        let result = try OutputSafetyTests.run(c, [TestSupport.packageRoot.appendingPathComponent(c.foreign).path,
                                                   "-o", folder.appendingPathComponent("x.h5").path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("read it with \(c.readBy)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("stderr: one summary line per input; each anomaly with --verbose")
    func summaryLine() throws {
        let c = OutputSafetyTests.cases[4]
        let folder = TestSupport.temporaryFolder()
        let input = TestSupport.packageRoot.appendingPathComponent(c.input).path
        let plain = try OutputSafetyTests.run(c, [input, "-o", folder.appendingPathComponent("a.h5").path])
        let verbose = try OutputSafetyTests.run(c, [input, "-o", folder.appendingPathComponent("b.h5").path, "--verbose"])
        #expect(plain.status == 0 && verbose.status == 0)
        let lines = plain.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("see the anomalies table"), "\(plain.stderr)")
        #expect(verbose.stderr.split(separator: "\n").count > 1, "\(verbose.stderr)")
        #expect(verbose.stderr.hasSuffix(lines[0] + "\n"))
    }
}
