import Tables

/// Builds the `samples` table (spec §2.6) for one input file, in batches of a fixed number of rows.
///
/// Decoded samples arrive in blocks of any size; the builder hands out tables of exactly ``batchRows`` rows
/// (and a shorter last one from ``finish()``). The HDF5 writer makes its chunks as long as a table's first
/// batch, so when the first input fills a batch, every whole batch covers whole chunks and is read in place,
/// without staging (a shorter input before it shifts later ones off the chunk boundaries: they are staged).
///
/// In HDF5, `source_file` is stored as fixed-length strings of at least `sourceFileWidth` bytes (the longest
/// input path of the run), so that long recordings need no string heap; while it repeats the dataset's fill
/// value, its chunks are not even stored. The column of repeated paths is made once and shared by every batch.
public struct SampleTableBuilder {
    /// Rows per batch unless told otherwise: 32,768 samples (131 s at 250 Hz; 2 MB of the table).
    public static let defaultBatchRows = 32_768

    public let sourceFile: String
    public let sourceFileWidth: Int
    /// Rows per table handed out (the last may be shorter).
    public let batchRows: Int
    private var repeatedSourceFile: [String?] = []
    /// Column-major scratch of the batch being filled: 7 integer and 5 float columns, and the `filled` flags.
    private var integers: [Int32]
    private var floats: [Double]
    private var flags: [Int8]
    private var pending = 0

    public init(sourceFile: String, sourceFileWidth: Int = 0, batchRows: Int = SampleTableBuilder.defaultBatchRows) {
        self.sourceFile = sourceFile
        self.sourceFileWidth = sourceFileWidth
        self.batchRows = max(1, batchRows)
        integers = [Int32](repeating: 0, count: 7 * self.batchRows)
        floats = [Double](repeating: 0, count: 5 * self.batchRows)
        flags = [Int8](repeating: 0, count: self.batchRows)
    }

    /// Adds decoded samples, in order; returns the batches they completed, each of ``batchRows`` rows.
    public mutating func add(_ samples: [BrainiacSample]) -> [Table] {
        var tables: [Table] = []
        var next = 0
        while next < samples.count {
            let count = min(batchRows - pending, samples.count - next)
            fill(samples[next..<(next + count)])
            next += count
            if pending == batchRows { tables.append(takeBatch()) }
        }
        return tables
    }

    /// The rows added since the last whole batch, as a shorter last batch; `nil` when there are none.
    public mutating func finish() -> Table? {
        pending > 0 ? takeBatch() : nil
    }

    /// One table of exactly these samples.
    public static func table(_ samples: [BrainiacSample], sourceFile: String, sourceFileWidth: Int = 0) -> Table {
        var builder = SampleTableBuilder(sourceFile: sourceFile, sourceFileWidth: sourceFileWidth,
                                         batchRows: samples.count)
        return builder.add(samples).first ?? builder.finish() ?? builder.takeBatch()
    }

    /// Writes samples into the scratch from row `pending` on: one pass, reading each 64-byte sample once.
    private mutating func fill(_ samples: ArraySlice<BrainiacSample>) {
        let n = batchRows, start = pending
        integers.withUnsafeMutableBufferPointer { i in
            floats.withUnsafeMutableBufferPointer { f in
                flags.withUnsafeMutableBufferPointer { filled in
                    for (offset, sample) in samples.enumerated() {
                        let k = start + offset
                        i[k] = Int32(truncatingIfNeeded: sample.segment)
                        i[n + k] = Int32(clamping: sample.sampleIndex)
                        i[2 * n + k] = Int32(clamping: sample.counter)
                        i[3 * n + k] = Int32(sample.orderNumber)
                        i[4 * n + k] = Int32(OrderNumber.sdkView(sample.orderNumber))
                        i[5 * n + k] = sample.filled ? .min : Int32(sample.byte2)
                        i[6 * n + k] = sample.filled ? .min : Int32(sample.byte11)
                        f[k] = sample.timeSeconds
                        let microvolts = sample.nanovolts / 1000
                        for c in 0..<4 { f[(1 + c) * n + k] = microvolts[c] }
                        filled[k] = sample.filled ? 1 : 0
                    }
                }
            }
        }
        pending += samples.count
    }

    /// The pending rows as a table (each column copied out of the scratch whole); the scratch starts over.
    private mutating func takeBatch() -> Table {
        let n = batchRows, rows = pending
        pending = 0
        let integers = self.integers, floats = self.floats
        let integerColumn = { (c: Int) in Array(integers[(c * n)..<(c * n + rows)]) }
        let floatColumn = { (c: Int) in Array(floats[(c * n)..<(c * n + rows)]) }
        var columns: [Column] = [
            Column("source_file", fixedWidth: max(sourceFileWidth, sourceFile.utf8.count), .string(sourceFiles(rows))),
            Column("segment", .int32(integerColumn(0))),
            Column("sample_index", unit: "sample", description: "device-clock position, lost samples counted",
                   .int32(integerColumn(1))),
            Column("counter", unit: "sample", description: "the SDK's received-sample count before this sample",
                   .int32(integerColumn(2))),
            Column("t_s", unit: "s", description: "sample_index / 250", .float64(floatColumn(0))),
            Column("order_number", description: "uint16; sample B carries o + 1", .int32(integerColumn(3))),
            Column("order_number_sdk", description: "the SDK's signed int16 view of order_number",
                   .int32(integerColumn(4))),
            Column("byte2", description: "unknown packet byte 2, raw", .int32(integerColumn(5))),
            Column("byte11", description: "unknown packet byte 11, raw", .int32(integerColumn(6))),
        ]
        for (index, name) in Brainiac.channelNames.enumerated() {
            columns.append(Column(name.lowercased() + "_uv", unit: "µV",
                                  description: "floor(raw × K) nV / 1000", .float64(floatColumn(1 + index))))
        }
        columns.append(Column("filled", description: "inserted by --gaps fill (linear interpolation)",
                              .bool(Array(flags[0..<rows]))))
        return Table("samples", columns)
    }

    private mutating func sourceFiles(_ count: Int) -> [String?] {
        if repeatedSourceFile.count != count { repeatedSourceFile = [String?](repeating: sourceFile, count: count) }
        return repeatedSourceFile
    }
}
