/// Decodes a Brainiac capture as it streams in, resynchronising on order-number continuity (spec §2.2).
///
/// Feed the file in chunks of any size with ``feed(_:)``, take the decoded samples with ``drainSamples()``
/// as you go, and call ``finish()`` after the last chunk. Memory stays bounded: only a window of bytes around the
/// current position is kept. Every byte is accounted for: committed packets × 20 plus the bytes of
/// `leading_bytes`, `resync` and tail events equals the file size.
public struct CaptureDecoder {
    public let options: CaptureDecoderOptions
    /// The file size F (the rules look ahead to it).
    public let fileSize: Int

    /// Events so far, in file order.
    public var events: CaptureEventLog {
        var all = log
        for event in held { all.append(event) }
        return all
    }
    /// The events whose rows are complete.
    private var log = CaptureEventLog()
    /// The events since the last committed packet: those waiting for the next sample (`pendingEvents`), and any
    /// after them, which must follow them in the log.
    private var held: [CaptureEvent] = []
    /// Segments so far, the last one still growing until ``finish()``.
    public private(set) var segments: [CaptureSegment] = []

    private enum Phase {
        case lock(from: Int)
        case follow(candidate: Int)
        case resync(candidate: Int, scan: Int)
        case done
    }

    private var phase: Phase = .lock(from: 0)
    private var window: [UInt8] = []
    /// File offset of `window[0]`.
    private var windowStart = 0
    private var samples: [BrainiacSample] = []
    // State of the current segment.
    private var lastCommitted: (order: UInt16, sampleIndex: Int, values: SIMD4<Double>)?
    private var counter = 0
    private var pendingEvents: [Int] = []   // indices in `held` of events waiting for the next sample
    private var discontinuityPending = false

    public init(fileSize: Int, options: CaptureDecoderOptions) throws(CaptureDecodingError) {
        if fileSize == 0 { throw .empty }
        if fileSize < BrainiacPacket.size { throw .tooShort(bytes: fileSize) }
        self.fileSize = fileSize
        self.options = options
    }

    /// Whether the stream has been fully decoded (possible before the last chunk, once a tail is reached).
    public var isDone: Bool { if case .done = phase { true } else { false } }

    /// The number of committed packets.
    public var committedPackets: Int { segments.reduce(0) { $0 + $1.packets } }

