import CRename
import FileSystem
import Foundation
import SystemPackage
import Tables

/// The output of one tool run: tables streamed into a temporary file or folder beside the destination, then moved
/// into place by ``commit(provenance:)`` (conventions §2 and §3).
///
/// Nothing is lost: an existing destination is replaced only when it is an earlier BrainBatch output
/// (``PreviousOutput``), checked when the output is opened and again just before it is replaced; an output that is
/// never committed leaves nothing behind, and an earlier output survives a failed run. A folder is replaced in one
/// step (`renameat2` with `RENAME_EXCHANGE`), and only the files the old folder's provenance lists are then removed.
///
/// The `TableWriters` module is the output side of BrainBatch, used by `ToolSupport` and the tool executables and
/// by no format library: this class, the destination rules (``OutputDestination``), recognising earlier outputs
/// (``PreviousOutput``), the CSV and HDF5 writers with the provenance they write (its SHA-256s by ``InputHasher``),
/// and whole small files written atomically (``AtomicFile``). It alone links libhdf5 for writing, swift-crypto and
/// `CRename`; its temporary siblings, renames, atomic writes and CSV files go through `FileSystem`.
public final class TableOutput {
    /// Where the result goes.
    public let destination: OutputDestination
    /// The table names the tool makes, in order.
    public let tableNames: [String]
    private var sink: TableSink?
    private let temporaryPath: String
    private var committed = false

    /// Prepares an output; `tableNames` lists every table the tool can make. Throws when the destination's folder
    /// is missing or the destination holds something a BrainBatch tool did not write.
    ///
    /// With `inBackground`, batches are written on a thread of their own while the tool goes on (at most two
    /// waiting); a write error is then thrown by a later ``write(_:)`` or by ``commit(provenance:)``. Only for
    /// tools that make no HDF5 calls of their own meanwhile (HDF5 is not thread-safe).
    public init(destination: OutputDestination, tableNames: [String], compression: Int = 1,
                inBackground: Bool = false) throws(TableOutputError) {
        self.destination = destination
        self.tableNames = tableNames
        // The temporary sibling: `.<name>.tmp-<pid>` in the destination's folder.
        let target = FilePath(destination.trimmedPath)
        let parent = target.removingLastComponent()
        temporaryPath = FileSystem.temporarySibling(of: target).string
        let folder = parent.isEmpty ? "." : parent.string
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .cannotCreate(path: destination.path, reason: "folder \(folder) does not exist")
        }
        try PreviousOutput.checkReplaceable(destination)
        removeTemporaries()
        switch destination {
        case .hdf5:
            sink = try HDF5TableWriter(path: temporaryPath, compression: compression)
        case .csvFolder:
            do { try FileManager.default.createDirectory(atPath: temporaryPath, withIntermediateDirectories: false) }
            catch { throw .cannotCreate(path: destination.path, reason: error.localizedDescription) }
            let base = temporaryPath
            sink = CSVTableWriter(layout: .init(
                table: { (base + "/" + $0 + ".csv", $0 + ".csv") },
                codebook: (base + "/datapackage.json", "datapackage.json"), codebookIsPackage: true,
                provenancePath: base + "/" + PreviousOutput.folderProvenance))
        case .csvFile(let path, let chosen):
            let temporary = CSVSidecars(table: temporaryPath)
            let final = CSVSidecars(table: path)
            let name = FilePath(path).lastComponent?.string ?? path
            let table = temporaryPath
            sink = CSVTableWriter(layout: .init(
                table: { $0 == chosen ? (table, name) : nil },
                codebook: (temporary.schema, FilePath(final.schema).lastComponent?.string ?? final.schema),
                codebookIsPackage: false,
                provenancePath: temporary.provenance))
        }
        if inBackground, let direct = sink { sink = BackgroundTableSink(direct) }
    }

    deinit {
        if !committed {
            (sink as? BackgroundTableSink)?.drain()
            sink = nil
            removeTemporaries()
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
        // Whatever appeared at the destination while the tables were written is checked again.
        try PreviousOutput.checkReplaceable(destination)
        let path = destination.trimmedPath
        switch destination {
        case .hdf5:
            try TableOutput.rename(temporaryPath, to: path)
        case .csvFolder:
            try replaceFolder(path)
        case .csvFile:
            let temporary = CSVSidecars(table: temporaryPath), final = CSVSidecars(table: path)
            try TableOutput.rename(temporary.schema, to: final.schema)
            try TableOutput.rename(temporaryPath, to: path)
            // The provenance last: it vouches for the files before it.
            try TableOutput.rename(temporary.provenance, to: final.provenance)
        }
        committed = true
    }

    /// Puts the finished temporary folder at `path`. An earlier output there is swapped out in one step, then
    /// the files its provenance lists are removed, and its folder if that leaves it empty.
    private func replaceFolder(_ path: String) throws(TableOutputError) {
        guard PreviousOutput.kind(of: path) != nil else {
            try TableOutput.rename(temporaryPath, to: path)
            return
        }
        let old = PreviousOutput.recordedFiles(inFolder: path) + [PreviousOutput.folderProvenance]
        let aside: String
        if bb_rename_exchange(temporaryPath, path) == 0 {
            aside = temporaryPath
        } else {
            let failure = FileSystem.lastError
            guard failure == .invalidArgument || failure == .noFunction || failure == .notSupported else {
                throw .cannotCreate(path: path, reason: FileSystem.message(failure))
            }
            // A file system without the exchange: two renames, the old folder first moved aside.
            aside = temporaryPath + ".old"
            try TableOutput.rename(path, to: aside)
            do { try TableOutput.rename(temporaryPath, to: path) } catch {
                try? FileSystem.rename(FilePath(aside), to: FilePath(path))
                throw error
            }
        }
        for file in old { unlink(aside + "/" + file) }
        rmdir(aside)
    }

    private static func rename(_ temporary: String, to path: String) throws(TableOutputError) {
        do { try FileSystem.rename(FilePath(temporary), to: FilePath(path)) } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
    }

    /// Removes this process's temporary files or folder, if any.
    private func removeTemporaries() {
        switch destination {
        case .csvFolder:
            if PreviousOutput.kind(of: temporaryPath) == .folder {
                try? FileManager.default.removeItem(atPath: temporaryPath)
            }
        case .hdf5:
            unlink(temporaryPath)
        case .csvFile:
            let temporary = CSVSidecars(table: temporaryPath)
            for file in [temporaryPath, temporary.schema, temporary.provenance] { unlink(file) }
        }
    }
}
