/// Writes captures like the SDK's test sequence, with the faults of real captures (spec §5.2).
///
/// Packet p carries samples n = 2p (A) and 2p+1 (B) with order number `(ord0 + 2p) mod 65536`; bytes 2 and 11
/// are 0. Faults are applied in this order: dropped packets, deleted bytes, leading bytes removed, tail
/// truncated. Every fault is recorded in the ``SynthTruth``.
public struct CaptureSynthesizer: Sendable {
    /// Everything that shapes the bytes.
    public struct Settings: Sendable, Codable, Equatable {
        public var sequence: SequenceSetting = .v2(before: "baseline", after: "red", switchAt: 5250)
        public var samples: Int = 10_000
        public var ord0: UInt16 = 0
        public var byteOrder: BrainiacByteOrder = .be
        public var seed: UInt64 = 1
        public var noiseMicrovolts: Double = 0
        /// Per-channel gains (T3, O1, T4, O2).
        public var gains: [Double] = [1, 1, 1, 1]
        /// If set, each channel's gain is drawn uniformly from this range (as the commented-out SDK lines did)
        /// and multiplies ``gains``.
        public var randomGain: ClosedRange<Double>?
        /// Each packet is lost with this probability, in bursts of `dropBurst` packets.
        public var dropRate: Double = 0
        public var dropBurst: Int = 1
        /// Packets dropped explicitly (0-based packet numbers).
        public var dropPackets: [Int] = []
        /// Each packet loses 1–19 bytes at a random position with this probability.
        public var byteLossRate: Double = 0
        /// Explicit deletions: `count` bytes at original byte `offset`.
        public var dropBytes: [ByteDeletion] = []
        public var leadBytes: Int = 0
        public var truncateTail: Int = 0
        /// Append a second capture with a new ord0, so the numbering restarts.
        public var concat = false

        public init() {}
    }

    /// The test signal as given on the command line (named presets kept by name for the truth file).
    public enum SequenceSetting: Sendable, Codable, Equatable {
        case v1(frequency: Double)
        case v2(before: String, after: String, switchAt: Int)
    }

    /// `count` bytes deleted at byte `offset` of the undamaged stream.
    public struct ByteDeletion: Sendable, Codable, Equatable {
        public var offset: Int
        public var count: Int
        public init(offset: Int, count: Int) {
            self.offset = offset
            self.count = count
        }
    }

    public let settings: Settings
    private let sequence: TestSequence

    /// Fails with a message when a preset name or `a,b` pair cannot be read.
    public init(_ settings: Settings) throws(SynthSettingsError) {
        self.settings = settings
        switch settings.sequence {
        case .v1(let frequency):
            sequence = .v1(frequency: frequency)
        case .v2(let before, let after, let switchAt):
            guard let b = TestSequence.Preset(parsing: before) else { throw .unknownPreset(before) }
            guard let a = TestSequence.Preset(parsing: after) else { throw .unknownPreset(after) }
            sequence = .v2(before: b, after: a, switchAt: switchAt)
        }
        guard settings.gains.count == 4 else { throw .badGains }
        // Numbers the synthesis computes with, and the truth sidecar records as JSON (which has no NaN or infinity).
        var numbers: [(String, Double)] = [("--noise-uv", settings.noiseMicrovolts), ("--drop-rate", settings.dropRate),
                                           ("--byte-loss-rate", settings.byteLossRate)]
        numbers += settings.gains.map { ("--gain", $0) }
        if let range = settings.randomGain { numbers += [("--random-gain", range.lowerBound), ("--random-gain", range.upperBound)] }
        if case .v1(let frequency) = settings.sequence { numbers.append(("--frequency", frequency)) }
        if let (name, value) = numbers.first(where: { !$0.1.isFinite }) { throw .notFinite(setting: name, value: value) }
    }

