/// Every fault `bt-synth` injected, written beside the capture as `<out>.truth.json` (spec §5.2), so a decoder's
/// `gaps` table can be checked against ground truth.
public struct SynthTruth: Sendable, Codable, Equatable {
    /// One run of packets with its own numbering (two with `--concat`).
    public struct Segment: Sendable, Codable, Equatable {
        public var ord0: UInt16
        /// Offset of its first byte in the undamaged stream.
        public var firstByte: Int
        /// Packets written (dropped ones excluded).
        public var packets: Int
    }

    /// A lost notification.
    public struct DroppedPacket: Sendable, Codable, Equatable {
        public var segment: Int
        /// The packet number within its segment (it would have carried samples 2p and 2p+1).
        public var packet: Int
        public var orderNumber: UInt16
    }

    public var segments: [Segment] = []
    /// The per-channel gains applied (T3, O1, T4, O2).
    public var gains: [Double] = []
    public var droppedPackets: [DroppedPacket] = []
    /// Deleted byte ranges, as offsets into the undamaged stream (after dropped packets were left out).
    public var byteDeletions: [CaptureSynthesizer.ByteDeletion] = []
    public var leadBytesRemoved = 0
    public var tailBytesRemoved = 0
    /// Size of the stream before byte faults, and of the file written.
    public var undamagedSize = 0
    public var fileSize = 0

    public init() {}
}
