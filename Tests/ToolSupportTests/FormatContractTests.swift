import ArgumentParser
import Foundation
import Reports
import Tables
import TableWriters
import TestSupport
import Testing
import ToolSupport

/// A format in a dozen lines, as a seventh tool would write one: each input's lines counted; a line `bad` makes
/// the input unusable; an empty line is a warning.
struct LineCountFormat: InputFormat {
    struct Options: Encodable { var minimum = 1 }
    struct Failure: ReportableError {
        var message: String
        var exitCode: SysExit { .dataError }
    }

    let options = Options()
    var tableNames: [String] { ["counts", "anomalies"] }

    func read(_ input: InputSource) throws -> (path: String, lines: [String]) {
        let lines = String(decoding: try input.contents(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.firstIndex(of: "bad") { throw Failure(message: "\(input.path):\(index + 1): bad line") }
        return (input.path, lines)
    }

    func tables(_ parsed: [(path: String, lines: [String])]) -> FormatOutput {
        let anomalies = parsed.flatMap { item in
            item.lines.indices.filter { item.lines[$0].isEmpty && $0 < item.lines.count - 1 }.map {
                Anomaly(sourceFile: item.path, line: $0 + 1, severity: .warning, code: "W_EMPTY_LINE", message: "an empty line")
            }
        }
        return FormatOutput(tables: [Table("counts", [.string("source_file", parsed.map(\.path)),
                                                      .int32("lines", parsed.map { $0.lines.count })]),
                                     .anomalies(anomalies)],
                            anomalies: anomalies)
    }
}

/// The same, streaming: each line is handed over as a one-row batch while the file is read.
struct StreamedLineFormat: StreamingInputFormat {
    let options = LineCountFormat.Options()
    var tableNames: [String] { ["lines", "anomalies"] }

    func read(_ input: InputSource, emit: (Table) throws -> Void) throws -> String {
        var text = ""
        try input.stream(chunkSize: 3) { text += String(decoding: $0, as: UTF8.self) }
        for line in text.split(separator: "\n") {
            if line == "bad" { throw LineCountFormat.Failure(message: "\(input.path): bad line") }
            try emit(Table("lines", [.string("source_file", [input.path]), .string("text", [String(line)])]))
        }
        return input.path
    }

    func tables(_ parsed: [String]) -> FormatOutput {
        FormatOutput(tables: [Table("lines", [.string("source_file", []), .string("text", [])]), .anomalies([])],
                     anomalies: [])
    }
}

@Suite("The format contract and its runner")
struct FormatContractTests {
    /// Writes files into a new folder; returns the folder.
    func folder(_ files: [String: String]) throws -> URL {
        let folder = TestSupport.temporaryFolder()
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    func run<Format: InputFormat>(_ format: Format, _ inputs: [URL], _ arguments: [String]) throws -> Int32 {
        let output = try OutputOptions.parse(arguments + ["--quiet"])
        do {
            // A tool name the earlier-output check knows (a seventh tool adds its own to `PreviousOutput.tools`).
            try ToolRunner(tool: "rt-stats", output: output).run(format, inputs: inputs.map(\.path), output: output)
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        }
    }

    func csv(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("A run writes every table, the anomalies, and a provenance with each input's SHA-256 and the options")
    func wholeRun() throws {
        let dir = try folder(["a.txt": "x\n\ny\n", "b.txt": "z\n"])
        let out = dir.appendingPathComponent("out")
        let inputs = [dir.appendingPathComponent("a.txt"), dir.appendingPathComponent("b.txt")]
        #expect(try run(LineCountFormat(), inputs, ["-o", out.path + "/"]) == 0)
        #expect(try csv(out.appendingPathComponent("counts.csv")) == ["source_file,lines", "\(inputs[0].path),4", "\(inputs[1].path),2"])
        let anomalies = try csv(out.appendingPathComponent("anomalies.csv"))
        #expect(anomalies.count == 2)
        #expect(anomalies[1].contains(",2,") && anomalies[1].contains("W_EMPTY_LINE"))
        let provenance = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("provenance.json"))) as? [String: Any])
        let recorded = try #require(provenance["inputs"] as? [[String: Any]])
        #expect(recorded.map { $0["path"] as? String } == inputs.map(\.path))
        #expect(recorded[0]["sha256"] as? String == (try TestSupport.pythonSHA256(ofFile: inputs[0].path)))
        #expect((provenance["parameters"] as? [String: Any])?["minimum"] as? Int == 1)
    }

    @Test("With --keep-going a bad input fails alone (exit 65); the others are written")
    func keepGoing() throws {
        let dir = try folder(["a.txt": "x\n", "bad.txt": "ok\nbad\n"])
        let out = dir.appendingPathComponent("out")
        let inputs = [dir.appendingPathComponent("bad.txt"), dir.appendingPathComponent("a.txt")]
        #expect(try run(LineCountFormat(), inputs, ["-o", out.path + "/", "--keep-going"]) == 65)
        #expect(try csv(out.appendingPathComponent("counts.csv")).count == 2)
        #expect(try run(LineCountFormat(), inputs, ["-o", dir.appendingPathComponent("other").path + "/"]) == 65)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("other").path))
    }

    @Test("When every input fails, an earlier output stays as it was and no temporary file is left")
    func everyInputFails() throws {
        let dir = try folder(["a.txt": "x\n", "bad.txt": "bad\n"])
        let out = dir.appendingPathComponent("out.h5")
        #expect(try run(StreamedLineFormat(), [dir.appendingPathComponent("a.txt")], ["-o", out.path]) == 0)
        let before = try TestSupport.pythonSHA256(ofFile: out.path)
        #expect(try run(StreamedLineFormat(), [dir.appendingPathComponent("bad.txt")], ["-o", out.path, "--keep-going"]) == 65)
        #expect(try TestSupport.pythonSHA256(ofFile: out.path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a.txt", "bad.txt", "out.h5"])
    }

    @Test("A streaming format's batches arrive in order; an input in memory streams in chunks of the size asked")
    func streaming() throws {
        let dir = try folder(["a.txt": "one\ntwo\nthree\n"])
        let out = dir.appendingPathComponent("lines.csv")
        #expect(try run(StreamedLineFormat(), [dir.appendingPathComponent("a.txt")], ["-o", out.path, "--table", "lines"]) == 0)
        #expect(try csv(out).dropFirst().map { $0.split(separator: ",").last.map(String.init) } == ["one", "two", "three"])

        let source = InputSource(path: "m.txt", contents: Data("abcdefg".utf8), companions: ["side.json": Data("{}".utf8)])
        var chunks: [String] = []
        try source.stream(chunkSize: 3) { chunks.append(String(decoding: $0, as: UTF8.self)) }
        #expect(chunks == ["abc", "def", "g"])
        #expect(try source.size() == 7)
        #expect(try source.companion(at: "side.json") == Data("{}".utf8))
        #expect(try source.companion(at: "other.json") == nil)
        #expect(InputSource(path: "a/b/c.txt", contents: Data()).sibling(named: "x.json") == "a/b/x.json")
    }

    @Test("A destination that cannot be written is refused before any input is read (exit 73)")
    func destinationFirst() throws {
        let dir = try folder(["bad.txt": "bad\n"])
        let code = try run(LineCountFormat(), [dir.appendingPathComponent("bad.txt")],
                           ["-o", dir.appendingPathComponent("missing/out.h5").path])
        #expect(code == 73)
    }
}

/// The counting format with a report: one plot of the line counts.
extension LineCountFormat: ReportingFormat {
    func report(_ parsed: [(path: String, lines: [String])], output: FormatOutput) -> ReportPage {
        let chart = Chart(id: "counts", cssClass: "plot-counts", title: "Lines per input",
                          x: Axis("input", unit: "number"), y: Axis("lines", unit: "line", includeZero: true),
                          layers: [.bars(BarSeries("lines", xs: parsed.indices.map(Double.init), widths: parsed.map { _ in 0.8 },
                                                   ys: parsed.map { Double($0.lines.count) }, colour: Palette.colour(0)))])
        return ReportPage(title: "Line counts", sections: [ReportSection(id: "counts-section", heading: "Counts",
                                                                         blocks: [.plot(chart)])])
    }
}

@Suite("The runner's report hook")
struct ReportHookTests {
    func run<Format: InputFormat>(_ format: Format, _ inputs: [URL], _ arguments: [String]) throws -> Int32 {
        try FormatContractTests().run(format, inputs, arguments)
    }

