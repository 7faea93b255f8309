/// `--byte-order`: a fixed byte order, or `auto` (spec §2.4).
public enum ByteOrderChoice: String, Sendable, Codable, CaseIterable {
    case auto, be, le, mixed
}

/// A whole capture decoded as it streams in: settles the byte order on the file's first bytes, then runs the
/// ``CaptureDecoder``. Feed it the file's chunks in order; it hands back the samples decoded so far.
public struct CaptureStream {
    public let fileSize: Int
    public let choice: ByteOrderChoice
    private var options: CaptureDecoderOptions
    private var prefix: [UInt8] = []
    /// Replaced once the byte order is settled (`started`). Not optional: mutating through an optional
    /// copied the decoder, and with it its whole byte window, on every chunk.
    private var decoder: CaptureDecoder
    private var started = false
    /// The byte order used and the evidence for it (set once enough bytes have arrived).
    public private(set) var decision: ByteOrderDetector.Decision?

    public init(fileSize: Int, byteOrder: ByteOrderChoice, options: CaptureDecoderOptions) throws(CaptureDecodingError) {
        if fileSize == 0 { throw .empty }
        if fileSize < BrainiacPacket.size { throw .tooShort(bytes: fileSize) }
        self.fileSize = fileSize
        self.choice = byteOrder
        self.options = options
        decoder = try CaptureDecoder(fileSize: fileSize, options: options)
    }

    /// Adds the next chunk; returns the samples decoded so far.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(CaptureDecodingError) -> [BrainiacSample] {
        if !started {
            prefix.append(contentsOf: chunk)
            let needed = min(fileSize, ByteOrderDetector.prefixLength)
            guard prefix.count >= needed else { return [] }
            try start()
            return try drain()
        }
        try decoder.feed(chunk)
        return try drain()
    }

    /// Decodes the rest after the last chunk; returns the last samples.
    public mutating func finish() throws(CaptureDecodingError) -> [BrainiacSample] {
        if !started { try start() }
        try decoder.finish()
        return try drain()
    }

    /// Gap, resync, discontinuity and skipped-range events, in file order.
    public var eventLog: CaptureEventLog { started ? decoder.events : CaptureEventLog() }
    /// The same events as an array (for small captures and tests).
    public var events: [CaptureEvent] { Array(eventLog) }
    /// The segments found.
    public var segments: [CaptureSegment] { started ? decoder.segments : [] }
    /// The decoder options in force (with the byte order chosen).
    public var decoderOptions: CaptureDecoderOptions { options }

    private mutating func start() throws(CaptureDecodingError) {
        switch choice {
        case .auto:
            let chosen = ByteOrderDetector.detect(prefix: prefix, fileSize: fileSize, options: options)
            decision = chosen
        case .be, .le, .mixed:
            let order = BrainiacByteOrder(rawValue: choice.rawValue) ?? .be
            var fixed = ByteOrderDetector.Decision(byteOrder: order, packetsBigEndian: 0, packetsLittleEndian: 0)
            if order != .be {
                let scores = ByteOrderDetector.scores(prefix: prefix, options: options)
                fixed.scoreLE = scores.le
                fixed.scoreMixed = scores.mixed
            }
            decision = fixed
        }
        options.byteOrder = decision?.byteOrder ?? .be
        decoder = try CaptureDecoder(fileSize: fileSize, options: options)
        started = true
        try decoder.feed(prefix)
        prefix = []
    }

    private mutating func drain() throws(CaptureDecodingError) -> [BrainiacSample] {
        started ? decoder.drainSamples() : []
    }
}
