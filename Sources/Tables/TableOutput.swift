import Foundation

/// The output of one tool run: tables streamed into a temporary file or folder beside the destination, then
/// renamed into place by ``commit(provenance:)``. An output that is never committed leaves nothing behind, and
/// an earlier output at the destination survives a failed run (conventions §3).
public final class TableOutput {
    /// Where the result goes.
    public let destination: OutputDestination
    /// The table names the tool makes, in order (checked against `--table`).
    public let tableNames: [String]
    private var sink: TableSink?
    private let temporaryPath: String
    private var committed = false

    /// Prepares an output; `tableNames` lists every table the tool can make.
    ///
    /// With `inBackground`, batches are written on a thread of their own while the tool goes on (at most two
    /// waiting); a write error is then thrown by a later ``write(_:)`` or by ``commit(provenance:)``. Only for
    /// tools that make no HDF5 calls of their own meanwhile (HDF5 is not thread-safe).
    public init(destination: OutputDestination, tableNames: [String], compression: Int = 1,
                inBackground: Bool = false) throws(TableOutputError) {
        self.destination = destination
        self.tableNames = tableNames
        let target = URL(fileURLWithPath: destination.path)
        let folder = target.deletingLastPathComponent().path
        temporaryPath = folder + "/." + target.lastPathComponent + ".tmp-\(getpid())"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .cannotCreate(path: destination.path, reason: "folder \(folder) does not exist")
        }
        TableOutput.remove(temporaryPath)
        switch destination {
        case .hdf5:
            sink = try HDF5TableWriter(path: temporaryPath, compression: compression)
        case .csvFolder:
            do { try FileManager.default.createDirectory(atPath: temporaryPath, withIntermediateDirectories: false) }
            catch { throw .cannotCreate(path: destination.path, reason: error.localizedDescription) }
            let base = temporaryPath
            sink = CSVTableWriter(fileForTable: { base + "/" + $0 + ".csv" }, provenancePath: base + "/provenance.json")
        case .csvFile(let path, let table):
            guard let chosen = table ?? (tableNames.count == 1 ? tableNames[0] : nil) else {
                throw .tableNameNeeded(path: path, available: tableNames)
            }
            guard tableNames.contains(chosen) else { throw .unknownTable(chosen, available: tableNames) }
            let temporary = temporaryPath
            sink = CSVTableWriter(fileForTable: { $0 == chosen ? temporary : nil },
                                  provenancePath: temporaryPath + ".provenance.json")
        }
        if inBackground, let direct = sink { sink = BackgroundTableSink(direct) }
    }

    deinit {
        if !committed {
            (sink as? BackgroundTableSink)?.drain()
            sink = nil
            TableOutput.remove(temporaryPath)
            TableOutput.remove(temporaryPath + ".provenance.json")
        }
    }

    /// Adds rows to a table (the first batch creates it, with its columns even if it has no rows).
    public func write(_ batch: Table) throws(TableOutputError) {
        guard let sink else { return }
        try sink.append(batch)
    }

    /// Writes an N-dimensional array under `/arrays/` in HDF5; CSV outputs skip it.
    public func writeArray(_ array: ArrayDataset) throws(TableOutputError) {
        guard let sink else { return }
        try sink.writeArray(array)
    }

    /// Finishes the files with the provenance and moves them into place.
    public func commit(provenance: Provenance) throws(TableOutputError) {
        guard let sink else { return }
        try sink.finish(provenance: provenance)
        self.sink = nil
        let path = destination.path
        switch destination {
        case .hdf5:
            try TableOutput.replace(path, with: temporaryPath)
        case .csvFolder:
            // Swap folders: the old one is moved aside first, so a failed rename keeps it.
            let old = temporaryPath + ".old"
            TableOutput.remove(old)
            let exists = FileManager.default.fileExists(atPath: path)
            if exists, rename(path, old) != 0 {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            if rename(temporaryPath, path) != 0 {
                let reason = String(cString: strerror(errno))
                if exists { _ = rename(old, path) }
                throw .cannotCreate(path: path, reason: reason)
            }
            TableOutput.remove(old)
        case .csvFile:
            try TableOutput.replace(path + ".provenance.json", with: temporaryPath + ".provenance.json")
            try TableOutput.replace(path, with: temporaryPath)
        }
        committed = true
    }

    private static func replace(_ path: String, with temporary: String) throws(TableOutputError) {
        if rename(temporary, path) != 0 {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private static func remove(_ path: String) {
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
    }
}
