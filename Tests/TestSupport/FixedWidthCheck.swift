import Tables

extension TestSupport {
    /// The fixed-width columns of a batch (``Tables/Column/fixedWidth``): each column's name, and every stored
    /// text (strings as they are, times as the writers spell them, missing as `NA`) that is longer than its width.
    public static func fixedWidthColumns(_ table: Table) -> [(name: String, values: Int, tooLong: [String])] {
        table.columns.compactMap { column in
            guard let width = column.fixedWidth else { return nil }
            let texts: [String?] = switch column.values {
            case .string(let values): values
            case .timestamp(let values): values.map(CellFormatting.timestamp)
            case .localTimestamp(let values): values.map(CellFormatting.localTimestamp)
            default: []
            }
            let stored = texts.map { $0 ?? CellFormatting.missing }
            return (column.name, stored.count, stored.filter { $0.utf8.count > width })
        }
    }
}
