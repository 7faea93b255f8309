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
