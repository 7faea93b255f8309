import Foundation

/// Writes tables as CSV: UTF-8, LF, RFC 4180 quoting, `NA` for missing values (conventions §2).
final class CSVTableWriter: TableSink {
    /// Where each table goes; `nil` for tables that are not written (a single `.csv` holds one table).
    private let fileForTable: (String) -> String?
    private let provenancePath: String
    private var open: [String: BufferedFile] = [:]
    private var order: [String] = []

    init(fileForTable: @escaping (String) -> String?, provenancePath: String) {
        self.fileForTable = fileForTable
        self.provenancePath = provenancePath
    }

    func append(_ batch: Table) throws(TableOutputError) {
        guard let path = fileForTable(batch.name) else { return }
        let file: BufferedFile
        if let existing = open[batch.name] {
            file = existing
        } else {
            file = try BufferedFile(path: path)
            open[batch.name] = file
            order.append(batch.name)
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
        for name in order { try open[name]?.close() }
        open.removeAll()
        let sidecar = try BufferedFile(path: provenancePath)
        try sidecar.write(String(decoding: provenance.jsonDocument(), as: UTF8.self))
        try sidecar.close()
    }

    static func appendCell(_ values: ColumnValues, _ row: Int, to text: inout String) {
        switch values {
        case .int32(let v): text += v[row] == .min ? CellFormatting.missing : String(v[row])
        case .int64(let v): text += v[row] == .min ? CellFormatting.missing : String(v[row])
        case .float64(let v): text += CellFormatting.float(v[row]) ?? CellFormatting.missing
        case .float32(let v): text += v[row].isNaN ? CellFormatting.missing : v[row].description
        case .bool(let v): text += v[row] == 1 ? "true" : v[row] == 0 ? "false" : CellFormatting.missing
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

/// A file opened for writing with its own buffer, so many small writes cost few system calls.
final class BufferedFile {
    let path: String
    private let handle: FileHandle

    init(path: String) throws(TableOutputError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        self.handle = handle
    }

    func write(_ text: String) throws(TableOutputError) {
        do { try handle.write(contentsOf: Data(text.utf8)) } catch {
            throw .io(path: path, reason: error.localizedDescription)
        }
    }

    func close() throws(TableOutputError) {
        do { try handle.close() } catch { throw .io(path: path, reason: error.localizedDescription) }
    }
}
