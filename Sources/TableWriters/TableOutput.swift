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
/// never committed leaves nothing behind (its temporaries are removed when it is dropped, and by the signal handler
/// on SIGINT, SIGTERM and SIGHUP), and an earlier output survives a failed run. The output is locked while it is
/// written (``OutputLock``: a second run writing it is refused), and taking the lock removes what killed runs left.
/// The commit has no moment without an output (``OutputCommit``): one rename for HDF5, an exchange for a folder
/// (files replaced one by one, provenance last, where the file system cannot exchange), the provenance last for a
/// single CSV. Errors name the `-o` path, never the hidden temporary.
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
    private let files: OutputCommit.Files
    private var temporaryPath: String { files.temporary }
    private var committed = false
    /// Set once the lock is held: the temporaries are then this output's (an output refused earlier must not
    /// remove those of another output of this process with the same name).
    private var ownsTemporaries = false
    private var lock: OutputLock?
    private var cleanups: [FileSystem.SignalCleanup] = []
    /// Whether a folder replaces an earlier one by exchange; off, the commit takes the way of file systems that
    /// cannot exchange (for tests).
    var exchangesFolders = true

    /// Prepares an output; `tableNames` lists every table the tool can make. Throws when the destination's folder
    /// is missing, another run is writing the destination, or it holds something a BrainBatch tool did not write.
    ///
    /// `lock` is the destination's lock when the caller took it already (``OutputLock/acquire(for:)``); otherwise
    /// it is taken here and held until the output is committed or dropped.
    ///
    /// With `inBackground`, batches are written on a thread of their own while the tool goes on (at most two
    /// waiting); a write error is then thrown by a later ``write(_:)`` or by ``commit(provenance:)``. Only for
    /// tools that make no HDF5 calls of their own meanwhile (HDF5 is not thread-safe).
    public init(destination: OutputDestination, tableNames: [String], compression: Int = 1,
                inBackground: Bool = false, lock: OutputLock? = nil) throws(TableOutputError) {
        self.destination = destination
        self.tableNames = tableNames
        files = OutputCommit.Files(destination)
        let parent = FilePath(destination.trimmedPath).removingLastComponent()
        let folder = parent.isEmpty ? "." : parent.string
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .cannotCreate(path: destination.path, reason: "folder \(folder) does not exist")
        }
        if let lock { self.lock = lock } else { self.lock = try OutputLock.acquire(for: destination) }
        try PreviousOutput.checkReplaceable(destination)
        ownsTemporaries = true
        removeTemporaries()
        let temporaryPath = files.temporary
        switch destination {
        case .hdf5:
            cleanups = [FileSystem.removeOnSignal(FilePath(temporaryPath))]
            sink = try named { () throws(TableOutputError) in try HDF5TableWriter(path: temporaryPath, compression: compression) }
        case .csvFolder:
            cleanups = [FileSystem.removeOnSignal(FilePath(temporaryPath), isFolder: true)]
            guard mkdir(temporaryPath, 0o777) == 0 else {
                throw .cannotCreate(path: destination.path, reason: FileSystem.message(FileSystem.lastError))
            }
            let base = temporaryPath
            sink = CSVTableWriter(layout: .init(
                table: { (base + "/" + $0 + ".csv", $0 + ".csv") },
                codebook: (base + "/datapackage.json", "datapackage.json"), codebookIsPackage: true,
                provenancePath: base + "/" + PreviousOutput.folderProvenance))
        case .csvFile(let path, let chosen):
            let temporary = CSVSidecars(table: temporaryPath)
            let final = CSVSidecars(table: path)
            cleanups = [temporaryPath, temporary.schema, temporary.provenance, files.aside].map {
                FileSystem.removeOnSignal(FilePath($0))
            }
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
        if ownsTemporaries && !committed {
            (sink as? BackgroundTableSink)?.drain()
            sink = nil
            removeTemporaries()
        }
        cleanups.forEach { $0.end() }
    }

    /// Adds rows to a table (the first batch creates it, with its columns even if it has no rows).
    public func write(_ batch: Table) throws(TableOutputError) {
        guard let sink else { return }
        try named { () throws(TableOutputError) in try sink.append(batch) }
    }

    /// Writes an N-dimensional array under `/arrays/` in HDF5; CSV outputs skip it.
    public func writeArray(_ array: ArrayDataset) throws(TableOutputError) {
        guard let sink else { return }
        try named { () throws(TableOutputError) in try sink.writeArray(array) }
    }

    /// Finishes the files with the provenance and moves them into place (SIGINT, SIGTERM and SIGHUP wait until
    /// they are), then releases the lock.
    public func commit(provenance: Provenance) throws(TableOutputError) {
        guard let sink else { return }
        try named { () throws(TableOutputError) in try sink.finish(provenance: provenance) }
        self.sink = nil
        // Whatever appeared at the destination while the tables were written is checked again.
        try PreviousOutput.checkReplaceable(destination)
        let path = destination.trimmedPath
        try FileSystem.deferringSignals { () throws(TableOutputError) in
            switch destination {
            case .hdf5:
                try rename(temporaryPath, to: path)
            case .csvFolder:
                try replaceFolder(path)
            case .csvFile:
                try replaceFiles()
            }
            committed = true
            cleanups.forEach { $0.end() }
            cleanups = []
        }
        lock = nil
    }

    /// Puts the finished temporary folder at `path`. An earlier output there is swapped out in one step, then
    /// the files its provenance lists are removed, and its folder if that leaves it empty. Where the file system
    /// cannot swap folders, the files are replaced one by one, the provenance last (``OutputCommit``).
    private func replaceFolder(_ path: String) throws(TableOutputError) {
        guard PreviousOutput.kind(of: path) != nil else {
            try rename(temporaryPath, to: path)
            return
        }
        let old = PreviousOutput.recordedFiles(inFolder: path) + [PreviousOutput.folderProvenance]
        if exchangesFolders {
            if bb_rename_exchange(temporaryPath, path) == 0 {
                for file in old { unlink(temporaryPath + "/" + file) }
                // A file that reached the old folder after the last check is not ours to remove: the folder is
                // kept under a name that is no temporary's (the next run's sweep would remove a temporary).
                if rmdir(temporaryPath) != 0 && PreviousOutput.kind(of: temporaryPath) == .folder {
                    _ = try? FileSystem.rename(FilePath(temporaryPath), to: FilePath("\(path).unlisted-\(getpid())"))
                }
                return
            }
            let failure = FileSystem.lastError
            guard failure == .invalidArgument || failure == .noFunction || failure == .notSupported else {
                throw .cannotCreate(path: destination.path, reason: FileSystem.message(failure))
            }
        }
        try replaceFiles()
    }

    /// Replaces a CSV output's files one by one, the provenance last. A commit that fails once the old
    /// provenance is aside keeps its temporaries, for the next run to finish it.
    private func replaceFiles() throws(TableOutputError) {
        do { try OutputCommit.replaceFiles(files) } catch {
            if PreviousOutput.kind(of: files.aside) != nil { committed = true }
            throw error
        }
    }

    private func rename(_ temporary: String, to path: String) throws(TableOutputError) {
        do { try FileSystem.rename(FilePath(temporary), to: FilePath(path)) } catch {
            throw .cannotCreate(path: destination.path, reason: error.reason)
        }
    }

    /// Runs `body`, turning the hidden temporary's name in an error into the output's: errors name the `-o` path
    /// (for a file of a CSV folder, `out/<table>.csv`).
    private func named<T>(_ body: () throws(TableOutputError) -> T) throws(TableOutputError) -> T {
        do { return try body() } catch {
            let temporary = files.temporary, final = destination.trimmedPath
            let rename = { (text: String) in text.replacingOccurrences(of: temporary, with: final) }
            switch error {
            case .cannotCreate(_, let reason): throw .cannotCreate(path: destination.path, reason: rename(reason))
            case .io(let path, let reason): throw .io(path: rename(path), reason: rename(reason))
            default: throw error
            }
        }
    }

    /// Removes this process's temporary files or folder, if any.
    private func removeTemporaries() {
        switch destination {
        case .csvFolder:
            if PreviousOutput.kind(of: temporaryPath) == .folder { FileSystem.removeTree(FilePath(temporaryPath)) }
        case .hdf5:
            unlink(temporaryPath)
        case .csvFile:
            let temporary = CSVSidecars(table: temporaryPath)
            for file in [temporaryPath, temporary.schema, temporary.provenance] { unlink(file) }
        }
    }
}
