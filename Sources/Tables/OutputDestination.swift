/// Where and how a tool writes its tables (conventions §2).
public enum OutputDestination: Sendable, Equatable {
    /// One HDF5 file, a group per table.
    case hdf5(path: String)
    /// A folder of `<table>.csv` files plus `provenance.json`.
    case csvFolder(path: String)
    /// One table as a single CSV file, with a `<name>.provenance.json` sidecar.
    case csvFile(path: String, table: String?)

    /// The output file format a user can ask for with `--format`.
    public enum Format: String, Sendable, CaseIterable {
        case hdf5, csv
    }

    /// Chooses the destination from `-o`, `--format` and `--table`: `--format` wins, else the extension
    /// (`.h5`/`.hdf5` → HDF5, `.csv` → one table, anything else → a CSV folder).
    public init(path: String, format: Format?, table: String?) {
        let lower = path.lowercased()
        switch format {
        case .hdf5?: self = .hdf5(path: path)
        case .csv?: self = lower.hasSuffix(".csv") ? .csvFile(path: path, table: table) : .csvFolder(path: path)
        case nil:
            if lower.hasSuffix(".h5") || lower.hasSuffix(".hdf5") { self = .hdf5(path: path) }
            else if lower.hasSuffix(".csv") { self = .csvFile(path: path, table: table) }
            else { self = .csvFolder(path: path) }
        }
    }

    /// The path given.
    public var path: String {
        switch self {
        case .hdf5(let path), .csvFolder(let path), .csvFile(let path, _): path
        }
    }
}
