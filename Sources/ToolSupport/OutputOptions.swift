import ArgumentParser
import Foundation
import SignalFiles
import SystemPackage
import Tables
import TableWriters

extension OutputDestination.Format: ExpressibleByArgument {}

/// The output options every table-writing tool shares (conventions §2 and §4).
public struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Output: a .h5/.hdf5/.hdf file, a .csv file (one table, with --table), or a folder of CSV files (a path ending in /, or a name without an extension); for tools reading EEG also a signal file of one input: .bdf, .edf or .vhdr (BrainVision). An existing output is replaced only if a BrainBatch tool wrote it.", valueName: "path"))
    public var output: String

    @Option(help: "Output format, which must agree with -o: hdf5 or csv.")
    public var format: OutputDestination.Format?

    @Option(help: "With a single .csv output, the table to write.")
    public var table: String?

    @Option(help: "Deflate level 0-9 for numeric HDF5 columns (0: uncompressed).")
    public var compression: Int = 1

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    public var quiet = false

    @Flag(name: .shortAndLong, help: "Print each anomaly on stderr (at most 20 per code), not only one summary line per input.")
    public var verbose = false

    @Flag(help: "With several inputs, go on after a failing one; failures are listed at the end (exit 65).")
    public var keepGoing = false

    @Option(help: ArgumentHelp(
        "Also write a self-contained HTML report of the run (plots of each input, anomalies, tables written) to this .html file. An existing file is replaced only if a BrainBatch tool wrote it.",
        valueName: "path.html"))
    public var report: String?

    public init() {}

    /// Whether `-o` names a signal file (`.bdf`, `.edf`, `.vhdr`): one input's signal instead of tables.
    public var writesSignalFile: Bool { SignalFileKind(path: output) != nil }

    public func validate() throws {
        guard (0...9).contains(compression) else {
            throw ValidationError("--compression must be 0 to 9, got \(compression)")
        }
        if let report {
            let ext = FilePath(report).extension?.lowercased()
            guard !report.hasSuffix("/"), let ext, ReportFile.extensions.contains(ext) else {
                throw ValidationError("--report \(report): expected an .html file, e.g. --report run.html")
            }
        }
    }

    /// The destination chosen by `-o`, `--format` and `--table` for a tool that makes `tableNames`.
    public func destination(tableNames: [String]) throws(TableOutputError) -> OutputDestination {
        try OutputDestination.resolve(path: output, format: format, table: table, tableNames: tableNames)
    }

    /// Checks, before any input is read, that the output can be written, and takes its lock: a clear destination
    /// (exit 64), no input given twice (64), a destination that is no input and holds none (73), an existing folder
    /// to write into, no other run writing the same output (73), and nothing there a BrainBatch tool did not write
    /// (73). Taking the lock removes what killed runs left there (``OutputLock``). Hold the lock until the run ends.
    /// `found` are the files found in folders given as inputs, checked against the destination like the inputs.
    @discardableResult
    public func checkDestination(tableNames: [String], inputs: [String],
                                 found: [String] = []) throws(TableOutputError) -> OutputLock {
        let destination = try destination(tableNames: tableNames)
        try InputList.checkDistinct(inputs)
        try PreviousOutput.checkApart(destination, from: inputs + found)
        // FilePath, not NSString's path functions: those trap on a one-letter name (`-o a/`).
        let parent = FilePath(destination.trimmedPath).removingLastComponent().string
        if !InputFolder.isFolder(parent.isEmpty ? "." : parent) {
            throw .cannotCreate(path: destination.path, reason: "folder \(parent) does not exist")
        }
        let lock = try OutputLock.acquire(for: destination)
        try PreviousOutput.checkReplaceable(destination)
        if let report { try checkReport(report, destination: destination, inputs: inputs + found) }
        return lock
    }

    /// Checks that the report can be written (before any input is read, and again just before writing it): apart
    /// from the inputs and the table output (73, 64), into an existing folder (73), and not over a file no
    /// BrainBatch tool wrote (73).
    public func checkReport(_ report: String, destination: OutputDestination,
                            inputs: [String]) throws(TableOutputError) {
        try PreviousOutput.checkReportApart(report, destination: destination, inputs: inputs)
        let parent = FilePath(report).removingLastComponent().string
        if !InputFolder.isFolder(parent.isEmpty ? "." : parent) {
            throw .cannotCreate(path: report, reason: "folder \(parent) does not exist")
        }
        try PreviousOutput.checkReplaceable(report: report)
    }

    /// Opens the output for the tool's tables: refuses an unclear destination (exit 64), an input given twice
    /// (64), a destination that is an input or a folder that holds one (73), another run writing it (73), and one
    /// that holds files no BrainBatch tool wrote (73); `inBackground` and `lock` as in
    /// ``TableOutput/init(destination:tableNames:compression:inBackground:lock:)``.
    public func open(tableNames: [String], inputs: [String], inBackground: Bool = false,
                     lock: OutputLock? = nil) throws(TableOutputError) -> TableOutput {
        let destination = try destination(tableNames: tableNames)
        try InputList.checkDistinct(inputs)
        try PreviousOutput.checkApart(destination, from: inputs)
        return try TableOutput(destination: destination, tableNames: tableNames, compression: compression,
                               inBackground: inBackground, lock: lock)
    }
}
