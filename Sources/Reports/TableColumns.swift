import Tables

/// Reading a table's columns for plotting: values as `Double` (missing as NaN), text, booleans.
extension Table {
    /// The numbers of a column as `Double`: integers, floats, booleans (0/1) and times (seconds since 1970);
    /// missing values and text as NaN. An absent column gives NaN rows.
    public func doubles(_ name: String) -> [Double] {
        guard let column = self[column: name] else { return [Double](repeating: .nan, count: rowCount) }
        switch column.values {
        case .int32(let v): return v.map { $0 == .min ? .nan : Double($0) }
        case .int64(let v): return v.map { $0 == .min ? .nan : Double($0) }
        case .float64(let v): return v
        case .float32(let v): return v.map(Double.init)
        case .bool(let v): return v.map { $0 == -128 ? .nan : Double($0) }
        case .string(let v): return v.map { $0.flatMap(Double.init) ?? .nan }
        case .timestamp(let v), .localTimestamp(let v): return v
        }
    }

    /// The text of a column (numbers written as Swift prints them); missing as `nil`.
    public func strings(_ name: String) -> [String?] {
        guard let column = self[column: name] else { return [String?](repeating: nil, count: rowCount) }
        if case .string(let v) = column.values { return v }
        if case .bool(let v) = column.values { return v.map { $0 == -128 ? nil : ($0 != 0 ? "TRUE" : "FALSE") } }
        return doubles(name).map { $0.isNaN ? nil : ($0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : "\($0)") }
    }

    /// A boolean column; missing as `nil`.
    public func bools(_ name: String) -> [Bool?] {
        guard let column = self[column: name] else { return [Bool?](repeating: nil, count: rowCount) }
        switch column.values {
        case .bool(let v): return v.map { $0 == -128 ? nil : $0 != 0 }
        case .string(let v): return v.map { $0.map { $0 == "TRUE" || $0 == "true" } }
        default: return doubles(name).map { $0.isNaN ? nil : $0 != 0 }
        }
    }

    /// The unit of a column (empty when it has none or is absent).
    public func unit(_ name: String) -> String { self[column: name]?.unit ?? "" }
}

extension FormatOutput {
    /// Every batch of the table of that name joined, or `nil` when the output has none.
    public func table(_ name: String) -> Table? {
        Table.concatenating(tables.filter { $0.name == name })
    }
}
