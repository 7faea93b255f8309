/// A named table: equal-length typed columns.
///
/// The `Tables` module is the table model that every format library builds its output with: ``Table``, ``Column``,
/// ``Anomaly``, ``ArrayDataset``, the provenance values (``Provenance``, ``InputRecord``, ``OutputFileRecord``), how
/// cells are spelled (``CellFormatting``), calendar arithmetic (``CivilTime``) and the Frictionless codebook. It
/// depends on no other module and writes no files: the writers are in `TableWriters`, so that a parser of a text
/// format neither links libhdf5 nor can reach the output.
public struct Table: Sendable, Equatable {
    /// The table's name: the HDF5 group and the CSV file name.
    public var name: String
    /// The columns, in output order.
    public var columns: [Column]

    /// Creates a table; every column must have the same number of rows.
    public init(_ name: String, _ columns: [Column]) {
        self.name = name
        self.columns = columns
        let counts = Set(columns.map(\.values.count))
        precondition(counts.count <= 1,
                     "table \(name): columns differ in length: "
                     + columns.map { "\($0.name)=\($0.values.count)" }.joined(separator: ", "))
    }

    /// The number of rows.
    public var rowCount: Int { columns.first?.values.count ?? 0 }

    /// The column names in order.
    public var columnNames: [String] { columns.map(\.name) }

    /// The column of that name, if any.
    public subscript(column name: String) -> Column? { columns.first { $0.name == name } }

    /// The table with its columns and no rows (how a table that no input gave rows to is still written).
    public var withoutRows: Table {
        Table(name, columns.map { column in
            var empty = column
            empty.values = column.values.emptyOfSameKind
            return empty
        })
    }

    /// Appends the rows of a table with the same columns.
    public mutating func append(_ other: Table) {
        precondition(other.columnNames == columnNames, "table \(name): appending rows with other columns")
        for index in columns.indices { columns[index].values.append(contentsOf: other.columns[index].values) }
    }
}
