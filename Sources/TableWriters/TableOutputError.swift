/// Why an output could not be written.
public enum TableOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The destination (or its temporary file) could not be created: sysexits 73.
    case cannotCreate(path: String, reason: String)
    /// Writing failed midway: sysexits 74.
    case io(path: String, reason: String)
    /// `-o`, `--format` and `--table` do not make one clear destination: sysexits 64.
    case usage(String)
    /// A single `.csv` was asked for but the tool makes several tables and none was chosen: sysexits 64.
    case tableNameNeeded(path: String, available: [String])
    /// `--table` names a table the tool does not make: sysexits 64.
    case unknownTable(String, available: [String])
    /// The output would overwrite one of the inputs: sysexits 73.
    case outputIsInput(String)
    /// The destination holds a file that is not an earlier output of a BrainBatch tool, which a run never
    /// removes or overwrites: sysexits 73.
    case foreignFile(path: String, reason: String)
    /// The destination folder holds an input of the run: sysexits 73.
    case holdsInput(folder: String, input: String)
    /// Another run is writing the same output (it holds the output's lock): sysexits 73.
    case busy(path: String, pid: Int32?)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "\(path): cannot create output: \(reason)"
        case .io(let path, let reason): "\(path): write failed: \(reason)"
        case .usage(let text): text
        case .tableNameNeeded(let path, let available):
            "\(path): a single .csv holds one table; choose it with --table (\(available.joined(separator: ", ")))"
        case .unknownTable(let name, let available):
            "--table \(name): no such table (\(available.joined(separator: ", ")))"
        case .outputIsInput(let path): "\(path): refusing to write over an input file"
        case .foreignFile(let path, let reason):
            "\(path): \(reason); a BrainBatch tool never removes or overwrites a file it did not write (choose another -o, or move the file away)"
        case .holdsInput(let folder, let input):
            "\(folder): the output folder holds the input \(input); choose an output folder apart from the inputs"
        case .busy(let path, let pid):
            "\(path): another run\(pid.map { " (pid \($0))" } ?? "") is writing this output; wait until it ends, or choose another -o"
        }
    }
}