    /// The capture's bytes and the record of every fault.
    public func synthesize() -> (bytes: [UInt8], truth: SynthTruth) {
        var random = SplitMix64(seed: settings.seed)
        var truth = SynthTruth()
        var gains = settings.gains
        if let range = settings.randomGain {
            for channel in 0..<4 { gains[channel] *= range.lowerBound + random.unit() * (range.upperBound - range.lowerBound) }
        }
        truth.gains = gains
        var stream: [UInt8] = []
        let packetCount = settings.samples / 2
        var segmentOrd0 = settings.ord0
        let runs = settings.concat ? 2 : 1
        var packetNumber = 0  // across segments, for drop lists
        for run in 0..<runs {
            if run == 1 {
                // A new ord0 far from any plausible continuation.
                segmentOrd0 = settings.ord0 &+ 32_768 &+ UInt16(truncatingIfNeeded: random.next() % 1000)
            }
            truth.segments.append(.init(ord0: segmentOrd0, firstByte: stream.count, packets: 0))
            var burstLeft = 0
            for p in 0..<packetCount {
                defer { packetNumber += 1 }
                let order = segmentOrd0 &+ UInt16(truncatingIfNeeded: 2 * p)
                var raw: [SIMD4<Int16>] = []
                for n in [2 * p, 2 * p + 1] {
                    var values = SIMD4<Int16>()
                    for channel in 0..<4 {
                        var value = sequence.nanovolts(n) * gains[channel]
                        if settings.noiseMicrovolts > 0 { value += random.gaussian() * settings.noiseMicrovolts * 1000 }
                        values[channel] = BrainiacScaling.rawCount(nanovolts: value)
                    }
                    raw.append(values)
                }
                var dropped = settings.dropPackets.contains(packetNumber)
                if settings.dropRate > 0 {
                    if burstLeft > 0 { burstLeft -= 1; dropped = true }
                    else if random.unit() < settings.dropRate { dropped = true; burstLeft = max(0, settings.dropBurst - 1) }
                }
                if dropped {
                    truth.droppedPackets.append(.init(segment: run, packet: p, orderNumber: order))
                    continue
                }
                stream += BrainiacPacket(orderNumber: order, rawA: raw[0], rawB: raw[1]).encoded(settings.byteOrder)
                truth.segments[run].packets += 1
            }
        }
        truth.undamagedSize = stream.count

        // Byte deletions, listed against the undamaged stream, applied from the end so offsets stay valid.
        var deletions = settings.dropBytes
        if settings.byteLossRate > 0 {
            for packet in 0..<(stream.count / BrainiacPacket.size) where random.unit() < settings.byteLossRate {
                let count = 1 + Int(random.next() % 19)
                let start = Int(random.next() % UInt64(BrainiacPacket.size - count + 1))
                deletions.append(ByteDeletion(offset: packet * BrainiacPacket.size + start, count: count))
            }
        }
        deletions = deletions.filter { $0.count > 0 && $0.offset >= 0 && $0.offset < stream.count }
            .sorted { $0.offset < $1.offset }
        var merged: [ByteDeletion] = []
        for deletion in deletions {
            if let last = merged.last, deletion.offset <= last.offset + last.count {
                merged[merged.count - 1].count = max(last.count, deletion.offset + deletion.count - last.offset)
            } else {
                merged.append(deletion)
            }
        }
        for deletion in merged.reversed() {
            let end = min(stream.count, deletion.offset + deletion.count)
            stream.removeSubrange(deletion.offset..<end)
        }
        truth.byteDeletions = merged
        let lead = min(settings.leadBytes, stream.count)
        stream.removeFirst(lead)
        truth.leadBytesRemoved = lead
        let tail = min(settings.truncateTail, stream.count)
        stream.removeLast(tail)
        truth.tailBytesRemoved = tail
        truth.fileSize = stream.count
        return (stream, truth)
    }
}

/// A setting `bt-synth` cannot use.
public enum SynthSettingsError: Error, Equatable, Sendable {
    case unknownPreset(String)
    case badGains
    /// A number that is NaN or infinite, named by its `bt-synth` option.
    case notFinite(setting: String, value: Double)

    public var message: String {
        switch self {
        case .unknownPreset(let name):
            "unknown preset \(name): use one of \(TestSequence.Preset.named.keys.sorted().joined(separator: ", ")) or a,b"
        case .badGains: "gains need one value per channel (T3, O1, T4, O2)"
        case .notFinite(let setting, let value): "\(setting): expected a finite number, found \(value)"
        }
    }
}
