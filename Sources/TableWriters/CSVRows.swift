import Tables

/// The CSV lines of a table's rows (conventions §2): numbers as the standard library spells them, `NA` for a
/// missing value, `TRUE`/`FALSE`, times in ISO 8601, text quoted by RFC 4180 when it holds a comma, a quote, CR or
/// LF, or would read as missing.
///
/// Made a block of rows at a time, a column at a time (each column's values read once, in a loop of their own
/// type), then joined row by row as bytes: spelling row by row with a `String` per line retained and released
/// every column's array for every cell, which made writing a large table twice as slow as parsing it.
enum CSVRows {
    /// Rows rendered per block: the block's cells are held as bytes until they are joined.
    static let blockRows = 8_192
    /// Lines gathered before they are handed to the file.
    static let flushBytes = 1 << 20

    /// Hands the lines of `table` (each ended by LF) to `write`, in pieces of about ``flushBytes``.
    static func write<Failure: Error>(_ table: Table, to write: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var lines: [UInt8] = []
        lines.reserveCapacity(flushBytes + (1 << 16))
        var start = 0
        let count = table.rowCount
        while start < count {
            let rows = start..<min(count, start + blockRows)
            let block = Block(table.columns, rows: rows)
            try block.join(into: &lines, flush: write)
            start = rows.upperBound
        }
        if !lines.isEmpty { try write(lines) }
    }

    /// The header line: the column names as fields.
    static func header(_ names: [String]) -> [UInt8] {
        var line: [UInt8] = []
        for (index, name) in names.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            appendField(name, to: &line)
        }
        line.append(10)
        return line
    }

    /// The cells of a block of rows, spelled a column at a time into one byte array (every cell of the first
    /// column, then of the second, …), and joined into lines from there.
    struct Block {
        private var bytes: [UInt8] = []
        /// The end of each cell in `bytes`, column-major.
        private var ends: [Int] = []
        private let rowCount: Int
        private let columnCount: Int

        init(_ columns: [Column], rows: Range<Int>) {
            rowCount = rows.count
            columnCount = columns.count
            ends.reserveCapacity(rows.count * columns.count)
            for column in columns { spell(column.values, rows: rows) }
        }

        private mutating func spell(_ values: ColumnValues, rows: Range<Int>) {
            switch values {
            case .int32(let v): for row in rows { spell(v[row] == .min ? nil : String(v[row])) }
            case .int64(let v): for row in rows { spell(v[row] == .min ? nil : String(v[row])) }
            case .float64(let v): for row in rows { spell(CellFormatting.float(v[row])) }
            case .float32(let v): for row in rows { spell(v[row].isNaN ? nil : v[row].description) }
            case .bool(let v):
                for row in rows { spell(v[row] == 1 ? CellFormatting.true : v[row] == 0 ? CellFormatting.false : nil) }
            case .string(let v):
                for row in rows {
                    if let value = v[row] { CSVRows.appendField(value, to: &bytes) } else { bytes += CSVRows.missing }
                    ends.append(bytes.count)
                }
            case .timestamp(let v): for row in rows { spell(CellFormatting.timestamp(v[row])) }
            case .localTimestamp(let v): for row in rows { spell(CellFormatting.localTimestamp(v[row])) }
            }
        }

        /// A cell that needs no quoting, `nil` for missing.
        private mutating func spell(_ text: String?) {
            if let text { bytes += text.utf8 } else { bytes += CSVRows.missing }
            ends.append(bytes.count)
        }

        /// Appends the block's lines to `lines`, handing them to `flush` whenever they pass ``flushBytes``.
        func join<Failure: Error>(into lines: inout [UInt8],
                                  flush: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
            try bytes.withUnsafeBufferPointer { (bytes) throws(Failure) in
                try ends.withUnsafeBufferPointer { (ends) throws(Failure) in
                    for row in 0..<rowCount {
                        for column in 0..<columnCount {
                            if column > 0 { lines.append(UInt8(ascii: ",")) }
                            let cell = column * rowCount + row
                            let start = cell == 0 ? 0 : ends[cell - 1]
                            lines.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<ends[cell]]))
                        }
                        lines.append(10)
                        if lines.count >= flushBytes {
                            try flush(lines)
                            lines.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
        }
    }

    static let missing = Array(CellFormatting.missing.utf8)

    /// RFC 4180: quote a field that holds a comma, quote, CR or LF (or that would read as missing), doubling quotes.
    static func appendField(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { text in
            let needsQuotes = text.elementsEqual(missing)
                || text.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            guard needsQuotes else { bytes.append(contentsOf: text); return }
            bytes.append(UInt8(ascii: "\""))
            for byte in text {
                bytes.append(byte)
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
