/// Per-sample timestamps as PMB's offline loader makes them (spec §2.2 `pymindaffect`, compat): packet `sts`
/// mod 2^24 (unwrapped), de-jittered by ``LowerBoundTracker`` against the cumulative sample count, then split
/// evenly (truncated to integer ms) between consecutive packet times; every first-packet sample gets T₀.
public struct PymindaffectTimestamps: Sendable {
    /// Per sample: the compat time in integer ms on PMB's clock (sts mod 2^24, unwrapped).
    public var sampleTs: [Int64]
    /// Adding this to a compat time gives the message clock of ``MessageTimes`` (a multiple of 2^24).
    public var offsetToMessageClock: Int64
    /// PMB's sampling-rate estimate from every 1000th sample time: 1000 samples per median step
    /// (spec §2.3 writes `1000/median(diff(ts[::1000]))`, which is this rate in kHz; it quotes 200.0 Hz).
    public var fsCompat: Double?

    /// The largest |packet time − fitted time| in ms for which the fitted time is used (PMB `max_delta`).
    public static let maxDeltaMs = 200.0
    static let modulus: Int64 = 1 << 24

    public init(_ file: SaveFile, times: MessageTimes) {
        var raw: [Int64] = []
        var counts: [Int] = []
        var firstPacketMessage: Int?
        for (index, message) in file.messages.enumerated() {
            if case .dataPacket(_, let count, _) = message.payload {
                raw.append(Int64(message.sts) & (Self.modulus - 1))
                counts.append(count)
                if firstPacketMessage == nil { firstPacketMessage = index }
            }
        }
        let packetTs = Self.unwrap(raw)
        if let first = firstPacketMessage, let firstTs = packetTs.first {
            // The message clock's sts for the first packet (its own sts, not the W_STS rts fallback).
            let sts = times.rtsMs[first] + Int64(Int32(truncatingIfNeeded: file.messages[first].sts &- file.messages[first].rts))
            offsetToMessageClock = sts - firstTs
        } else {
            offsetToMessageClock = 0
        }
        var tracker = LowerBoundTracker()
        var samples: [Int64] = []
        samples.reserveCapacity(counts.reduce(0, +))
        var last: Double?
        var total = 0
        for (packet, count) in counts.enumerated() {
            var time = Double(packetTs[packet])
            let previous = last ?? time
            total += count
            let fitted = tracker.transform(x: Double(total), y: time)
            if abs(time - fitted) < Self.maxDeltaMs { time = fitted.rounded(.towardZero) }
            let step = (time - previous) / Double(count)
            for j in 1...max(count, 1) where j <= count {
                let value = j == count ? time : Double(j) * step + previous
                samples.append(Int64(value.rounded(.towardZero)))
            }
            last = time
        }
        sampleTs = samples
        let strided = stride(from: 0, to: samples.count, by: 1000).map { Double(samples[$0]) }
        if strided.count > 1 {
            let median = LowerBoundTracker.median((1..<strided.count).map { strided[$0] - strided[$0 - 1] })
            fsCompat = median > 0 ? 1000 * 1000 / median : nil
        } else {
            fsCompat = nil
        }
    }

    /// PMB `unwrap`: add the next power of two above the maximum wherever the series steps down.
    static func unwrap(_ values: [Int64]) -> [Int64] {
        guard let maximum = values.max(), maximum > 0 else { return values }
        var range: Int64 = 1
        while range <= maximum { range <<= 1 }
        var offset: Int64 = 0
        var result: [Int64] = []
        result.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            if index > 0, value < values[index - 1] - range / 2 { offset += range }
            result.append(value + offset)
        }
        return result
    }
}
