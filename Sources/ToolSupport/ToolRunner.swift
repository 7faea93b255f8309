import ArgumentParser
import Foundation
import Reports
import SignalFiles
import Tables
import TableWriters

/// Runs a tool: the one place that owns output opening, progress, `--keep-going`, the stderr summary, the
/// provenance and the exit codes, for every ``InputFormat`` (conventions §1–§4). A tool's `run()` is one call,
/// ``run(_:inputs:output:extraInputs:sideOutput:)``.
public struct ToolRunner {
    public let diagnostics: Diagnostics
    public let keepGoing: Bool

    public init(tool: String, quiet: Bool, verbose: Bool = false, keepGoing: Bool = false) {
        diagnostics = Diagnostics(tool: tool, quiet: quiet, verbose: verbose)
        self.keepGoing = keepGoing
    }

    /// The runner for a tool writing tables with these output options.
    public init(tool: String, output: OutputOptions) {
        self.init(tool: tool, quiet: output.quiet, verbose: output.verbose, keepGoing: output.keepGoing)
    }

    /// Runs `body`; a ``ReportableError`` is printed as one line and turned into its exit code. The C allocator is
    /// first set to reuse freed batches (``AllocatorTuning/reuseFreedMemory()``).
    public func run(_ body: () throws -> Void) throws {
        AllocatorTuning.reuseFreedMemory()
        do {
            try body()
        } catch let error as ReportableError {
            diagnostics.error(error.message)
            throw ExitCode(error.exitCode.rawValue)
        }
    }

    /// Reads `inputs` with `format` and writes its tables to the output the options name.
    ///
    /// The destination is checked and locked before any input is read (a second run writing the same output is
    /// refused, exit 73); files found in folders are checked against it too. A streaming format's output is opened
    /// then, any other's only once every input is read. Each input is read on its own: without `--keep-going` the first
    /// failure ends the run, with it the rest go on and the failures are listed at the end (exit 65); when no
    /// input could be read nothing is written, so an earlier output stays. `extraInputs` are files the options
    /// named (definitions, code tables) for the provenance; `sideOutput` writes files besides the tables.
    /// A format that draws no report refuses `--report` (exit 64).
    public func run<Format: InputFormat>(_ format: Format, inputs: [String], output: OutputOptions,
                                         extraInputs: [InputRecord] = [],
                                         sideOutput: (any SideOutput<Format.Parsed>)? = nil) throws {
        try run(format, inputs: inputs, output: output, extraInputs: extraInputs, sideOutput: sideOutput,
                reporter: nil)
    }

    /// As above, for a format that draws a report: with `--report PATH.html` the page (the format's plots, the
    /// run's inputs, anomalies, tables and provenance) is written after the tables, atomically, sealed so that a
    /// later run recognises it (``Tables/ReportFile``).
    public func run<Format: ReportingFormat>(_ format: Format, inputs: [String], output: OutputOptions,
                                             extraInputs: [InputRecord] = [],
                                             sideOutput: (any SideOutput<Format.Parsed>)? = nil) throws {
        try run(format, inputs: inputs, output: output, extraInputs: extraInputs, sideOutput: sideOutput,
                reporter: { format.report($0, output: $1) })
    }

