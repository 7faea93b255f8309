import ArgumentParser
import Foundation
import InteractLog
import Tables
import ToolSupport

@main
struct ILogParse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ilog-parse",
        abstract: "InteractLog drawing-experiment logs (Java InteractLog 1.0-2.3, iPad InteractExperiment) into tidy tables.",
        discussion: """
        Reads InteractLog .txt logs of every Java and iPad variant (detected from the file), and an iPad \
        InteractLog.json lying beside a log, and writes the tables trials, header, events, strokes, \
        stimulus_views, stimulus_summary, keys and anomalies as one HDF5 file or a folder of CSV files. \
        Java _strokes.txt/_keys.txt companion files given as inputs are skipped (I_COMPANION).

        EXAMPLES:
          ilog-parse data/2023-07-04/*.txt -o out.h5 --report out.html
          ilog-parse experiments/*/*.txt -o tables/ --keep-going
          ilog-parse "P01 (Trial 1) 2023-07-04 - 10-15-02.txt" -o strokes.csv --table strokes
          ilog-parse data/*/*.txt -o out.h5 --java-companions preprocessed/
        """,
        version: ToolVersion.current)

    static func main() { mainAsTool() }

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Also write the Java program's <stem>_strokes.txt and <stem>_keys.txt for each Java log into this folder.",
                               valueName: "dir"))
    var javaCompanions: String?

    @Flag(help: "With --java-companions, overwrite existing companion files.")
    var force = false

    func validate() throws {
        if force && javaCompanions == nil { throw ValidationError("--force only applies with --java-companions") }
    }

    func run() throws {
        let runner = ToolRunner(tool: "ilog-parse", output: output)
        try runner.run {
            let companions = try javaCompanions.map { try CompanionWriter(folder: $0, inputs: input.inputs, force: force) }
            let format = InteractLogFormat(options: .init(skipBadLines: input.skipBadLines, javaCompanions: javaCompanions))
            try runner.run(format, inputs: input.inputs, output: output, sideOutput: companions)
        }
    }
}