    func run<Format: ReportingFormat>(_ format: Format, _ inputs: [URL], _ arguments: [String]) throws -> Int32 {
        let output = try OutputOptions.parse(arguments + ["--quiet"])
        do {
            try ToolRunner(tool: "rt-stats", output: output).run(format, inputs: inputs.map(\.path), output: output)
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        }
    }

    @Test("A reporting format's page is written after the tables: the run's sections around the format's, sealed, the same bytes again")
    func page() throws {
        let dir = TestSupport.temporaryFolder()
        let a = dir.appendingPathComponent("a.txt"), bad = dir.appendingPathComponent("bad.txt")
        try Data("x\n\ny\n".utf8).write(to: a)
        try Data("bad\n".utf8).write(to: bad)
        let report = dir.appendingPathComponent("run.html")
        #expect(try run(LineCountFormat(), [a, bad], ["-o", dir.appendingPathComponent("out.h5").path,
                                                    "--report", report.path, "--keep-going"]) == 65)
        let data = try Data(contentsOf: report)
        #expect(ReportFile.sealingTool(of: data) == "rt-stats")
        let page = String(decoding: data, as: UTF8.self)
        for id in ["run", "inputs", "failed-inputs", "counts-section", "counts", "anomalies", "anomaly-counts", "tables",
                   "tables-written", "provenance"] {
            #expect(page.contains("id=\"\(id)\""), "no \(id)")
        }
        #expect(page.contains("W_EMPTY_LINE"))
        #expect(page.contains("bad.txt:1: bad line"))
        #expect(try run(LineCountFormat(), [a, bad], ["-o", dir.appendingPathComponent("out.h5").path,
                                                    "--report", report.path, "--keep-going"]) == 65)
        #expect(try Data(contentsOf: report) == data)
        // Every input failing writes nothing, the report included.
        let other = dir.appendingPathComponent("other.html")
        #expect(try run(LineCountFormat(), [bad], ["-o", dir.appendingPathComponent("o2.h5").path, "--report", other.path,
                                                   "--keep-going"]) == 65)
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    @Test("A format that draws no report refuses --report (64) before reading or writing anything")
    func noReport() throws {
        let dir = TestSupport.temporaryFolder()
        let a = dir.appendingPathComponent("a.txt")
        try Data("x\n".utf8).write(to: a)
        let out = dir.appendingPathComponent("out.h5")
        #expect(try run(StreamedLineFormat(), [a], ["-o", out.path, "--report", dir.appendingPathComponent("r.html").path]) == 64)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
