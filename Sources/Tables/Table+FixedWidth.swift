extension Table {
    /// The widest fixed-width string column a format asks for, in bytes: HDF5 stages a whole chunk (up to 65,536
    /// rows) at that width, so a column whose longest value is longer stays variable-length.
    public static let longestFixedWidth = 64

    /// The table with the named string and timestamp columns stored as fixed-width HDF5 strings
    /// (``Column/fixedWidth``), each at least as wide as given; other columns are unchanged.
    ///
    /// For bulky tables whose string columns have a known longest value (a run's input paths, an enumeration's
    /// names): HDF5 keeps each variable-length string as an object of its own, which for the per-event tables of
    /// a large log was a third of the run; fixed-width strings are plain chunk bytes, and a chunk of one repeated
    /// value is not stored at all. The width must hold every value of every batch: a longer one is a write error.
    public func storingFixedWidth(_ widths: [String: Int]) -> Table {
        Table(name, columns.map { column in
            guard let width = widths[column.name] else { return column }
            switch column.values {
            case .string, .timestamp, .localTimestamp: break
            default: return column
            }
            var fixed = column
            fixed.fixedWidth = max(width, column.fixedWidth ?? 0)
            return fixed
        })
    }
}
