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

    public init(sourceFile: String, sourceFileWidth: Int = 0) {
        self.sourceFile = sourceFile
        self.sourceFileWidth = sourceFileWidth
    }

    /// The next batch of the table.
    public mutating func table(_ batch: [BrainiacSample]) -> Table {
        let n = batch.count
        /// One column, written straight into its storage.
        func column<T>(_ value: (BrainiacSample) -> T) -> [T] {
            [T](unsafeUninitializedCapacity: n) { buffer, count in
                for (index, sample) in batch.enumerated() { buffer.initializeElement(at: index, to: value(sample)) }
                count = n
            }
        }
        let segment = column { Int32(truncatingIfNeeded: $0.segment) }
        let sampleIndex = column { Int32(clamping: $0.sampleIndex) }
        let counter = column { Int32(clamping: $0.counter) }
        let order = column { Int32($0.orderNumber) }
        let orderSDK = column { Int32(OrderNumber.sdkView($0.orderNumber)) }
        let byte2 = column { $0.filled ? Int32.min : Int32($0.byte2) }
        let byte11 = column { $0.filled ? Int32.min : Int32($0.byte11) }
        let t = column(\.timeSeconds)
        let channels = (0..<4).map { c in column { $0.nanovolts[c] / 1000 } }
        let filled = column { Int8($0.filled ? 1 : 0) }
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
