import Crypto
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
            var header = ""
            for (index, column) in batch.columns.enumerated() {
                if index > 0 { header += "," }
                CSVTableWriter.appendField(column.name, to: &header)
            }
            header += "\n"
            try file.write(header)
        }
        var text = ""
        text.reserveCapacity(4096)
        for row in 0..<batch.rowCount {
            for (index, column) in batch.columns.enumerated() {
                if index > 0 { text += "," }
                CSVTableWriter.appendCell(column.values, row, to: &text)
            }
            text += "\n"
            if text.utf8.count > 1 << 20 {
                try file.write(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        try file.write(text)
    }

    func finish(provenance: Provenance) throws(TableOutputError) {
        var outputs: [OutputFileRecord] = []
        for entry in order {
            guard let file = open[entry.table] else { continue }
            outputs.append(OutputFileRecord(file: entry.name, sha256: try file.close()))
        }
        open.removeAll()
        let codebook: [String: Any] = layout.codebookIsPackage
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

    static func appendCell(_ values: ColumnValues, _ row: Int, to text: inout String) {
        switch values {
        case .int32(let v): text += v[row] == .min ? CellFormatting.missing : String(v[row])
        case .int64(let v): text += v[row] == .min ? CellFormatting.missing : String(v[row])
        case .float64(let v): text += CellFormatting.float(v[row]) ?? CellFormatting.missing
        case .float32(let v): text += v[row].isNaN ? CellFormatting.missing : v[row].description
        case .bool(let v): text += v[row] == 1 ? CellFormatting.true : v[row] == 0 ? CellFormatting.false : CellFormatting.missing
        case .string(let v):
            if let value = v[row] { appendField(value, to: &text) } else { text += CellFormatting.missing }
        case .timestamp(let v): text += CellFormatting.timestamp(v[row]) ?? CellFormatting.missing
        case .localTimestamp(let v): text += CellFormatting.localTimestamp(v[row]) ?? CellFormatting.missing
        }
    }

    /// RFC 4180: quote a field that holds a comma, quote, CR or LF (or that would read as missing), doubling quotes.
    static func appendField(_ value: String, to text: inout String) {
        let needsQuotes = value == CellFormatting.missing
            || value.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
        guard needsQuotes else { text += value; return }
        text += "\""
        text += value.replacingOccurrences(of: "\"", with: "\"\"")
        text += "\""
    }
}

/// A file opened for writing, whose content is hashed (SHA-256) as it is written.
final class BufferedFile {
    let path: String
    private let file: FileDescriptor
    private var isOpen = true
    private var hasher = SHA256()

    init(path: String) throws(TableOutputError) {
        self.path = path
        do { file = try FileSystem.create(FilePath(path)) } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
    }

    /// A file dropped unfinished (a failed run) is closed; its temporary output is removed by ``TableOutput``.
    deinit {
        if isOpen { try? file.close() }
    }

    func write(_ text: String) throws(TableOutputError) {
        let data = Data(text.utf8)
        hasher.update(data: data)
        do { try FileSystem.write(data, to: file, path: FilePath(path)) } catch {
            throw .io(path: path, reason: error.reason)
        }
    }

    /// Closes the file and returns the SHA-256 of everything written, lowercase hex.
    func close() throws(TableOutputError) -> String {
        isOpen = false
        do { try FileSystem.close(file, path: FilePath(path)) } catch { throw .io(path: path, reason: error.reason) }
        return hasher.finalize().hexString
    }
}
