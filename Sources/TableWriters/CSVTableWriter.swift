import FileSystem
import Foundation
import Hashing
import SystemPackage
import Tables

/// Writes tables as CSV: UTF-8, LF, RFC 4180 quoting, `NA` for missing values, `TRUE`/`FALSE` (conventions §2),
/// with a Frictionless codebook and the provenance beside them. The provenance lists every file written with its
/// SHA-256, so that a later run can tell them from files it did not write (``PreviousOutput``).
final class CSVTableWriter: TableSink {
    /// Where the files of a CSV output go while it is written, and the names its provenance records.
    struct Layout {
        /// Where a table is written and its recorded name; `nil` for tables that are not written (a single
        /// `.csv` holds one table).
        let table: (String) -> (path: String, name: String)?
        /// Where the codebook goes and its recorded name.
        let codebook: (path: String, name: String)
        /// A Data Package over every table (a folder), or the Table Schema of the only table (a single file).
        let codebookIsPackage: Bool
        /// Where the provenance goes.
        let provenancePath: String
    }

    private let layout: Layout
    private var open: [String: BufferedFile] = [:]
    private var order: [(table: String, name: String, fields: [FrictionlessSchema.Field])] = []

    init(layout: Layout) {
        self.layout = layout
    }

    func append(_ batch: Table) throws(TableOutputError) {
        guard let target = layout.table(batch.name) else { return }
        let file: BufferedFile
        if let existing = open[batch.name] {
            file = existing
        } else {
            file = try BufferedFile(path: target.path)
            open[batch.name] = file
            order.append((batch.name, target.name, batch.columns.map(FrictionlessSchema.Field.init)))
            try file.write(CSVRows.header(batch.columns.map(\.name)))
        }
        try CSVRows.write(batch) { (lines) throws(TableOutputError) in try file.write(lines) }
    }

    func finish(provenance: Provenance) throws(TableOutputError) {
        var outputs: [OutputFileRecord] = []
        for entry in order {
            guard let file = open[entry.table] else { continue }
            outputs.append(OutputFileRecord(file: entry.name, sha256: try file.close()))
        }
        open.removeAll()
        let codebook: JSON = layout.codebookIsPackage
            ? FrictionlessSchema.dataPackage(name: provenance.tool + "-output",
                                             tables: order.map { ($0.table, $0.name, $0.fields) })
            : FrictionlessSchema.tableSchema(order.first?.fields ?? [])
        let schemaFile = try BufferedFile(path: layout.codebook.path)
        try schemaFile.write(FrictionlessSchema.json(codebook))
        outputs.append(OutputFileRecord(file: layout.codebook.name, sha256: try schemaFile.close()))
        var record = provenance
        record.outputs = outputs
        let sidecar = try BufferedFile(path: layout.provenancePath)
        try sidecar.write(String(decoding: record.jsonDocument(), as: UTF8.self))
        _ = try sidecar.close()
    }

}

/// A file opened for writing, whose content is hashed (SHA-256) and written on a thread of its own
/// (``Hashing/BackgroundSHA256``: the hash of a large table's CSV is otherwise a twentieth of its writing), while
/// the caller makes the next bytes.
final class BufferedFile {
    let path: String
    private let file: FileDescriptor
    private var isOpen = true
    /// Two buffers of a flush's size: a CSV folder has up to eight tables open at once, and with three buffers each
    /// the hashers took 27 MB of `bt-decode`'s peak for a faulty 10-hour capture (above 64 MiB); with two, the
    /// 100 MB text tools write their CSV folders as fast (buffers of 256 KiB took 20 % longer).
    private let hasher = BackgroundSHA256(bufferSize: CSVRows.flushBytes + (1 << 16), bufferCount: 2)

    init(path: String) throws(TableOutputError) {
        self.path = path
        do { file = try FileSystem.create(FilePath(path)) } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
    }

    /// A file dropped unfinished (a failed run) is closed; its temporary output is removed by ``TableOutput``.
    deinit {
        guard isOpen else { return }
        hasher.waitForQueuedWork()
        try? file.close()
    }

    func write(_ text: String) throws(TableOutputError) {
        try write(Array(text.utf8))
    }

    /// Writes `bytes` a hasher's buffer at a time, each hashed and written in the background. An error of an
    /// earlier write is thrown here or by ``close()``.
    func write(_ bytes: [UInt8]) throws(TableOutputError) {
        let (file, filePath) = (file, FilePath(path))
        do {
            try bytes.withUnsafeBytes { all in
                var offset = 0
                while offset < all.count {
                    offset += try hasher.fill({ buffer in
                        let count = min(buffer.count, all.count - offset)
                        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
                        return count
                    }, thenInBackground: { chunk in try FileSystem.write(chunk, to: file, path: filePath) })
                }
            }
        } catch let error as FileSystemError {
            throw .io(path: path, reason: error.reason)
        } catch {
            throw .io(path: path, reason: "\(error)")
        }
    }

    /// Closes the file and returns the SHA-256 of everything written, lowercase hex.
    func close() throws(TableOutputError) -> String {
        isOpen = false
        do {
            try hasher.finishBackgroundWork()
        } catch let error as FileSystemError {
            try? file.close()
            throw .io(path: path, reason: error.reason)
        } catch {
            try? file.close()
            throw .io(path: path, reason: "\(error)")
        }
        do { try FileSystem.close(file, path: FilePath(path)) } catch { throw .io(path: path, reason: error.reason) }
        return hasher.finalize().digest.hexString
    }
}
