import Tables

/// Something that receives tables in batches and writes them to a temporary location.
protocol TableSink: AnyObject {
    /// Adds rows to a table, creating it (with its columns, even with no rows) on its first batch.
    func append(_ batch: Table) throws(TableOutputError)
    /// Writes an N-dimensional array under `/arrays/` (formats without a place for it skip it).
    func writeArray(_ array: ArrayDataset) throws(TableOutputError)
    /// Writes the provenance and closes every file; the temporary output is then complete.
    func finish(provenance: Provenance) throws(TableOutputError)
}

extension TableSink {
    func writeArray(_ array: ArrayDataset) throws(TableOutputError) {}
}
