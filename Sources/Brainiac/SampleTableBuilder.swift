import Tables

/// Builds the `samples` table (spec §2.6) batch by batch for one input file.
///
/// In HDF5, `source_file` is stored as fixed-length strings of at least `sourceFileWidth` bytes (the longest
/// input path of the run), so that long recordings need no string heap. The column of repeated paths is made
/// once and shared by every batch of the same length, instead of retaining the path once per row.
public struct SampleTableBuilder {
    public let sourceFile: String
    public let sourceFileWidth: Int
    private var repeatedSourceFile: [String?] = []
    private var integers: [Int32] = []
    private var floats: [Double] = []

    public init(sourceFile: String, sourceFileWidth: Int = 0) {
        self.sourceFile = sourceFile
        self.sourceFileWidth = sourceFileWidth
    }

    /// The next batch of the table.
    public mutating func table(_ batch: [BrainiacSample]) -> Table {
        let n = batch.count
        // One pass over the samples into column-major scratch (7 integer and 5 float columns), then each column
        // copied out whole: reading each 64-byte sample once is what makes this fast.
        if integers.count < 7 * n { integers = [Int32](repeating: 0, count: 7 * n) }
        if floats.count < 5 * n { floats = [Double](repeating: 0, count: 5 * n) }
        var filled = [Int8](repeating: 0, count: n)
        integers.withUnsafeMutableBufferPointer { i in
            floats.withUnsafeMutableBufferPointer { f in
                filled.withUnsafeMutableBufferPointer { flags in
                    for (k, sample) in batch.enumerated() {
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
                        flags[k] = sample.filled ? 1 : 0
                    }
                }
            }
        }
        let integerScratch = integers, floatScratch = floats
        let integerColumn = { (c: Int) in Array(integerScratch[(c * n)..<((c + 1) * n)]) }
        let floatColumn = { (c: Int) in Array(floatScratch[(c * n)..<((c + 1) * n)]) }
        let segment = integerColumn(0), sampleIndex = integerColumn(1), counter = integerColumn(2)
        let order = integerColumn(3), orderSDK = integerColumn(4), byte2 = integerColumn(5), byte11 = integerColumn(6)
        let t = floatColumn(0)
        let channels = (0..<4).map { floatColumn(1 + $0) }
        var columns: [Column] = [
            Column("source_file", fixedWidth: max(sourceFileWidth, sourceFile.utf8.count), .string(sourceFiles(n))),
            Column("segment", .int32(segment)),
            Column("sample_index", unit: "sample", description: "device-clock position, lost samples counted",
                   .int32(sampleIndex)),
            Column("counter", unit: "sample", description: "the SDK's received-sample count before this sample",
                   .int32(counter)),
            Column("t_s", unit: "s", description: "sample_index / 250", .float64(t)),
            Column("order_number", description: "uint16; sample B carries o + 1", .int32(order)),
            Column("order_number_sdk", description: "the SDK's signed int16 view of order_number", .int32(orderSDK)),
            Column("byte2", description: "unknown packet byte 2, raw", .int32(byte2)),
            Column("byte11", description: "unknown packet byte 11, raw", .int32(byte11)),
        ]
        for (index, name) in Brainiac.channelNames.enumerated() {
            columns.append(Column(name.lowercased() + "_uv", unit: "µV",
                                  description: "floor(raw × K) nV / 1000", .float64(channels[index])))
        }
        columns.append(Column("filled", description: "inserted by --gaps fill (linear interpolation)", .bool(filled)))
        return Table("samples", columns)
    }

    private mutating func sourceFiles(_ count: Int) -> [String?] {
        if repeatedSourceFile.count != count { repeatedSourceFile = [String?](repeating: sourceFile, count: count) }
        return repeatedSourceFile
    }
}