    private func run<Format: InputFormat>(_ format: Format, inputs: [String], output: OutputOptions,
                                          extraInputs: [InputRecord], sideOutput: (any SideOutput<Format.Parsed>)?,
                                          reporter: (([Format.Parsed], FormatOutput) -> ReportPage)?) throws {
        try run {
            if let kind = SignalFileKind(path: output.output) {
                guard let exporting = format as? any SignalExportingFormat else {
                    throw ToolError.usage("-o \(output.output): \(diagnostics.tool) writes tables, not signal files; write -o NAME.h5 or -o NAME/")
                }
                try runSignal(exporting, kind: kind, inputs: inputs, output: output, extraInputs: extraInputs)
                return
            }
            if output.report != nil && reporter == nil {
                throw TableOutputError.usage("--report: \(diagnostics.tool) draws no report")
            }
            let destination = try output.destination(tableNames: format.tableNames)
            let sources = InputFolder.expand(inputs, walkingFolders: format.readsFolders)
            let found = sources.map(\.path) == inputs ? [] : sources.map(\.path)
            let lock = try output.checkDestination(tableNames: format.tableNames, inputs: inputs, found: found)
            defer { lock.release() }
            var out = format.streamsTables
                ? try output.open(tableNames: format.tableNames, inputs: inputs, inBackground: true, lock: lock) : nil
            let folders = Dictionary(sources.map { ($0.path, $0.folder) }, uniquingKeysWith: { first, _ in first })
            let progress = ProgressBar(inputs: sources.map(\.path), quiet: output.quiet)
            var records = InputRecords(extraInputs)
            var parsed: [Format.Parsed] = []
            var tally = TableTally(order: format.tableNames)
            let failures = try forEachInput(sources.map(\.path), progress: progress) { path in
                var recorder = InputRecords([])
                let source = InputSource(path: path, folder: folders[path] ?? nil, reader: InputFile.reader(
                    for: path, progress: progress, recording: { recorder.add($0) }))
                let result = if let out {
                    try format.read(source) { table in
                        if output.report != nil { tally.add(table) }
                        try out.write(table)
                    }
                } else { try format.read(source) }
                parsed.append(result)
                records.add(contentsOf: recorder)
                if let line = format.summary(of: result) { diagnostics.note(line) }
            }
            // Nothing read because everything failed (the inputs read only to be set aside do not count): nothing is
            // written. (Nothing read because a folder was empty is the format's to judge: a protocol check reports the
            // files missing.)
            guard parsed.contains(where: { !format.isSetAside($0) }) || failures.isEmpty else {
                try finish(failures: failures)
                return
            }
            AllocatorTuning.releaseFreePages()
            let result = try format.tables(parsed)
            reportAnomalies(result)
            try sideOutput?.check(parsed)
            if out == nil { out = try output.open(tableNames: format.tableNames, inputs: inputs, lock: lock) }
            guard let out else { return }
            // Each batch is made as it is written and freed before the next is made; a single CSV table's output
            // leaves the other tables unmade where the format can (its writer would drop them).
            let wanted: (String) -> Bool = if case .csvFile(_, let table) = destination { { $0 == table } } else { { _ in true } }
            try result.batches.forEach(where: wanted) { table in
                if output.report != nil { tally.add(table) }
                try out.write(table)
            }
            for array in result.arrays { try out.writeArray(array) }
            let provenance = provenance(inputs: records.list, parametersJSON: Provenance.encodeParameters(format.options))
            try out.commit(provenance: provenance)
            try sideOutput?.write(parsed, provenance: provenance)
            if let path = output.report, let reporter {
                var written = tally.summaries
                if case .csvFile(_, let table) = destination { written = written.filter { $0.name == table } }
                var anomalies = AnomalySummary()
                try result.anomalies.forEach { anomalies.add($0) }
                let page = RunReport(provenance: provenance, output: output.output, tables: written,
                                     anomalies: anomalies,
                                     failures: failures.map { (input: $0.0, message: $0.1.message) },
                                     formatPage: reporter(parsed, result))
                try output.checkReport(path, destination: destination, inputs: inputs)
                try AtomicFile.write(ReportFile.seal(page.html(), tool: diagnostics.tool), to: path)
            }
            try finish(failures: failures)
        }
    }

    /// The stderr summary (conventions §3.2): per input with warnings or errors, one line of counts by code
    /// (with `--verbose`, a line per anomaly first); notes stay in the anomalies table. Then the run's notes.
    func reportAnomalies(_ output: FormatOutput) {
        var order: [String] = []
        var tallies: [String: AnomalyTally] = [:]
        // Cannot throw: the body does not.
        try? output.anomalies.forEach { anomaly in
            guard anomaly.severity != .info else { return }
            if tallies[anomaly.sourceFile] == nil {
                order.append(anomaly.sourceFile)
                tallies[anomaly.sourceFile] = AnomalyTally(keepingRows: diagnostics.verbose)
            }
            tallies[anomaly.sourceFile]?.add(anomaly)
        }
        for source in order { diagnostics.report(tallies[source] ?? AnomalyTally(keepingRows: false), for: source) }
        for line in output.notes { diagnostics.note(line) }
    }

