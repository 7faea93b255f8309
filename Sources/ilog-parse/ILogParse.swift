import ArgumentParser
import Foundation
import InteractLog
import Tables
import ToolSupport

extension InteractLogError: ToolReportable {
    public var exitCode: SysExit { .dataError }
}

/// The parameters recorded in the provenance.
struct Parameters: Encodable {
    var skip_bad_lines: Bool
    var java_companions: String?
    var duplicate_release_window_ms = 50
    var span_tolerance_s = 2
}

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
          ilog-parse data/2023-07-04/*.txt -o out.h5
          ilog-parse experiments/*/*.txt -o tables/ --keep-going
          ilog-parse "P01 (Trial 1) 2023-07-04 - 10-15-02.txt" -o strokes.csv --table strokes
          ilog-parse data/*/*.txt -o out.h5 --java-companions preprocessed/
        """,
        version: ToolVersion.current)

    @Argument(help: "InteractLog .txt files.")
    var inputs: [String]

    @OptionGroup var output: OutputOptions

    @Flag(help: "Turn unreadable lines into anomalies rows (severity error) and go on.")
    var skipBadLines = false

    @Option(help: ArgumentHelp("Also write the Java program's <stem>_strokes.txt and <stem>_keys.txt for each Java log into this folder.",
                               valueName: "dir"))
    var javaCompanions: String?

    @Flag(help: "With --java-companions, overwrite existing companion files.")
    var force = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one InteractLog .txt file") }
        if force && javaCompanions == nil { throw ValidationError("--force only applies with --java-companions") }
    }

    func run() throws {
        let runner = ToolRunner(tool: "ilog-parse", quiet: output.quiet, verbose: output.verbose, keepGoing: output.keepGoing)
        try runner.run {
            let companions = try javaCompanions.map { try CompanionWriter(folder: $0, inputs: inputs, force: force) }
            let out = try output.open(tableNames: InteractLogTables.names, inputs: inputs)
            var records: [InputRecord] = []
            var analyses: [TrialAnalysis] = []
            var skipped: [Anomaly] = []
            var companionTexts: [String: String] = [:]
            let progress = ProgressBar(inputs: inputs, quiet: output.quiet)
            let failures = try runner.forEachInput(inputs, progress: progress) { path in
                if FileNameIdentity.isCompanion(path: path) {
                    let (data, record) = try InputFile.read(path)
                    companionTexts[path] = String(decoding: data, as: UTF8.self)
                    records.append(record)
                    skipped.append(Anomaly(sourceFile: path, code: InteractLogAnomalies.companion,
                                           message: "a Java _strokes.txt/_keys.txt companion file, not a log: skipped"))
                    return
                }
                let (data, record) = try InputFile.read(path)
                if JavaCompanionFiles.looksLikeCompanion(data) {
                    skipped.append(Anomaly(sourceFile: path, code: InteractLogAnomalies.companion,
                                           message: "rows of a Java _strokes.txt/_keys.txt companion file, not a log: skipped"))
                    return
                }
                let log = try ParsedLog.parse(data, sourceFile: path, skipBadLines: skipBadLines)
                var sidecar: Data?
                if log.program == .ipad {
                    let json = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("InteractLog.json").path
                    if FileManager.default.fileExists(atPath: json), let (jsonData, jsonRecord) = try? InputFile.read(json) {
                        sidecar = jsonData
                        if !records.contains(where: { $0.path == json }) { records.append(jsonRecord) }
                    }
                }
                progress.advance(bytes: data.count)
                analyses.append(TrialAnalysis(log, sidecarJSON: sidecar))
                records.append(record)
            }
            TrialAnalysis.checkDuplicateTrials(&analyses)
            for index in analyses.indices where analyses[index].log.program == .java {
                let stem = String(analyses[index].log.sourceFile.dropLast(analyses[index].log.sourceFile.hasSuffix(".txt") ? 4 : 0))
                let strokes = companionTexts[stem + "_strokes.txt"], keys = companionTexts[stem + "_keys.txt"]
                if strokes != nil || keys != nil {
                    JavaCompanionFiles.crossCheck(&analyses[index], strokesFile: strokes, keysFile: keys)
                }
            }
            // One stderr line per log with warnings or errors; infos (a normal ESC end, a companion input skipped)
            // stay in the anomalies table only.
            for analysis in analyses {
                let notable = analysis.log.anomalies.anomalies.filter { $0.severity != .info }
                runner.diagnostics.report(notable, for: analysis.log.sourceFile)
            }
            try companions?.check(analyses)

            var batches = InteractLogTables.emptyTables().map { [$0] }
            for analysis in analyses {
                for (index, table) in InteractLogTables.tables(analysis).enumerated() { batches[index].append(table) }
            }
            batches[batches.count - 1].append(Table.anomalies(skipped))
            for tableBatches in batches {
                if let table = InteractLogTables.concatenate(tableBatches) { try out.write(table) }
            }
            let parameters = Parameters(skip_bad_lines: skipBadLines, java_companions: javaCompanions)
            let provenance = runner.provenance(inputs: records, parametersJSON: Provenance.encodeParameters(parameters))
            try out.commit(provenance: provenance)
            try companions?.write(analyses, provenance: provenance)
            try runner.finish(failures: failures)
        }
    }
}
