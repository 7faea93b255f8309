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
        tables(named: [name])[0]
    }

    /// The tables of those names (each one's batches joined; `nil` for one the output has none of), in that order,
    /// from one walk over the batches that keeps only theirs: a report asks for its few tables at once, rather than
    /// making every batch of the run again per table.
    public func tables(named names: [String]) -> [Table?] {
        var batches = Dictionary(uniqueKeysWithValues: names.map { ($0, [Table]()) })
        // Cannot throw: what forEach throws comes from its body, and this body does not.
        try! self.batches.forEach(where: { batches[$0] != nil }) { table in batches[table.name]?.append(table) }
        return names.map { Table.concatenating(batches[$0] ?? []) }
    }
}

extension Table {
    /// The rows at `indices`, in that order.
    public func rows(_ indices: [Int]) -> Table {
        Table(name, columns.map { column in
            var picked = column
            switch column.values {
            case .int32(let v): picked.values = .int32(indices.map { v[$0] })
            case .int64(let v): picked.values = .int64(indices.map { v[$0] })
            case .float64(let v): picked.values = .float64(indices.map { v[$0] })
            case .float32(let v): picked.values = .float32(indices.map { v[$0] })
            case .bool(let v): picked.values = .bool(indices.map { v[$0] })
            case .string(let v): picked.values = .string(indices.map { v[$0] })
            case .timestamp(let v): picked.values = .timestamp(indices.map { v[$0] })
            case .localTimestamp(let v): picked.values = .localTimestamp(indices.map { v[$0] })
            }
            return picked
        })
    }

    /// The rows whose `source_file` is `path` (one input's part of a run's table).
    public func rows(ofSource path: String) -> Table {
        let sources = strings("source_file")
        return rows(sources.indices.filter { sources[$0] == path })
    }
}

extension PlotData {
    /// Seconds since 1970 of an ISO 8601 wall-clock text `YYYY-MM-DDTHH:MM[:SS[.fff]]` (any offset ignored: a
    /// local time read as if it were UTC), or `nil`.
    public static func wallClockSeconds(_ text: String?) -> Double? {
        guard let text, text.count >= 16 else { return nil }
        let chars = Array(text)
        func int(_ range: Range<Int>) -> Int? { Int(String(chars[range])) }
        guard chars[4] == "-", chars[7] == "-", chars[10] == "T" || chars[10] == " ", chars[13] == ":",
              let year = int(0..<4), let month = int(5..<7), let day = int(8..<10), let hour = int(11..<13),
              let minute = int(14..<16), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = 0.0
        if chars.count >= 19, chars[16] == ":", let whole = int(17..<19) { seconds = Double(whole) }
        return CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute) + seconds
    }
}
