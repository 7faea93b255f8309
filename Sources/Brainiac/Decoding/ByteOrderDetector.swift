/// Chooses the byte order of a capture from its first bytes (`--byte-order auto`, spec §2.4).
public enum ByteOrderDetector {
    /// The outcome, with the evidence.
    public struct Decision: Sendable, Equatable {
        public var byteOrder: BrainiacByteOrder
        /// Packets committed over the first 1,000 packets with big- and little-endian order numbers.
        public var packetsBigEndian: Int
        public var packetsLittleEndian: Int
        /// Mean |x[n+1] − x[n]| in µV over the first ≤ 2500 samples decoded as `le` and as `mixed`
        /// (computed when the order numbers are little-endian).
        public var scoreLE: Double?
        public var scoreMixed: Double?
    }

    /// Bytes of the file's start that ``detect(prefix:fileSize:options:)`` needs.
    public static let prefixLength = 2 * 2500 / 2 * BrainiacPacket.size + 4 * BrainiacPacket.size

    /// Decides the byte order from the file's first ``prefixLength`` bytes (or the whole file).
    public static func detect(prefix: [UInt8], fileSize: Int, options: CaptureDecoderOptions) -> Decision {
        let chainBytes = Array(prefix.prefix(1000 * BrainiacPacket.size))
        let big = committedPackets(chainBytes, order: .be, options: options)
        let little = committedPackets(chainBytes, order: .le, options: options)
        guard little > big else {
            return Decision(byteOrder: .be, packetsBigEndian: big, packetsLittleEndian: little)
        }
        let le = smoothness(prefix, order: .le, options: options)
        let mixed = smoothness(prefix, order: .mixed, options: options)
        return Decision(byteOrder: mixed < le ? .mixed : .le, packetsBigEndian: big, packetsLittleEndian: little,
                        scoreLE: le, scoreMixed: mixed)
    }

    /// Scores an explicit little-endian choice the same way, for the `recordings` table.
    public static func scores(prefix: [UInt8], options: CaptureDecoderOptions) -> (le: Double, mixed: Double) {
        (smoothness(prefix, order: .le, options: options), smoothness(prefix, order: .mixed, options: options))
    }

    private static func decode(_ bytes: [UInt8], order: BrainiacByteOrder,
                               options: CaptureDecoderOptions) -> CaptureDecoder? {
        var settings = options
        settings.byteOrder = order
        settings.gaps = .sdk
        guard var decoder = try? CaptureDecoder(fileSize: bytes.count, options: settings),
              (try? decoder.feed(bytes)) != nil, (try? decoder.finish()) != nil else { return nil }
        return decoder
    }

    private static func committedPackets(_ bytes: [UInt8], order: BrainiacByteOrder,
                                         options: CaptureDecoderOptions) -> Int {
        decode(bytes, order: order, options: options)?.committedPackets ?? 0
    }

    /// Mean |x[n+1] − x[n]| in µV over all channels of the first 2500 samples (within segments).
    private static func smoothness(_ bytes: [UInt8], order: BrainiacByteOrder, options: CaptureDecoderOptions) -> Double {
        guard var decoder = decode(bytes, order: order, options: options) else { return .infinity }
        let samples = decoder.drainSamples().prefix(2500)
        var total = 0.0
        var count = 0
        for (previous, next) in zip(samples, samples.dropFirst()) where previous.segment == next.segment {
            let step = next.nanovolts - previous.nanovolts
            total += step.replacing(with: -step, where: step .< 0).sum()
            count += 4
        }
        return count > 0 ? total / Double(count) / 1000 : .infinity
    }
}
