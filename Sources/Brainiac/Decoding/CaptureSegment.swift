/// What the decoder found in one segment of a capture: one row of the `recordings` table (spec §2.6).
public struct CaptureSegment: Sendable, Equatable {
    public var segment: Int
    /// File offset of the segment's first committed packet.
    public var byteOffset: Int
    public var packets = 0
    /// Received samples (2 per packet), not counting samples inserted by `--gaps fill`.
    public var samples = 0
    public var lostPackets = 0
    public var lostSamples = 0
    /// Leading, resync and unsynchronised-tail bytes attributed to this segment.
    public var skippedBytes = 0
    public var truncatedTailBytes = 0
    /// The sample_index of the segment's last sample.
    public var lastSampleIndex = -1
    /// Order-number wraps (65535 → 0) seen inside the segment.
    public var wraps = 0

    public init(segment: Int, byteOffset: Int) {
        self.segment = segment
        self.byteOffset = byteOffset
    }

    /// `(last sample_index + 1) / 250`.
    public var durationSeconds: Double { Double(lastSampleIndex + 1) / BrainiacHeadband.samplingRate }
}