    /// Adds the next bytes of the file and decodes as far as the look-ahead allows.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(CaptureDecodingError) {
        window.append(contentsOf: chunk)
        try advance()
        compactWindow()
    }

    /// Adds the next bytes of the file.
    public mutating func feed(_ bytes: [UInt8]) throws(CaptureDecodingError) {
        window.append(contentsOf: bytes)
        try advance()
        compactWindow()
    }

    /// Decodes what is left once every byte has been fed; the file must have been fed whole.
    public mutating func finish() throws(CaptureDecodingError) {
        guard available == fileSize else { throw .sizeChanged(expected: fileSize, read: available) }
        try advance()
    }

    /// The samples decoded since the last call, in order.
    public mutating func drainSamples() -> [BrainiacSample] {
        let drained = samples
        // A buffer a quarter larger than the last batch, so that the next one is not built by repeated doubling
        // (the drained buffer now belongs to the caller): under --gaps fill a batch with more lost samples than
        // the last one grew to twice its size (64 bytes a sample, 5 MB of a faulty capture's peak).
        samples = []
        samples.reserveCapacity(drained.count + drained.count / 4)
        return drained
    }

    // MARK: Reading the window

    private var available: Int { windowStart + window.count }

    /// The order number at file offset `q`, or `nil` if those bytes have not arrived yet.
    private func order(_ q: Int) -> UInt16? {
        guard q + 2 <= available else { return nil }
        let i = q - windowStart
        let first = UInt16(window[i]), second = UInt16(window[i + 1])
        return options.byteOrder.orderIsLittleEndian ? (second << 8 | first) : (first << 8 | second)
    }

    /// *link(q)*: `Δ(o(q), o(q+20)) = s`; false where q+40 > F; nil while bytes are missing.
    private func link(_ q: Int) -> Bool? {
        guard q + 40 <= fileSize else { return false }
        guard let a = order(q), let b = order(q + 20) else { return nil }
        return OrderNumber.distance(a, b) == options.orderStep
    }

    /// *chain(q, L)*: q + 20L ≤ F and link holds for the L−1 pairs from q.
    private func chain(_ q: Int, _ length: Int) -> Bool? {
        guard q + 20 * length <= fileSize else { return false }
        for k in 0..<(length - 1) {
            guard let linked = link(q + 20 * k) else { return nil }
            if !linked { return false }
        }
        return true
    }

    private func bytes(_ start: Int, _ count: Int) -> [UInt8] {
        let from = max(start, windowStart) - windowStart
        let to = min(start + count, available) - windowStart
        return from < to ? Array(window[from..<to]) : []
    }

    private mutating func compactWindow() {
        let keep: Int
        switch phase {
        case .lock(let from): keep = from
        case .follow(let candidate): keep = candidate
        case .resync(_, let scan): keep = scan
        case .done: keep = available
        }
        let drop = keep - windowStart
        if drop > 1 << 16 {
            window.removeFirst(drop)
            windowStart = keep
        }
    }

    // MARK: The rules

    private mutating func advance() throws(CaptureDecodingError) {
        while true {
            switch phase {
            case .done:
                return
            case .lock(let from):
                guard try stepLock(from) else { return }
            case .follow(let candidate):
                guard stepFollow(candidate) else { return }
            case .resync(let candidate, let scan):
                guard stepResync(candidate, scan) else { return }
            }
        }
    }

    /// Step 1: find the first chain of 4 packets (fewer in a file of fewer whole packets). False: needs bytes.
    private mutating func stepLock(_ from: Int) throws(CaptureDecodingError) -> Bool {
        let wholePackets = fileSize / BrainiacPacket.size
        if fileSize == BrainiacPacket.size {
            guard available >= fileSize else { return false }
            startSegment(at: 0)
            commit(0)
            phase = .done
            return true
        }
        let length = min(4, wholePackets)
        guard length >= 2 else { throw .noPacketStream }
        var q = from
        while q + 20 * length <= fileSize {
            guard let found = chain(q, length) else {
                phase = .lock(from: q)
                return false
            }
            if found {
                if q > 0 {
                    held.append(CaptureEvent(kind: .leadingBytes, segment: 0, byteOffset: 0, byteCount: q,
                                               nextOrder: order(q), skippedPrefix: bytes(0, min(q, 100))))
                    pendingEvents.append(held.count - 1)
                }
                startSegment(at: q)
                segments[0].skippedBytes += q
                phase = .follow(candidate: q)
                return true
            }
            q += 1
        }
        throw .noPacketStream
    }

    /// Step 2: decide about the candidate packet at `c`. False: needs bytes.
    private mutating func stepFollow(_ c: Int) -> Bool {
        let c = commitChained(from: c)
        let r = c + 20
        if r + 20 > fileSize {
            guard available >= r else { return false }
            commit(c)
            let tail = fileSize - r
            if tail > 0 {
                held.append(CaptureEvent(kind: .truncatedTail, segment: segments.count - 1, byteOffset: r,
                                           byteCount: tail, lastOrder: lastCommitted?.order,
                                           skippedPrefix: bytes(r, min(tail, 100))))
                segments[segments.count - 1].truncatedTailBytes += tail
            }
            phase = .done
            return true
        }
        guard let oc = order(c), let or = order(r), available >= r else { return false }
        let delta = OrderNumber.distance(oc, or)
        if delta == options.orderStep {
            commit(c)
            phase = .follow(candidate: r)
            return true
        }
        if let lost = options.plausibleGap(delta) {
            guard let trusted = trusted(r) else { return false }
            if trusted {
                commit(c)
                held.append(CaptureEvent(kind: .gap, segment: segments.count - 1, byteOffset: r, byteCount: 0,
                                           lastOrder: oc, nextOrder: or, lostPackets: lost))
                pendingEvents.append(held.count - 1)
                noteLost(lost)
                phase = .follow(candidate: r)
                return true
            }
        }
        phase = .resync(candidate: c, scan: c + 1)
        return true
    }

    /// Rule 2a for a run of packets: commits each candidate whose successor (not the file's last packet)
    /// follows by exactly the order step. Inside a run nothing but the samples changes from packet to packet
    /// (no gap, no pending event, no new segment), so after the run's first packet the samples are made
    /// straight from the window and the segment's counts are updated once. Returns the first candidate it could
    /// not decide, for the general rules.
    private mutating func commitChained(from start: Int) -> Int {
        var c = start
        let step = options.orderStep, byteOrder = options.byteOrder, fill = options.gaps == .fill
        func chained(_ bytes: UnsafeRawBufferPointer, _ c: Int) -> Bool {
            guard c + 40 <= fileSize && c + 22 <= available else { return false }
            let a = BrainiacPacket.orderNumber(bytes, at: c - windowStart, byteOrder)
            let b = BrainiacPacket.orderNumber(bytes, at: c + 20 - windowStart, byteOrder)
            return OrderNumber.distance(a, b) == step
        }
        if window.withUnsafeBytes({ chained($0, c) }) {
            commit(c)
            c += 20
        }
        guard var last = lastCommitted, pendingEvents.isEmpty, !discontinuityPending else {
            phase = .follow(candidate: c)
            return c
        }
        let segment = segments.count - 1
        var packets = 0, wraps = 0
        // Read through a second reference to the window (no copy: it is not changed meanwhile), so that adding
        // samples to `self` does not overlap an access to `self.window`.
        let window = self.window
        window.withUnsafeBytes { bytes in
            while chained(bytes, c) {
                let packet = BrainiacPacket(bytes, at: c - windowStart, byteOrder)
                let sampleIndex = last.sampleIndex + 2
                if fill { counter = sampleIndex }
                if packet.orderNumber < last.order { wraps += 1 }
                let values = (packet.nanovoltsA, packet.nanovoltsB)
                appendSamples(of: packet, nanovolts: values, segment: segment, sampleIndex: sampleIndex,
                              followsGap: false)
                last = (packet.orderNumber, sampleIndex, values.1)
                packets += 1
                c += 20
            }
        }
        if packets > 0 {
            segments[segment].packets += packets
            segments[segment].samples += 2 * packets
            segments[segment].wraps += wraps
            segments[segment].lastSampleIndex = last.sampleIndex + 1
            lastCommitted = last
        }
        phase = .follow(candidate: c)
        return c
    }

    /// Whether the packet at `r` after a plausible jump can be trusted (rule 2c); nil while bytes are missing.
    private func trusted(_ r: Int) -> Bool? {
        guard let linked = link(r) else { return nil }
        if linked { return true }
        if r + 40 > fileSize { return true }  // the last whole packet
        // A lone packet between two gaps.
        guard let a = order(r), let b = order(r + 20) else { return nil }
        guard options.plausibleGap(OrderNumber.distance(a, b)) != nil else { return false }
        if r + 60 > fileSize { return true }
        return link(r + 20)
    }

    /// Step 2d: find the next chain after `c`. False: needs bytes.
    private mutating func stepResync(_ c: Int, _ scan: Int) -> Bool {
        var q = scan
        while q + 80 <= fileSize {
            guard let found = chain(q, 4) else {
                phase = .resync(candidate: c, scan: q)
                return false
            }
            if found { break }
            q += 1
        }
        if q + 80 > fileSize {
            // No chain: drop c, the rest is an unsynchronised tail.
            guard available >= fileSize else { phase = .resync(candidate: c, scan: q); return false }
            let count = fileSize - c
            held.append(CaptureEvent(kind: .unsyncedTail, segment: segments.count - 1, byteOffset: c,
                                       byteCount: count, lastOrder: lastCommitted?.order,
                                       skippedPrefix: bytes(c, min(count, 100))))
            segments[segments.count - 1].skippedBytes += count
            phase = .done
            return true
        }
        guard let next = order(q) else { return false }
        if q == c + 20 {
            // Alignment intact, numbering jumped: commit c, then a discontinuity.
            commit(c)
            let last = lastCommitted?.order
            markDiscontinuity(at: q, lastOrder: last, nextOrder: next)
        } else {
            // Drop c: byte loss straddling a boundary may have damaged it.
            let count = q - c
            let last = lastCommitted?.order
            var lost: Int?
            if let last {
                let delta = OrderNumber.distance(last, next)
                if delta == options.orderStep { lost = 0 } else { lost = options.plausibleGap(delta) }
            }
            let segment = segments.count - 1
            held.append(CaptureEvent(kind: .resync, segment: segment, byteOffset: c, byteCount: count,
                                       lastOrder: last, nextOrder: next, lostPackets: lost,
                                       skippedPrefix: bytes(c, min(count, 100))))
            pendingEvents.append(held.count - 1)
            segments[segment].skippedBytes += count
            if let lost {
                noteLost(lost)
            } else if last != nil {
                markDiscontinuity(at: q, lastOrder: last, nextOrder: next)
            }
        }
        phase = .follow(candidate: q)
        return true
    }

    private mutating func noteLost(_ lost: Int) {
        segments[segments.count - 1].lostPackets += lost
        segments[segments.count - 1].lostSamples += 2 * lost
    }

    private mutating func markDiscontinuity(at q: Int, lastOrder: UInt16?, nextOrder: UInt16) {
        let newSegment = options.splitSegments ? segments.count : segments.count - 1
        held.append(CaptureEvent(kind: .discontinuity, segment: newSegment, byteOffset: q, byteCount: 0,
                                   lastOrder: lastOrder, nextOrder: nextOrder))
        pendingEvents.append(held.count - 1)
        discontinuityPending = true
    }

    // MARK: Committing packets

    private mutating func startSegment(at offset: Int) {
        segments.append(CaptureSegment(segment: segments.count, byteOffset: offset))
        lastCommitted = nil
        counter = 0
    }

    private mutating func commit(_ c: Int) {
        let packet = window.withUnsafeBytes { BrainiacPacket($0, at: c - windowStart, options.byteOrder) }
        if discontinuityPending {
            discontinuityPending = false
            if options.splitSegments {
                startSegment(at: c)
            } else if let last = lastCommitted {
                // --no-split: the device clock continues by +1 across the discontinuity.
                lastCommitted = (packet.orderNumber &- UInt16(truncatingIfNeeded: options.orderStep),
                                 last.sampleIndex, last.values)
            }
        }
        let segment = segments.count - 1
        let valuesA = packet.nanovoltsA, valuesB = packet.nanovoltsB
        var sampleIndex = 0
        var followsGap = false
        if let last = lastCommitted {
            let steps = max(1, OrderNumber.distance(last.order, packet.orderNumber) / max(1, options.orderStep))
            sampleIndex = last.sampleIndex + 2 * steps
            followsGap = steps > 1
            if packet.orderNumber < last.order { segments[segment].wraps += 1 }
            if followsGap && options.gaps == .fill {
                insertFilled(segment: segment, from: last, toIndex: sampleIndex, toValues: valuesA)
            }
        }
        if options.gaps == .fill { counter = sampleIndex }
        for index in pendingEvents {
            held[index].counter = counter
            held[index].sampleIndex = sampleIndex
            held[index].segment = segment
        }
        pendingEvents.removeAll()
        for event in held { log.append(event) }
        held.removeAll(keepingCapacity: true)
        appendSamples(of: packet, nanovolts: (valuesA, valuesB), segment: segment, sampleIndex: sampleIndex,
                      followsGap: followsGap)
        segments[segment].packets += 1
        segments[segment].samples += 2
        segments[segment].lastSampleIndex = sampleIndex + 1
        lastCommitted = (packet.orderNumber, sampleIndex, valuesB)
    }

    /// Samples A and B of a committed packet, with their values in nV (scaled once by the caller, which also
    /// keeps sample B's); the counter moves on by 2.
    private mutating func appendSamples(of packet: BrainiacPacket, nanovolts: (a: SIMD4<Double>, b: SIMD4<Double>),
                                        segment: Int, sampleIndex: Int, followsGap: Bool) {
        var a = BrainiacSample(segment: segment, sampleIndex: sampleIndex, counter: counter,
                               orderNumber: packet.orderNumber, byte2: packet.byte2, byte11: packet.byte11,
                               nanovolts: nanovolts.a)
        a.followsGap = followsGap
        samples.append(a)
        samples.append(BrainiacSample(segment: segment, sampleIndex: sampleIndex + 1, counter: counter + 1,
                                      orderNumber: packet.orderNumber &+ 1, byte2: packet.byte2,
                                      byte11: packet.byte11, nanovolts: nanovolts.b))
        counter += 2
    }

    /// `--gaps fill`: the lost samples between the last received one and the next, by linear interpolation.
    private mutating func insertFilled(segment: Int, from last: (order: UInt16, sampleIndex: Int, values: SIMD4<Double>),
                                       toIndex: Int, toValues: SIMD4<Double>) {
        let lastIndex = last.sampleIndex + 1   // sample B of the last packet
        let span = Double(toIndex - lastIndex)
        for index in (lastIndex + 1)..<toIndex {
            let fraction = Double(index - lastIndex) / span
            let values = last.values + (toValues - last.values) * fraction
            let order = last.order &+ UInt16(truncatingIfNeeded: 1 + index - lastIndex)
            samples.append(BrainiacSample(segment: segment, sampleIndex: index, counter: index, orderNumber: order,
                                          byte2: 0, byte11: 0, nanovolts: values, filled: true))
        }
    }
}
