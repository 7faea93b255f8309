import HDF5

/// Writes tables into one HDF5 file: a group per table, an extendible 1-D dataset per column (conventions §2).
final class HDF5TableWriter: TableSink {
    private let path: String
    private let file: HDF5File
    private let compression: Int
    private var tables: [String: (group: HDF5Group, columns: [HDF5ChunkAppender], rows: Int)] = [:]
    private var order: [String] = []

    /// Rows per chunk for a table whose first batch has `rows` rows.
    static func chunkRows(forFirstBatch rows: Int) -> Int { min(max(rows, 4096), 65_536) }

    init(path: String, compression: Int) throws(TableOutputError) {
        self.path = path
        self.compression = compression
        do { file = try HDF5File.create(path: path) } catch {
            throw .cannotCreate(path: path, reason: error.description)
        }
    }

    func append(_ batch: Table) throws(TableOutputError) {
        do {
            if tables[batch.name] == nil { try create(batch) }
            guard var entry = tables[batch.name] else { return }
            for (index, column) in batch.columns.enumerated() {
                try write(column.values, to: entry.columns[index])
            }
            // The batch's compressed chunks, of every column, on all cores at once.
            try HDF5ChunkAppender.storePendingChunks(of: entry.columns)
            entry.rows += batch.rowCount
            tables[batch.name] = entry
        } catch {
            throw .io(path: path, reason: error.description)
        }
    }

    private func create(_ batch: Table) throws(HDF5Error) {
        let group = try file.createGroup(batch.name)
        try group.setAttribute("columns", .strings(batch.columnNames))
        let chunk = HDF5TableWriter.chunkRows(forFirstBatch: batch.rowCount)
        var columns: [HDF5ChunkAppender] = []
        for column in batch.columns {
            let type = HDF5TableWriter.elementType(column)
            let storage = HDF5StorageOptions(chunkRows: chunk, deflateLevel: compression, shuffle: type.isInteger,
                                             fillValue: HDF5TableWriter.fillValue(column, type))
            let appender = try HDF5ChunkAppender(in: group, name: column.name, type: type, storage: storage)
            let dataset = appender.dataset
            try dataset.setAttribute("unit", .string(column.unit))
            if let description = column.description { try dataset.setAttribute("description", .string(description)) }
            switch column.values {
            case .int32: try dataset.setAttribute("missing_value", .int(Int64(Int32.min)))
            case .int64: try dataset.setAttribute("missing_value", .int(Int64.min))
            case .bool:
                try dataset.setAttribute("logical", .int(1))
                try dataset.setAttribute("missing_value", .int(-128))
            case .string, .timestamp, .localTimestamp: try dataset.setAttribute("missing_value", .string(""))
            case .float64, .float32: break
            }
            columns.append(appender)
        }
        tables[batch.name] = (group, columns, 0)
        order.append(batch.name)
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
            throw .io(path: path, reason: error.description)
        }
    }

    /// The fill value of a column's dataset: for fixed-length strings, the first row's value (a per-row source
    /// file then needs no stored chunk at all while it repeats); HDF5's default of zeros for every other type.
    static func fillValue(_ column: Column, _ type: HDF5ElementType) -> [UInt8]? {
        guard case .fixedString = type, case .string(let values) = column.values,
              let first = values.first, let text = first else { return nil }
        return Array(text.utf8) + [UInt8](repeating: 0, count: type.elementSize - text.utf8.count)
    }

    static func elementType(_ column: Column) -> HDF5ElementType {
        if case .string(let values) = column.values, let width = column.fixedWidth {
            let longest = values.reduce(0) { max($0, $1?.utf8.count ?? 0) }
            return .fixedString(width: max(width, longest))
        }
        switch column.values {
        case .int32: return .int32
        case .int64: return .int64
        case .float64: return .float64
        case .float32: return .float32
        case .bool: return .int8
        case .string, .timestamp, .localTimestamp: return .string
        }
    }

    private func write(_ values: ColumnValues, to column: HDF5ChunkAppender) throws(HDF5Error) {
        switch values {
        case .int32(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .int64(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .float64(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .float32(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .bool(let v): try v.withUnsafeBufferPointer { (b) throws(HDF5Error) in try column.append(b) }
        case .string(let v): try column.append(v)
        case .timestamp(let v): try column.append(v.map { CellFormatting.timestamp($0) ?? "" })
        case .localTimestamp(let v): try column.append(v.map { CellFormatting.localTimestamp($0) ?? "" })
        }
    }

    func finish(provenance: Provenance) throws(TableOutputError) {
        do {
            for name in order {
                guard let entry = tables[name] else { continue }
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
            throw .io(path: path, reason: error.description)
        }
    }
}
