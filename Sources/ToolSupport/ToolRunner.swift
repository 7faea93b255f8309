import ArgumentParser
import Foundation
import Tables

/// Runs a tool's work: reports errors in one line with the sysexits code, processes several inputs with or
/// without `--keep-going`, and builds the provenance.
public struct ToolRunner {
    public let diagnostics: Diagnostics
    public let keepGoing: Bool

    public init(tool: String, quiet: Bool, verbose: Bool = false, keepGoing: Bool = false) {
        diagnostics = Diagnostics(tool: tool, quiet: quiet, verbose: verbose)
        self.keepGoing = keepGoing
    }

    /// Runs `body`; a ``ToolReportable`` error is printed as one line and turned into its exit code. The C
    /// allocator is first set to reuse freed batches (``AllocatorTuning/reuseFreedMemory()``).
    public func run(_ body: () throws -> Void) throws {
        AllocatorTuning.reuseFreedMemory()
        do {
            try body()
        } catch let error as ToolReportable {
            diagnostics.error(error.message)
            throw ExitCode(error.exitCode.rawValue)
        }
    }

    /// Calls `body` for each input. A data error on an input that looks like another tool's file says which tool
    /// reads it. Without `--keep-going` the first failure ends the run; with it, the rest go on, failures are listed at the end, and the caller should still write what succeeded, then call
    /// ``finish(failures:)``. An output error always ends the run: it is no fault of the input at hand (with
    /// a background writer it may even come from an earlier input's rows).
    public func forEachInput(_ inputs: [String], progress: ProgressBar? = nil,
                             _ body: (String) throws -> Void) throws -> [(String, ToolReportable)] {
        var failures: [(String, ToolReportable)] = []
        for input in inputs {
            do {
                try body(input)
            } catch let error as TableOutputError {
                progress?.finish()
                throw error
            } catch let error as ToolReportable {
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

    /// Lists the failed inputs and throws exit 65 if there were any.
    public func finish(failures: [(String, ToolReportable)]) throws {
        guard !failures.isEmpty else { return }
        diagnostics.error("failed inputs:")
        for (input, error) in failures { Diagnostics.writeLine("  \(input): \(error.message)") }
        throw ToolError.someInputsFailed(count: failures.count)
    }

    /// The provenance for this run (the command line is the process's own).
    public func provenance(inputs: [InputRecord], parametersJSON: String) -> Provenance {
        Provenance(tool: diagnostics.tool, version: ToolVersion.current,
                   commandLine: Provenance.commandLine(CommandLine.arguments), inputs: inputs,
                   parametersJSON: parametersJSON)
    }
}
