import Tables

/// One row of the `gaps` table: a gap, a resynchronisation, a discontinuity or a skipped byte range (spec §2.3).
public struct CaptureEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// Bytes before the first locked packet (a capture started mid-packet).
        case leadingBytes = "leading_bytes"
        /// Lost notifications: the order number jumped by a plausible amount, alignment intact.
        case gap
        /// Bytes dropped to regain packet alignment (a damaged packet and its neighbours' misaligned bytes).
        case resync
        /// The numbering restarted (concatenated captures or a device reset): a new segment starts.
        case discontinuity
        /// 1–19 bytes of a final partial packet.
        case truncatedTail = "truncated_tail"
        /// Bytes at the end where no chain of packets could be found.
        case unsyncedTail = "unsynced_tail"

        /// The code of its row in the shared `anomalies` table: `I_GAP` (lost samples are expected of a Bluetooth
        /// capture and are listed in `gaps`), `W_` + the kind in capitals for the rest (``BrainiacAnomalies``).
        public var anomalyCode: AnomalyCode {
            switch self {
            case .leadingBytes: AnomalyCode.leadingBytes
            case .gap: AnomalyCode.gap
            case .resync: AnomalyCode.resync
            case .discontinuity: AnomalyCode.discontinuity
            case .truncatedTail: AnomalyCode.truncatedTail
            case .unsyncedTail: AnomalyCode.unsyncedTail
            }
        }
    }

    public var kind: Kind
    /// The segment of the first sample after the event (the last segment for tail events).
    public var segment: Int
    /// File offset of the skipped range, or of the packet after a gap or discontinuity.
    public var byteOffset: Int
    /// Bytes skipped (0 for a gap or a discontinuity with intact alignment).
    public var byteCount: Int
    /// Order number of the last committed packet before the event.
    public var lastOrder: UInt16?
    /// Order number of the next committed packet.
    public var nextOrder: UInt16?
    /// Packets lost, `Δ/s − 1`, where the jump was a plausible gap.
    public var lostPackets: Int?
    /// The first sample after the event, where there is one.
    public var counter: Int?
    public var sampleIndex: Int?
    /// The skipped bytes, for the anomalies table's `raw` (at most the first 100 bytes).
    public var skippedPrefix: [UInt8]

    public init(kind: Kind, segment: Int, byteOffset: Int, byteCount: Int, lastOrder: UInt16? = nil,
                nextOrder: UInt16? = nil, lostPackets: Int? = nil, counter: Int? = nil, sampleIndex: Int? = nil,
                skippedPrefix: [UInt8] = []) {
        self.kind = kind
        self.segment = segment
        self.byteOffset = byteOffset
        self.byteCount = byteCount
        self.lastOrder = lastOrder
        self.nextOrder = nextOrder
        self.lostPackets = lostPackets
        self.counter = counter
        self.sampleIndex = sampleIndex
        self.skippedPrefix = skippedPrefix
    }

    /// Samples lost, 2 per lost packet.
    public var lostSamples: Int? { lostPackets.map { 2 * $0 } }

    /// Bytes of the file this event accounts for as skipped (not decoded).
    public var skippedBytes: Int {
        switch kind {
        case .leadingBytes, .resync, .truncatedTail, .unsyncedTail: byteCount
        case .gap, .discontinuity: 0
        }
    }
}
