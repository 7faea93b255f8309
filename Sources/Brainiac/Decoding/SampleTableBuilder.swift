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
    /// The batch being filled, row `pending` next.
    private var batch: Batch
    private var pending = 0

    public init(sourceFile: String, sourceFileWidth: Int = 0, batchRows: Int = SampleTableBuilder.defaultBatchRows) {
        self.sourceFile = sourceFile
        self.sourceFileWidth = sourceFileWidth
        self.batchRows = max(1, batchRows)
        batch = Batch(rows: self.batchRows)
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

    /// Writes samples into the batch from row `pending` on: one pass, reading each 64-byte sample once.
    private mutating func fill(_ samples: ArraySlice<BrainiacSample>) {
        batch.fill(samples, from: pending)
        pending += samples.count
    }

    /// The pending rows as a table: the batch's own columns, handed over without a copy; a new batch starts.
    private mutating func takeBatch() -> Table {
        let rows = pending
        var full = batch
        batch = Batch(rows: batchRows)
        pending = 0
        full.truncate(to: rows)
        var columns: [Column] = [
            Column("source_file", description: "the input path as given",
                   fixedWidth: max(sourceFileWidth, sourceFile.utf8.count), .string(sourceFiles(rows))),
            Column("segment", description: "decoder segment (0-based)", .int32(full.segment)),
            Column("sample_index", unit: "sample", description: "device-clock position, lost samples counted",
                   .int32(full.sampleIndex)),
            Column("counter", unit: "sample", description: "the SDK's received-sample count before this sample",
                   .int32(full.counter)),
            Column("t_s", unit: "s", description: "sample_index / 250", .float64(full.time)),
            Column("order_number", description: "uint16; sample B carries o + 1", .int32(full.orderNumber)),
            Column("order_number_sdk", description: "the SDK's signed int16 view of order_number",
                   .int32(full.orderNumberSDK)),
            Column("byte2", description: "unknown packet byte 2, raw", .int32(full.byte2)),
            Column("byte11", description: "unknown packet byte 11, raw", .int32(full.byte11)),
        ]
        for (name, values) in zip(BrainiacHeadband.channelNames, [full.t3, full.o1, full.t4, full.o2]) {
            columns.append(Column(name.lowercased() + "_uv", unit: "µV",
                                  description: "\(name) EEG: floor(raw × K) nV / 1000", .float64(values)))
        }
        columns.append(Column("filled", description: "inserted by --gaps fill (linear interpolation)",
                              .bool(full.filled)))
        return Table("samples", columns)
    }

    private mutating func sourceFiles(_ count: Int) -> [String?] {
        if repeatedSourceFile.count != count { repeatedSourceFile = [String?](repeating: sourceFile, count: count) }
        return repeatedSourceFile
    }
}

/// The columns of one batch of the `samples` table, allocated whole and filled row by row.
///
/// Each batch gets new arrays, handed over to its table as they are: copying a filled scratch out would move
/// every byte of the table once more. (Freed batches are reused by the allocator, see
/// `AllocatorTuning.reuseFreedMemory`, so new arrays cost no page faults.)
private struct Batch {
    var segment, sampleIndex, counter, orderNumber, orderNumberSDK, byte2, byte11: [Int32]
    var time, t3, o1, t4, o2: [Double]
    var filled: [Int8]

    /// Columns of `rows` rows whose values are not set yet: every row is written before it is read.
    init(rows: Int) {
        func column<Value: BitwiseCopyable>(_: Value.Type) -> [Value] {
            [Value](unsafeUninitializedCapacity: rows) { _, initialized in initialized = rows }
        }
        (segment, sampleIndex, counter, orderNumber) = (column(Int32.self), column(Int32.self), column(Int32.self),
                                                        column(Int32.self))
        (orderNumberSDK, byte2, byte11) = (column(Int32.self), column(Int32.self), column(Int32.self))
        (time, t3, o1, t4, o2) = (column(Double.self), column(Double.self), column(Double.self), column(Double.self),
                                  column(Double.self))
        filled = column(Int8.self)
    }

    /// Writes `samples` to rows `start...`.
    mutating func fill(_ samples: ArraySlice<BrainiacSample>, from start: Int) {
        Batch.write(samples, from: start, &segment, &sampleIndex, &counter, &orderNumber, &orderNumberSDK, &byte2,
                    &byte11, &time, &t3, &o1, &t4, &o2, &filled)
    }

    /// Keeps the first `rows` rows.
    mutating func truncate(to rows: Int) {
        guard rows < segment.count else { return }
        let drop = segment.count - rows
        segment.removeLast(drop); sampleIndex.removeLast(drop); counter.removeLast(drop)
        orderNumber.removeLast(drop); orderNumberSDK.removeLast(drop); byte2.removeLast(drop)
        byte11.removeLast(drop); time.removeLast(drop); t3.removeLast(drop); o1.removeLast(drop)
        t4.removeLast(drop); o2.removeLast(drop); filled.removeLast(drop)
    }

    /// One pass over the samples, each column through a pointer (the arrays' storage, for the call's duration).
    private static func write(
        _ samples: ArraySlice<BrainiacSample>, from start: Int,
        _ segment: UnsafeMutablePointer<Int32>, _ sampleIndex: UnsafeMutablePointer<Int32>,
        _ counter: UnsafeMutablePointer<Int32>, _ orderNumber: UnsafeMutablePointer<Int32>,
        _ orderNumberSDK: UnsafeMutablePointer<Int32>, _ byte2: UnsafeMutablePointer<Int32>,
        _ byte11: UnsafeMutablePointer<Int32>, _ time: UnsafeMutablePointer<Double>,
        _ t3: UnsafeMutablePointer<Double>, _ o1: UnsafeMutablePointer<Double>,
        _ t4: UnsafeMutablePointer<Double>, _ o2: UnsafeMutablePointer<Double>,
        _ filled: UnsafeMutablePointer<Int8>
    ) {
        var k = start
        for sample in samples {
            segment[k] = Int32(truncatingIfNeeded: sample.segment)
            sampleIndex[k] = Int32(clamping: sample.sampleIndex)
            counter[k] = Int32(clamping: sample.counter)
            orderNumber[k] = Int32(sample.orderNumber)
            orderNumberSDK[k] = Int32(OrderNumber.sdkView(sample.orderNumber))
            byte2[k] = sample.filled ? .min : Int32(sample.byte2)
            byte11[k] = sample.filled ? .min : Int32(sample.byte11)
            time[k] = sample.timeSeconds
            let microvolts = sample.nanovolts / 1000
            t3[k] = microvolts[0]
            o1[k] = microvolts[1]
            t4[k] = microvolts[2]
            o2[k] = microvolts[3]
            filled[k] = sample.filled ? 1 : 0
            k += 1
        }
    }
}
