import Tables

/// The decoded tables of `bt-decode` (spec §2.3 and §2.6): `gaps`, `recordings`, and the gap events as rows of
/// the shared `anomalies` table (``SampleTableBuilder`` makes `samples`).
public enum CaptureTables {
    /// Names of the decoded tables, in output order.
    public static let names = ["recordings", "samples", "gaps", "anomalies"]

    /// The `gaps` table: one row per event.
    public static func gaps(_ events: some Collection<CaptureEvent>, sourceFile: String) -> Table {
        Table("gaps", [
            .string("source_file", events.map { _ in sourceFile }, description: "the input path as given"),
            .int32("segment", events.map(\.segment), description: "0-based segment the event belongs to"),
            .string("kind", events.map(\.kind.rawValue),
                    description: "leading_bytes, gap, resync, discontinuity, truncated_tail or unsynced_tail"),
            .int64("byte_offset", events.map(\.byteOffset), unit: "byte",
                   description: "offset in the file where the event's bytes start"),
            .int64("byte_count", events.map(\.byteCount), unit: "byte",
                   description: "bytes skipped or cut off by the event (0 for a gap or discontinuity)"),
            .int32("last_order", events.map { $0.lastOrder.map(Int.init) },
                   description: "order number of the last packet before the event"),
            .int32("next_order", events.map { $0.nextOrder.map(Int.init) },
                   description: "order number of the first packet after the event"),
            .int32("lost_packets", events.map(\.lostPackets), unit: "packet",
                   description: "packets lost at a gap or resync: order-number jump ÷ step − 1"),
            .int32("lost_samples", events.map(\.lostSamples), unit: "sample",
                   description: "samples lost at a gap or resync, 2 per lost packet"),
            .int32("counter", events.map(\.counter), unit: "sample",
                   description: "the SDK's received-sample count at the first sample after the event (NA for tails)"),
            .int32("sample_index", events.map(\.sampleIndex), unit: "sample",
                   description: "device-clock position of the first sample after the event (NA for tails)"),
            .float("t_s", events.map { $0.sampleIndex.map { Double($0) / BrainiacHeadband.samplingRate } }, unit: "s",
                   description: "sample_index / 250: device time of the first sample after the event"),
        ])
    }

    /// The `recordings` table: one row per segment.
    public static func recordings(_ segments: [CaptureSegment], sourceFile: String, byteOrder: BrainiacByteOrder,
                                  scoreLE: Double?, scoreMixed: Double?) -> Table {
        Table("recordings", [
            .string("source_file", segments.map { _ in sourceFile }, description: "the input path as given"),
            .int32("segment", segments.map(\.segment), description: "0-based; a discontinuity starts a new one"),
            .int64("byte_offset", segments.map(\.byteOffset), unit: "byte",
                   description: "offset of the first committed packet"),
            .int32("packets", segments.map(\.packets), unit: "packet", description: "committed packets"),
            .int32("samples", segments.map(\.samples), unit: "sample", description: "received samples"),
            .int32("lost_packets", segments.map(\.lostPackets), unit: "packet",
                   description: "packets lost in plausible gaps, including those dropped by a resync"),
            .int32("lost_samples", segments.map(\.lostSamples), unit: "sample",
                   description: "samples lost in plausible gaps, including those dropped by a resync"),
            .int64("skipped_bytes", segments.map(\.skippedBytes), unit: "byte",
                   description: "leading, resync and unsynchronised-tail bytes skipped"),
            .int32("truncated_tail_bytes", segments.map(\.truncatedTailBytes), unit: "byte",
                   description: "1–19 bytes of a final partial packet (0 if none)"),
            .string("byte_order", segments.map { _ in byteOrder.rawValue },
                    description: "packet layout of the capture: be, le or mixed"),
            .float("score_le_uv", segments.map { _ in scoreLE }, unit: "µV",
                   description: "mean |x[n+1] − x[n]| of the first 2500 samples decoded as le"),
            .float("score_mixed_uv", segments.map { _ in scoreMixed }, unit: "µV",
                   description: "mean |x[n+1] − x[n]| of the first 2500 samples decoded as mixed"),
            .float("duration_s", segments.map(\.durationSeconds), unit: "s",
                   description: "(last sample_index + 1) / 250: device time the segment spans"),
            .float("sampling_rate_hz", segments.map { _ in BrainiacHeadband.samplingRate }, unit: "Hz",
                   description: "samples per second per channel on the device clock (the headband's fixed 250 Hz)"),
        ])
    }

    /// Each event as a row of the shared `anomalies` table (`I_GAP`, severity `info`, for gaps; `W_…` for the rest).
    public static func anomalies(_ events: some Sequence<CaptureEvent>, sourceFile: String) -> [Anomaly] {
        events.map { anomaly($0, sourceFile: sourceFile) }
    }

    /// An event as a row of the shared `anomalies` table.
    public static func anomaly(_ event: CaptureEvent, sourceFile: String) -> Anomaly {
        Anomaly(sourceFile: sourceFile, line: nil, location: String(event.byteOffset), code: event.kind.anomalyCode,
                message: message(event),
                raw: event.skippedPrefix.isEmpty ? nil : event.skippedPrefix.map(hex).joined())
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
