import Foundation
import Testing
import TestSupport

/// Extreme option values never crash a tool: every option that takes a value, read from the tool's `--help`, given
/// NaN, infinities, the largest double and integer, and a negative number. Each run ends with exit 0, or a usage
/// error (64), a data error (65) or an unreadable input (66: a value taken as a file name) in one line, never a
/// signal or a `Fatal error`. The tools run in a folder of their own, as a value may name an output folder. (An option sweep found traps in
/// `bt-decode --baseline-*`/`--window-s`, `bt-synth --duration-s` and `nt-analyze decode`'s millisecond options,
/// an allocation of 48 GB for `--offset-after-ms 2147483648`, and exit 1 with a JSON encoder's message for
/// `bt-synth --noise-uv nan`.)
@Suite("Extreme option values")
struct OptionValueTests {
    struct Command: CustomTestStringConvertible, Sendable {
        let tool: String
        /// Arguments before the option: a subcommand and a small SampleData input (relative to the package).
        let arguments: [String]
        var testDescription: String { ([tool] + arguments.prefix(1)).joined(separator: " ") }
    }

    static let commands: [Command] = [
        Command(tool: "bt-decode", arguments: ["SampleData/brainiac/clean_v2.bin"]),
        Command(tool: "bt-synth", arguments: ["--duration-s", "20"]),
        Command(tool: "ilog-parse", arguments: ["SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt"]),
        Command(tool: "rt-stats", arguments: ["SampleData/braintracker/BrainTrackerResultsFile.csv"]),
        Command(tool: "mynd-parse", arguments: ["SampleData/mynd/q_initial_1_0_0_3F2504E0-4F89-41D3-9A0C-0305E82C3301.json"]),
        Command(tool: "nt-analyze", arguments: ["analyze", "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"]),
        Command(tool: "nt-analyze", arguments: ["decode", "SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"]),
    ]

    /// Given as `--option=value`, so that a negative value is not taken for an option.
    static let values = ["nan", "inf", "-inf", "1e308", "-1e308", "9223372036854775807", "-9223372036854775808",
                         "2147483648", "-1"]

    /// The options of a command that take a value (`--name <value>` in its help), but `--output`.
    static func valueOptions(_ command: Command) throws -> [String] {
        let subcommand = ["decode", "analyze"].contains(command.arguments.first) ? [command.arguments[0]] : []
        let help = try TestSupport.run(TestSupport.executable(command.tool), subcommand + ["--help"]).stdout
        let pattern = try NSRegularExpression(pattern: #"^\s+(?:-[a-zA-Z], )?(--[a-z0-9-]+) <"#, options: .anchorsMatchLines)
        let range = NSRange(help.startIndex..., in: help)
        return pattern.matches(in: help, range: range).compactMap { match in
            Range(match.range(at: 1), in: help).map { String(help[$0]) }
        }.filter { $0 != "--output" }
    }

    @Test("Every option with a value, given NaN, ±infinity, the largest doubles and integers either way, or -1: exit 0, 64, 65 or 66 in one line, never a crash",
          arguments: commands)
    func extremeValues(_ command: Command) throws {
        let options = try Self.valueOptions(command)
        #expect(options.count >= 4, "\(options)")
        let folder = TestSupport.temporaryFolder()
        let arguments = command.arguments.map { $0.hasPrefix("SampleData/") ? TestSupport.packageRoot.appendingPathComponent($0).path : $0 }
        for option in options {
            for value in Self.values {
                let out = folder.appendingPathComponent(command.tool == "bt-synth" ? "s.bin" : "o.h5").path
                try? FileManager.default.removeItem(atPath: out)
                try? FileManager.default.removeItem(atPath: out + ".truth.json")
                // `cd` first: a value such as `--java-companions nan` names a folder relative to the working one.
                let result = try TestSupport.run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path,
                                                             TestSupport.executable(command.tool)]
                                                 + arguments + ["-o", out, "\(option)=\(value)", "-q"])
                let what = "\(command.tool) \(option) \(value): exit \(result.status): \(result.stderr.prefix(300))"
                #expect([0, 64, 65, 66].contains(result.status), "\(what)")
                #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Program crashed"), "\(what)")
                if result.status != 0 { #expect(result.stderr.split(separator: "\n").count == 1, "\(what)") }
            }
        }
    }
}
