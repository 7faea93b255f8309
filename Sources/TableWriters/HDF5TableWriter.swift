import HDF5
import SystemPackage
import Tables

/// Writes tables into one HDF5 file: a group per table, an extendible 1-D dataset per column (conventions §2),
/// each stored as ``HDF5ColumnEncoding`` says.
final class HDF5TableWriter: TableSink {
    /// A table being written: its group, its columns as the first batch gave them, and their datasets (none yet
    /// while the table has no rows).
    private struct TableEntry {
        let group: HDF5Group
        let schema: [Column]
        var columns: [HDF5ChunkAppender]
        var rows: Int
    }

    private let path: String
    private let file: HDF5File
    private let compression: Int
    private var tables: [String: TableEntry] = [:]
    private var order: [String] = []

    /// The reason of an HDF5 failure in one line: the system's when there is one (`No space left on device`), else
    /// HDF5's innermost message.
    static func reason(_ error: HDF5Error) -> String {
        error.systemError.map { Errno(rawValue: $0).description } ?? error.description
    }

    /// Rows per chunk for a table whose first batch has `rows` rows.
    static func chunkRows(forFirstBatch rows: Int) -> Int { min(max(rows, 4096), 65_536) }

    init(path: String, compression: Int) throws(TableOutputError) {
        self.path = path
        self.compression = compression
        do { file = try HDF5File.create(path: path) } catch {
            throw .cannotCreate(path: path, reason: HDF5TableWriter.reason(error))
        }
    }

    func append(_ batch: Table) throws(TableOutputError) {
        do {
            if tables[batch.name] == nil { try createGroup(batch) }
            guard var entry = tables[batch.name] else { return }
            if entry.columns.isEmpty {
                // A table's datasets are made with its first rows (or, for a table without any, at the end).
                guard batch.rowCount > 0 else { return }
                entry.columns = try createColumns(batch.columns, in: entry.group, chunkRows: batch.rowCount)
            }
            for (index, column) in batch.columns.enumerated() {
                try HDF5ColumnEncoding.append(column.values, to: entry.columns[index])
            }
            // The batch's compressed chunks, of every column, on all cores at once.
            try HDF5ChunkAppender.storePendingChunks(of: entry.columns)
            entry.rows += batch.rowCount
            tables[batch.name] = entry
        } catch {
            throw .io(path: path, reason: HDF5TableWriter.reason(error))
        }
    }

    private func createGroup(_ batch: Table) throws(HDF5Error) {
        let group = try file.createGroup(batch.name)
        try group.setAttribute("columns", .strings(batch.columnNames))
        let schema = batch.withoutRows.columns
        tables[batch.name] = TableEntry(group: group, schema: schema, columns: [], rows: 0)
        order.append(batch.name)
    }

    private func createColumns(_ schema: [Column], in group: HDF5Group, chunkRows rows: Int,
                               tableIsEmpty: Bool = false) throws(HDF5Error) -> [HDF5ChunkAppender] {
        let chunk = HDF5TableWriter.chunkRows(forFirstBatch: rows)
        var columns: [HDF5ChunkAppender] = []
        for column in schema {
            let encoding = HDF5ColumnEncoding(column, tableIsEmpty: tableIsEmpty)
            let storage = HDF5StorageOptions(chunkRows: chunk, deflateLevel: compression,
                                             shuffle: encoding.elementType.isInteger,
                                             fillValue: encoding.fillValue(column))
            let appender = try HDF5ChunkAppender(in: group, name: column.name, type: encoding.elementType,
                                                 storage: storage, missingText: encoding.missingText)
            try encoding.describe(column, on: appender.dataset)
            columns.append(appender)
        }
        return columns
    }

    private var arrayGroups: [String: HDF5Group] = [:]
    private var arrays: [HDF5Dataset] = []

    func writeArray(_ array: ArrayDataset) throws(TableOutputError) {
        do {
            var parent: HDF5Location = file
            var prefix = ""
            let parts = ("arrays/" + array.path).split(separator: "/").map(String.init)
            for part in parts.dropLast() {
                prefix += "/" + part
                if let group = arrayGroups[prefix] { parent = group; continue }
                let group = parent.contains(part) ? try parent.openGroup(part) : try parent.createGroup(part)
                arrayGroups[prefix] = group
                parent = group
            }
            let name = parts.last ?? array.path
            let dataset: HDF5Dataset
            switch array.values {
            case .uint8(let v):
                dataset = try HDF5Dataset.createArray(in: parent, name: name, type: .uint8, dimensions: array.dimensions,
                                                      values: v, deflateLevel: compression)
            case .int32(let v):
                dataset = try HDF5Dataset.createArray(in: parent, name: name, type: .int32, dimensions: array.dimensions,
                                                      values: v, deflateLevel: compression)
            case .float32(let v):
                dataset = try HDF5Dataset.createArray(in: parent, name: name, type: .float32, dimensions: array.dimensions,
                                                      values: v, deflateLevel: compression)
            }
            try dataset.setAttribute("dimension_names", .strings(array.dimensionNames))
            try dataset.setAttribute("unit", .string(array.unit))
            if let description = array.description { try dataset.setAttribute("description", .string(description)) }
            arrays.append(dataset)
        } catch {
            throw .io(path: path, reason: HDF5TableWriter.reason(error))
        }
    }

    func finish(provenance: Provenance) throws(TableOutputError) {
        do {
            for name in order {
                guard var entry = tables[name] else { continue }
                if entry.columns.isEmpty {
                    entry.columns = try createColumns(entry.schema, in: entry.group, chunkRows: 0, tableIsEmpty: true)
                    tables[name] = entry
                }
                for column in entry.columns { try column.flush() }
                try entry.group.setAttribute("n_rows", .int(Int64(entry.rows)))
            }
            try file.setAttribute("tool", .string(provenance.tool))
            try file.setAttribute("tool_version", .string(provenance.version))
            try file.setAttribute("command_line", .string(provenance.commandLine))
            try file.setAttribute("input_paths", .strings(provenance.inputs.map(\.path)))
            try file.setAttribute("input_sizes", .ints(provenance.inputs.map { Int64($0.size) }))
            try file.setAttribute("input_sha256", .strings(provenance.inputs.map(\.sha256)))
            try file.setAttribute("parameters", .string(provenance.parametersJSON))
            try file.setAttribute("tables", .strings(order))
            // Close datasets in table order: closing flushes chunks and so allocates file space, and a
            // dictionary's order changes from run to run.
            for name in order { tables[name] = nil }
            arrays.removeAll()
            try file.flush()
        } catch {
            throw .io(path: path, reason: HDF5TableWriter.reason(error))
        }
    }
}
