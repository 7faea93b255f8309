import Foundation
import SystemPackage

/// Where and how a tool writes its tables (conventions §2), chosen from `-o` without guessing.
public enum OutputDestination: Sendable, Equatable {
    /// One HDF5 file, a group per table.
    case hdf5(path: String)
    /// A folder of `<table>.csv` files plus `datapackage.json` and `provenance.json`.
    case csvFolder(path: String)
    /// One table as a single CSV file, with `<file>.schema.json` and `<file>.provenance.json` beside it.
    case csvFile(path: String, table: String)

    /// The output file format a user can ask for with `--format` (it must agree with `-o`).
    public enum Format: String, Sendable, CaseIterable {
        case hdf5, csv
    }

    /// The extensions of an HDF5 output.
    public static let hdf5Extensions: Set<String> = ["h5", "hdf5", "hdf"]

    /// Chooses the destination from `-o`, `--format` and `--table`:
    /// - `.h5`, `.hdf5`, `.hdf`: HDF5 (`--format csv` or `--table` with it is a usage error);
    /// - `.csv`: one table, `--table NAME` or the tool's only table;
    /// - a path ending in `/`, an existing folder, or a name without an extension: a folder of CSV files;
    /// - anything else (an unknown extension, an existing file that is not one of these): a usage error that
    ///   says what to write instead.
    public static func resolve(path: String, format: Format?, table: String?,
                               tableNames: [String]) throws(TableOutputError) -> OutputDestination {
        guard !path.isEmpty else { throw .usage("-o: give an output path") }
        let ext = FilePath(path).extension?.lowercased()
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let folderSyntax = path.hasSuffix("/") || (exists && isFolder.boolValue)
        if !folderSyntax, let ext, hdf5Extensions.contains(ext) {
            if format == .csv {
                throw .usage("-o \(path) is an HDF5 file but --format csv was given; write -o \(stem(path)).csv --table NAME or -o \(stem(path))/ for CSV")
            }
            if let table {
                throw .usage("--table \(table) chooses the table of a single .csv; an HDF5 output holds every table (write -o \(stem(path)).csv --table \(table) for one table)")
            }
            return .hdf5(path: path)
        }
        if !folderSyntax, ext == "csv" {
            if format == .hdf5 {
                throw .usage("-o \(path) is a CSV file but --format hdf5 was given; write -o \(stem(path)).h5 for HDF5")
            }
            guard let chosen = table ?? (tableNames.count == 1 ? tableNames[0] : nil) else {
                throw .tableNameNeeded(path: path, available: tableNames)
            }
            guard tableNames.contains(chosen) else { throw .unknownTable(chosen, available: tableNames) }
            return .csvFile(path: path, table: chosen)
        }
        if folderSyntax || (ext == nil && !exists) {
            if format == .hdf5 {
                throw .usage("-o \(path) is a folder (CSV files) but --format hdf5 was given; write -o \(stem(path)).h5 for HDF5")
            }
            if let table {
                throw .usage("--table \(table) chooses the table of a single .csv; a folder output holds every table (write -o NAME.csv --table \(table) for one table)")
            }
            return .csvFolder(path: path)
        }
        let what = exists ? "is an existing file that is not an HDF5 or CSV output" : "has an unknown extension"
        throw .usage("-o \(path) \(what); write -o NAME.h5 (HDF5), -o NAME/ (a folder of CSV files) or -o NAME.csv --table TABLE (one table)")
    }

    /// The path without its extension, for suggestions.
    private static func stem(_ path: String) -> String {
        var file = FilePath(path)
        file.extension = nil
        return file.string
    }

    /// The path given.
    public var path: String {
        switch self {
        case .hdf5(let path), .csvFolder(let path), .csvFile(let path, _): path
        }
    }

    /// The path without a trailing `/` (the name the temporary sibling is made from).
    public var trimmedPath: String {
        var path = self.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
