import Tables

/// The decoded tables of `bt-decode` (spec §2.3 and §2.6): `samples`, `gaps`, `recordings`, and the gap
/// events as rows of the shared `anomalies` table.
public enum CaptureTables {
    /// Names of the decoded tables, in output order.
    public static let names = ["recordings", "samples", "gaps", "anomalies"]

    /// One batch of the `samples` table. In HDF5, `source_file` is stored as fixed-length strings of at least
    /// `sourceFileWidth` bytes (the longest input path of the run), so that long recordings need no string heap.
    public static func samples(_ batch: [BrainiacSample], sourceFile: String, sourceFileWidth: Int = 0) -> Table {
        let n = batch.count
        var segment = [Int32](), sampleIndex = [Int32](), counter = [Int32](), order = [Int32](), orderSDK = [Int32]()
        var byte2 = [Int32](), byte11 = [Int32](), t = [Double](), filled = [Int8]()
        var channels = [[Double]](repeating: [], count: 4)
        segment.reserveCapacity(n); sampleIndex.reserveCapacity(n); counter.reserveCapacity(n)
        order.reserveCapacity(n); orderSDK.reserveCapacity(n); byte2.reserveCapacity(n); byte11.reserveCapacity(n)
        t.reserveCapacity(n)
        filled.reserveCapacity(n)
        for c in 0..<4 { channels[c].reserveCapacity(n) }
        for sample in batch {
            segment.append(Int32(sample.segment))
            sampleIndex.append(Int32(clamping: sample.sampleIndex))
            counter.append(Int32(clamping: sample.counter))
            order.append(Int32(sample.orderNumber))
            orderSDK.append(Int32(OrderNumber.sdkView(sample.orderNumber)))
            byte2.append(sample.filled ? .min : Int32(sample.byte2))
            byte11.append(sample.filled ? .min : Int32(sample.byte11))
            t.append(sample.timeSeconds)
            for c in 0..<4 { channels[c].append(sample.nanovolts[c] / 1000) }
            filled.append(sample.filled ? 1 : 0)
        }
        var columns: [Column] = [
            Column("source_file", fixedWidth: max(sourceFileWidth, sourceFile.utf8.count),
                   .string([String?](repeating: sourceFile, count: n))),
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

    /// The `gaps` table: one row per event.
    public static func gaps(_ events: [CaptureEvent], sourceFile: String) -> Table {
        Table("gaps", [
            .string("source_file", events.map { _ in sourceFile }),
            .int32("segment", events.map(\.segment)),
            .string("kind", events.map(\.kind.rawValue)),
            .int64("byte_offset", events.map(\.byteOffset), unit: "byte"),
            .int64("byte_count", events.map(\.byteCount), unit: "byte"),
            .int32("last_order", events.map { $0.lastOrder.map(Int.init) }),
            .int32("next_order", events.map { $0.nextOrder.map(Int.init) }),
            .int32("lost_packets", events.map(\.lostPackets), unit: "packet"),
            .int32("lost_samples", events.map(\.lostSamples), unit: "sample"),
            .int32("counter", events.map(\.counter), unit: "sample"),
            .int32("sample_index", events.map(\.sampleIndex), unit: "sample"),
            .float("t_s", events.map { $0.sampleIndex.map { Double($0) / Brainiac.samplingRate } }, unit: "s"),
        ])
    }

    /// The `recordings` table: one row per segment.
    public static func recordings(_ segments: [CaptureSegment], sourceFile: String, byteOrder: BrainiacByteOrder,
                                  scoreLE: Double?, scoreMixed: Double?) -> Table {
        Table("recordings", [
            .string("source_file", segments.map { _ in sourceFile }),
            .int32("segment", segments.map(\.segment)),
            .int64("byte_offset", segments.map(\.byteOffset), unit: "byte",
                   description: "offset of the first committed packet"),
            .int32("packets", segments.map(\.packets), unit: "packet"),
            .int32("samples", segments.map(\.samples), unit: "sample", description: "received samples"),
            .int32("lost_packets", segments.map(\.lostPackets), unit: "packet"),
            .int32("lost_samples", segments.map(\.lostSamples), unit: "sample"),
            .int64("skipped_bytes", segments.map(\.skippedBytes), unit: "byte"),
            .int32("truncated_tail_bytes", segments.map(\.truncatedTailBytes), unit: "byte"),
            .string("byte_order", segments.map { _ in byteOrder.rawValue }),
            .float("score_le_uv", segments.map { _ in scoreLE }, unit: "µV",
                   description: "mean |x[n+1] − x[n]| of the first 2500 samples decoded as le"),
            .float("score_mixed_uv", segments.map { _ in scoreMixed }, unit: "µV",
                   description: "mean |x[n+1] − x[n]| of the first 2500 samples decoded as mixed"),
            .float("duration_s", segments.map(\.durationSeconds), unit: "s"),
        ])
    }

    /// Each event as a row of the shared `anomalies` table (severity `info` for gaps, else `warning`).
    public static func anomalies(_ events: [CaptureEvent], sourceFile: String) -> [Anomaly] {
        events.map { event in
            Anomaly(sourceFile: sourceFile, line: nil, location: String(event.byteOffset),
                    severity: event.kind == .gap ? .info : .warning, code: event.kind.rawValue,
                    message: message(event),
                    raw: event.skippedPrefix.isEmpty ? nil : event.skippedPrefix.map(hex).joined())
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    static func message(_ event: CaptureEvent) -> String {
        let orders = [event.lastOrder.map { "last order \($0)" }, event.nextOrder.map { "next order \($0)" }]
            .compactMap { $0 }.joined(separator: ", ")
        let lost = event.lostPackets.map { "; \($0) packet\($0 == 1 ? "" : "s") (\(2 * $0) samples) lost" } ?? ""
        switch event.kind {
        case .leadingBytes: return "\(event.byteCount) bytes before the first packet skipped (\(orders))"
        case .gap: return "order number jumped (\(orders))\(lost)"
        case .resync: return "\(event.byteCount) bytes skipped to regain packet alignment (\(orders))\(lost)"
        case .discontinuity: return "order numbers restart (\(orders)): new segment \(event.segment)"
        case .truncatedTail: return "final packet truncated: \(event.byteCount) bytes"
        case .unsyncedTail: return "\(event.byteCount) bytes at the end hold no chain of packets"
        }
    }
}
