extension Table {
    /// Joins batches of one table (same columns) in a single pass per column, so that many small batches cost
    /// linear time (``append(_:)`` batch by batch copies the growing columns each time); `nil` for no batches.
    public static func concatenating(_ batches: [Table]) -> Table? {
        guard let first = batches.first else { return nil }
        let columns = first.columns.indices.map { index -> Column in
            var column = first.columns[index]
            let parts = batches.map { $0.columns[index].values }
            switch column.values {
            case .int32: column.values = .int32(joined(parts) { if case .int32(let v) = $0 { return v }; return nil })
            case .int64: column.values = .int64(joined(parts) { if case .int64(let v) = $0 { return v }; return nil })
            case .float64: column.values = .float64(joined(parts) { if case .float64(let v) = $0 { return v }; return nil })
            case .float32: column.values = .float32(joined(parts) { if case .float32(let v) = $0 { return v }; return nil })
            case .bool: column.values = .bool(joined(parts) { if case .bool(let v) = $0 { return v }; return nil })
            case .string: column.values = .string(joined(parts) { if case .string(let v) = $0 { return v }; return nil })
            case .timestamp:
                column.values = .timestamp(joined(parts) { if case .timestamp(let v) = $0 { return v }; return nil })
            case .localTimestamp:
                column.values = .localTimestamp(joined(parts) { if case .localTimestamp(let v) = $0 { return v }; return nil })
            }
            return column
        }
        return Table(first.name, columns)
    }

    private static func joined<T>(_ parts: [ColumnValues], _ values: (ColumnValues) -> [T]?) -> [T] {
        var result: [T] = []
        result.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { if let part = values(part) { result += part } }
        return result
    }
}

/// Joins the batches of one table, from one input or several, into batches of at least ``rows`` rows (the last
/// may be shorter), each joined in one pass: a table is then written in a few large batches whatever the number of
/// inputs, and a run holds at most about two such batches of it. A table whose rows all fit in one batch is
/// written as one, as when every input's rows were joined at once (the same HDF5 chunking and file).
public struct TableBatchJoiner {
    /// Rows per batch: the longest HDF5 chunk (so that chunks come out as when a table is written at once).
    public static let rows = 65_536

    /// Rows per batch of this joiner: ``rows`` unless a table's rows are so bulky that fewer make a batch.
    public let batchRows: Int
    private var pending: [Table] = []
    private var pendingRows = 0

    /// A joiner whose first batch starts with `first` (a table's empty batch, which gives it its columns), handing
    /// on batches of at least `batchRows` rows.
    public init(first: Table? = nil, batchRows: Int = TableBatchJoiner.rows) {
        self.batchRows = max(1, batchRows)
        if let first { pending = [first] }
    }

    /// Adds a batch; hands on a joined batch once ``batchRows`` rows are waiting.
    public mutating func add(_ table: Table, emit: (Table) throws -> Void) rethrows {
        pending.append(table)
        pendingRows += table.rowCount
        if pendingRows >= batchRows { try flush(emit) }
    }

    /// Hands on what is still waiting.
    public mutating func finish(emit: (Table) throws -> Void) rethrows {
        if !pending.isEmpty { try flush(emit) }
    }

    private mutating func flush(_ emit: (Table) throws -> Void) rethrows {
        // Batches without rows add nothing (the first still gives the table its columns when no other has rows);
        // a single batch goes on as it is, without a copy.
        let withRows = pending.filter { $0.rowCount > 0 }
        let joined = withRows.count == 1 ? withRows[0] : Table.concatenating(withRows.isEmpty ? pending : withRows)
        pending = []
        pendingRows = 0
        if let joined { try emit(joined) }
    }

    /// The row ranges of a table of `count` rows in slices of at most ``rows`` (one empty range for none).
    public static func slices(of count: Int) -> [Range<Int>] {
        stride(from: 0, to: max(count, 1), by: rows).map { $0..<min(count, $0 + rows) }
    }
}
