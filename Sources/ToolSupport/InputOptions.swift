import ArgumentParser

/// The input options of the tools that read line-based text files (`ilog-parse`, `rt-stats`, `nt-analyze`):
/// the input files and `--skip-bad-lines` (conventions §3.2).
public struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The input files (the tool's description says which).", valueName: "input"))
    public var inputs: [String] = []

    @Flag(help: "Turn unreadable lines into anomalies rows (severity error) and go on.")
    public var skipBadLines = false

    public init() {}

    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one input file") }
    }
}
