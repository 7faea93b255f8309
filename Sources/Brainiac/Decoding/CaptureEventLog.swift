/// The events of a capture (the rows of `gaps`), in file order, kept compactly: a 10-hour capture with heavy
/// faults has hundreds of thousands of them, held from decoding until the tables are written.
///
/// Each event is a fixed-size record of 48 bytes (a ``CaptureEvent`` is twice that, plus an array of its own for the
/// skipped bytes), stored in blocks of ``blockSize``, so that the log grows without copying what it holds; the
/// skipped bytes of each block's events share one buffer. Read it as a collection of ``CaptureEvent``s.
public struct CaptureEventLog: RandomAccessCollection, Sendable, Equatable {
    /// Records per block.
    static let blockSize = 512

    /// One event, packed (optionals as flags; its skipped bytes in its block's buffer).
    private struct Record: Sendable {
        var byteOffset: Int64
        var byteCount: Int64
        var counter: Int64
        var sampleIndex: Int64
        var segment: Int32
        var lostPackets: Int32
        var lastOrder: UInt16
        var nextOrder: UInt16
        /// Where the skipped bytes start in the block's buffer (below 512 × 100).
        var prefixStart: UInt16
        /// Bits 0–2 the kind, 3–7 which optionals are present.
        var kindAndFlags: UInt8
        var prefixLength: UInt8
    }

    private struct Block: Sendable {
        var records: [Record] = []
        var prefixes: [UInt8] = []
    }

    private static let kinds = CaptureEvent.Kind.allCases
    private static let hasLastOrder: UInt8 = 1 << 3, hasNextOrder: UInt8 = 1 << 4, hasLostPackets: UInt8 = 1 << 5
    private static let hasCounter: UInt8 = 1 << 6, hasSampleIndex: UInt8 = 1 << 7
    /// The most skipped bytes an event keeps (its `raw`).
    static let prefixLimit = 100

    private var blocks: [Block] = []
    public private(set) var count = 0

    public init() {}

    /// A log of `events`.
    public init(_ events: some Sequence<CaptureEvent>) {
        for event in events { append(event) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> CaptureEvent {
        precondition(index >= 0 && index < count, "event index out of range")
        let block = blocks[index / Self.blockSize]
        let record = block.records[index % Self.blockSize]
        let flags = record.kindAndFlags
        let start = Int(record.prefixStart)
        return CaptureEvent(
            kind: Self.kinds[Int(flags & 7)], segment: Int(record.segment), byteOffset: Int(record.byteOffset),
            byteCount: Int(record.byteCount),
            lastOrder: flags & Self.hasLastOrder != 0 ? record.lastOrder : nil,
            nextOrder: flags & Self.hasNextOrder != 0 ? record.nextOrder : nil,
            lostPackets: flags & Self.hasLostPackets != 0 ? Int(record.lostPackets) : nil,
            counter: flags & Self.hasCounter != 0 ? Int(record.counter) : nil,
            sampleIndex: flags & Self.hasSampleIndex != 0 ? Int(record.sampleIndex) : nil,
            skippedPrefix: Array(block.prefixes[start..<(start + Int(record.prefixLength))]))
    }

    /// Adds an event at the end (at most the first ``prefixLimit`` of its skipped bytes are kept).
    public mutating func append(_ event: CaptureEvent) {
        if count % Self.blockSize == 0 {
            var block = Block()
            block.records.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        let prefix = event.skippedPrefix.prefix(Self.prefixLimit)
        let last = blocks.count - 1
        var flags = UInt8(Self.kinds.firstIndex(of: event.kind) ?? 0)
        if event.lastOrder != nil { flags |= Self.hasLastOrder }
        if event.nextOrder != nil { flags |= Self.hasNextOrder }
        if event.lostPackets != nil { flags |= Self.hasLostPackets }
        if event.counter != nil { flags |= Self.hasCounter }
        if event.sampleIndex != nil { flags |= Self.hasSampleIndex }
        let record = Record(
            byteOffset: Int64(event.byteOffset), byteCount: Int64(event.byteCount),
            counter: Int64(event.counter ?? 0), sampleIndex: Int64(event.sampleIndex ?? 0),
            segment: Int32(truncatingIfNeeded: event.segment),
            lostPackets: Int32(truncatingIfNeeded: event.lostPackets ?? 0),
            lastOrder: event.lastOrder ?? 0, nextOrder: event.nextOrder ?? 0,
            prefixStart: UInt16(blocks[last].prefixes.count), kindAndFlags: flags, prefixLength: UInt8(prefix.count))
        blocks[last].prefixes.append(contentsOf: prefix)
        blocks[last].records.append(record)
        count += 1
    }

    /// Gives the event at `index`, which was waiting for the next committed sample, that sample's place.
    public mutating func resolve(_ index: Int, counter: Int, sampleIndex: Int, segment: Int) {
        precondition(index >= 0 && index < count, "event index out of range")
        let position = index % Self.blockSize
        blocks[index / Self.blockSize].records[position].counter = Int64(counter)
        blocks[index / Self.blockSize].records[position].sampleIndex = Int64(sampleIndex)
        blocks[index / Self.blockSize].records[position].segment = Int32(truncatingIfNeeded: segment)
        blocks[index / Self.blockSize].records[position].kindAndFlags |= Self.hasCounter | Self.hasSampleIndex
    }

    public static func == (lhs: CaptureEventLog, rhs: CaptureEventLog) -> Bool {
        lhs.elementsEqual(rhs)
    }
}
