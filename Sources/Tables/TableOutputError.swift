/// Why an output could not be written.
public enum TableOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The destination (or its temporary file) could not be created: sysexits 73.
    case cannotCreate(path: String, reason: String)
    /// Writing failed midway: sysexits 74.
    case io(path: String, reason: String)
    /// A single `.csv` was asked for but the tool makes several tables and none was chosen: sysexits 64.
    case tableNameNeeded(path: String, available: [String])
    /// `--table` names a table the tool does not make: sysexits 64.
    case unknownTable(String, available: [String])
    /// The output would overwrite one of the inputs: sysexits 64.
    case outputIsInput(String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "\(path): cannot create output: \(reason)"
        case .io(let path, let reason): "\(path): write failed: \(reason)"
        case .tableNameNeeded(let path, let available):
            "\(path): a single .csv holds one table; choose it with --table (\(available.joined(separator: ", ")))"
        case .unknownTable(let name, let available):
            "--table \(name): no such table (\(available.joined(separator: ", ")))"
        case .outputIsInput(let path): "\(path): refusing to write over an input file"
        }
    }
}
