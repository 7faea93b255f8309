import TableWriters
import Testing
import ToolSupport

@Suite("Running a tool over several inputs")
struct ToolRunnerTests {
    @Test("With --keep-going a bad input is listed and the rest go on")
    func keepGoing() throws {
        let runner = ToolRunner(tool: "test", quiet: true, keepGoing: true)
        var seen: [String] = []
        let failures = try runner.forEachInput(["a", "b", "c"]) { input in
            seen.append(input)
            if input == "b" { throw ToolError.badInput("b: not a capture") }
        }
        #expect(seen == ["a", "b", "c"])
        #expect(failures.map(\.0) == ["b"])
    }

    @Test("An output error ends the run even with --keep-going")
    func outputErrorEndsTheRun() {
        let runner = ToolRunner(tool: "test", quiet: true, keepGoing: true)
        var seen: [String] = []
        let error = #expect(throws: TableOutputError.self) {
            _ = try runner.forEachInput(["a", "b", "c"]) { input in
                seen.append(input)
                if input == "a" { throw ToolError.badInput("a: not a capture") }
                if input == "b" { throw TableOutputError.io(path: "out.h5", reason: "No space left on device") }
            }
        }
        #expect(seen == ["a", "b"])
        #expect(error == .io(path: "out.h5", reason: "No space left on device"))
    }
}