    /// Calls `body` for each input. A data error on an input that looks like another tool's file says which tool
    /// reads it. Without `--keep-going` the first failure ends the run; with it, the rest go on and the failures
    /// are returned for ``finish(failures:)``. An output error, or any other error of writing midway (exit 74, e.g.
    /// a full scratch folder), always ends the run: it is no fault of the input at hand (with a background writer
    /// it may even come from an earlier input's rows).
    public func forEachInput(_ inputs: [String], progress: ProgressBar? = nil,
                             _ body: (String) throws -> Void) throws -> [(String, ReportableError)] {
        var failures: [(String, ReportableError)] = []
        for input in inputs {
            do {
                try body(input)
            } catch let error as TableOutputError {
                progress?.finish()
                throw error
            } catch let error as ReportableError where error.exitCode == .ioError {
                progress?.finish()
                throw error
            } catch let error as ReportableError {
                let error = WrongToolError.hinted(error, input: input, tool: diagnostics.tool)
                guard keepGoing else { progress?.finish(); throw error }
                diagnostics.error(error.message)
                failures.append((input, error))
            }
            progress?.finishFile()
        }
        progress?.finish()
        return failures
    }

    /// Lists the failed inputs and throws exit 65 if there were any (70 if any met an internal fault).
    public func finish(failures: [(String, ReportableError)]) throws {
        guard !failures.isEmpty else { return }
        diagnostics.error("failed inputs:")
        for (input, error) in failures {
            // Messages name their file first; the input is added only to one that does not.
            Diagnostics.writeLine("  " + (error.message.hasPrefix(input) ? error.message : "\(input): \(error.message)"))
        }
        throw ToolError.someInputsFailed(count: failures.count,
                                         internalFaults: failures.count { $0.1.exitCode == .software })
    }

    /// The provenance for this run (the command line is the process's own).
    public func provenance(inputs: [InputRecord], parametersJSON: String) -> Provenance {
        Provenance(tool: diagnostics.tool, version: ToolVersion.current,
                   commandLine: Provenance.commandLine(CommandLine.arguments), inputs: inputs,
                   parametersJSON: parametersJSON)
    }
}

/// Files a tool writes besides its tables (ilog-parse's Java companion files): checked before the tables are
/// committed, written after, with the run's provenance.
public protocol SideOutput<Parsed> {
    associatedtype Parsed
    func check(_ parsed: [Parsed]) throws
    func write(_ parsed: [Parsed], provenance: Provenance) throws
}

/// The provenance records of a run's input files, each path once, in the order first read.
struct InputRecords {
    private(set) var list: [InputRecord]

    init(_ records: [InputRecord]) { list = [] ; records.forEach { add($0) } }

    mutating func add(_ record: InputRecord) {
        if !list.contains(where: { $0.path == record.path }) { list.append(record) }
    }

    mutating func add(contentsOf other: InputRecords) { other.list.forEach { add($0) } }
}

/// Rows and columns of each table a run writes, counted as batches go out (for the report's list of tables).
struct TableTally {
    private var order: [String]
    private var rows: [String: Int] = [:]
    private var columns: [String: (names: [String], units: [String])] = [:]

    init(order: [String]) { self.order = order }

    mutating func add(_ table: Table) {
        if !order.contains(table.name) { order.append(table.name) }
        rows[table.name, default: 0] += table.rowCount
        if columns[table.name] == nil { columns[table.name] = (table.columnNames, table.columns.map(\.unit)) }
    }

    /// The tables in output order; a table the format names but never wrote a batch of is left out.
    var summaries: [TableSummary] {
        order.compactMap { name in
            guard let columns = columns[name] else { return nil }
            return TableSummary(name: name, rows: rows[name] ?? 0, columns: columns.names, units: columns.units)
        }
    }
}
