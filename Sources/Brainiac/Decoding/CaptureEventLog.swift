/// The events of a capture (the rows of `gaps`), in file order, kept compactly: a 10-hour capture with heavy
/// faults has hundreds of thousands of them, held from decoding until the tables are written.
///
/// Events follow each other closely (a gap's offset, order numbers and sample positions are a few packets on from
/// the last one's), so each is stored as its differences from the one before, as variable-length integers (LEB128,
/// signed ones zigzag-encoded), with its skipped bytes (at most ``prefixLimit``): a gap takes 12–16 bytes instead
/// of a ``CaptureEvent``'s 96 and its array. The bytes are kept in blocks of ``blockSize`` events, each decodable on
/// its own, so that the log grows without copying what it holds. Read it in order (it is a `Sequence`), or in
/// slices with ``forEachSlice(of:_:)``.
public struct CaptureEventLog: Sequence, Sendable, Equatable {
    /// Events per block.
    static let blockSize = 4096
    /// The most skipped bytes an event keeps (its `raw`).
    public static let prefixLimit = 100

    private var blocks: [[UInt8]] = []
    /// The last event appended (differences are taken from it; reset at each block).
    private var previous = Previous()
    public private(set) var count = 0

    /// What an event's fields are encoded against.
    private struct Previous {
        var segment = 0, byteOffset = 0, order: UInt16 = 0, counter = 0, sampleIndex = 0
    }

    private static let kinds = CaptureEvent.Kind.allCases
    private static let hasLastOrder: UInt8 = 1 << 3, hasNextOrder: UInt8 = 1 << 4, hasLostPackets: UInt8 = 1 << 5
    private static let hasCounter: UInt8 = 1 << 6, hasSampleIndex: UInt8 = 1 << 7

    public init() {}

    /// A log of `events`.
    public init(_ events: some Sequence<CaptureEvent>) {
        for event in events { append(event) }
    }

    public var isEmpty: Bool { count == 0 }
    public var underestimatedCount: Int { count }

    /// Adds an event at the end (at most the first ``prefixLimit`` of its skipped bytes are kept).
    public mutating func append(_ event: CaptureEvent) {
        if count % Self.blockSize == 0 {
            blocks.append([])
            previous = Previous()
        }
        var bytes: [UInt8] = []
        swap(&bytes, &blocks[blocks.count - 1])
        var flags = UInt8(Self.kinds.firstIndex(of: event.kind) ?? 0)
        if event.lastOrder != nil { flags |= Self.hasLastOrder }
        if event.nextOrder != nil { flags |= Self.hasNextOrder }
        if event.lostPackets != nil { flags |= Self.hasLostPackets }
        if event.counter != nil { flags |= Self.hasCounter }
        if event.sampleIndex != nil { flags |= Self.hasSampleIndex }
        bytes.append(flags)
        Self.putSigned(event.segment - previous.segment, &bytes)
        Self.putSigned(event.byteOffset - previous.byteOffset, &bytes)
        Self.putSigned(event.byteCount, &bytes)
        if let last = event.lastOrder {
            Self.put(UInt64(last &- previous.order), &bytes)
            previous.order = last
        }
        if let next = event.nextOrder {
            Self.put(UInt64(next &- previous.order), &bytes)
            previous.order = next
        }
        if let lost = event.lostPackets { Self.putSigned(lost, &bytes) }
        if let counter = event.counter {
            Self.putSigned(counter - previous.counter, &bytes)
            previous.counter = counter
        }
        if let index = event.sampleIndex {
            Self.putSigned(index - previous.sampleIndex, &bytes)
            previous.sampleIndex = index
        }
        let prefix = event.skippedPrefix.prefix(Self.prefixLimit)
        Self.put(UInt64(prefix.count), &bytes)
        bytes.append(contentsOf: prefix)
        previous.segment = event.segment
        previous.byteOffset = event.byteOffset
        swap(&bytes, &blocks[blocks.count - 1])
        count += 1
    }

    /// Hands the events to `body` in slices of at most `rows` (one empty slice for none): for making a table in
    /// batches without making every row at once.
    public func forEachSlice(of rows: Int, _ body: ([CaptureEvent]) throws -> Void) rethrows {
        var slice: [CaptureEvent] = []
        slice.reserveCapacity(Swift.min(rows, count))
        var any = false
        for event in self {
            slice.append(event)
            if slice.count == rows {
                try body(slice)
                any = true
                slice.removeAll(keepingCapacity: true)
            }
        }
        if !slice.isEmpty || !any { try body(slice) }
    }

    public func makeIterator() -> Iterator { Iterator(blocks: blocks) }

    /// Decodes the events in order.
    public struct Iterator: IteratorProtocol {
        private let blocks: [[UInt8]]
        private var block = 0
        private var offset = 0
        private var previous = Previous()

        fileprivate init(blocks: [[UInt8]]) { self.blocks = blocks }

        public mutating func next() -> CaptureEvent? {
            while block < blocks.count && offset >= blocks[block].count {
                block += 1
                offset = 0
                previous = Previous()
            }
            guard block < blocks.count else { return nil }
            return blocks[block].withUnsafeBufferPointer { bytes in
                let flags = bytes[offset]
                offset += 1
                let segment = previous.segment + CaptureEventLog.signed(bytes, &offset)
                let byteOffset = previous.byteOffset + CaptureEventLog.signed(bytes, &offset)
                let byteCount = CaptureEventLog.signed(bytes, &offset)
                var lastOrder: UInt16?, nextOrder: UInt16?, lost: Int?, counter: Int?, sampleIndex: Int?
                if flags & CaptureEventLog.hasLastOrder != 0 {
                    lastOrder = previous.order &+ UInt16(truncatingIfNeeded: CaptureEventLog.unsigned(bytes, &offset))
                    previous.order = lastOrder ?? 0
                }
                if flags & CaptureEventLog.hasNextOrder != 0 {
                    nextOrder = previous.order &+ UInt16(truncatingIfNeeded: CaptureEventLog.unsigned(bytes, &offset))
                    previous.order = nextOrder ?? 0
                }
                if flags & CaptureEventLog.hasLostPackets != 0 { lost = CaptureEventLog.signed(bytes, &offset) }
                if flags & CaptureEventLog.hasCounter != 0 {
                    previous.counter += CaptureEventLog.signed(bytes, &offset)
                    counter = previous.counter
                }
                if flags & CaptureEventLog.hasSampleIndex != 0 {
                    previous.sampleIndex += CaptureEventLog.signed(bytes, &offset)
                    sampleIndex = previous.sampleIndex
                }
                let length = Int(CaptureEventLog.unsigned(bytes, &offset))
                let prefix = Array(bytes[offset..<(offset + length)])
                offset += length
                previous.segment = segment
                previous.byteOffset = byteOffset
                return CaptureEvent(kind: CaptureEventLog.kinds[Int(flags & 7)], segment: segment,
                                    byteOffset: byteOffset, byteCount: byteCount, lastOrder: lastOrder,
                                    nextOrder: nextOrder, lostPackets: lost, counter: counter,
                                    sampleIndex: sampleIndex, skippedPrefix: prefix)
            }
        }
    }

    public static func == (lhs: CaptureEventLog, rhs: CaptureEventLog) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    // MARK: Variable-length integers

    private static func put(_ value: UInt64, _ bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func putSigned(_ value: Int, _ bytes: inout [UInt8]) {
        let wide = Int64(value)
        put(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)), &bytes)
    }

    private static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private static func signed(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Int {
        let value = unsigned(bytes, &offset)
        return Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
    }
}
