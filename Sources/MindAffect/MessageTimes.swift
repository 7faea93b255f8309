import Tables

/// Which clock gives a message's time (spec §2.1, `--clock`).
public enum ClockChoice: String, Sendable, Codable, CaseIterable {
    /// The unwrapped `sts`, or `rts` where they differ by more than the tolerance (T3).
    case sts
    /// The unwrapped hub receive time.
    case rts
}

/// The time of every message on one unwrapped millisecond clock (spec §1.4, T2, T3, §2.1).
public struct MessageTimes: Sendable {
    /// Per message: the unwrapped `rts` (Int64 ms).
    public var rtsMs: [Int64]
    /// Per message: its time `t_ms` (unwrapped `sts`, or `rts` under T3 or `--clock rts`).
    public var tMs: [Int64]
    /// Per message: whether `rts` replaced `sts` (T3).
    public var stsFallback: [Bool]
    /// The first parsed line's `rts`: `t_s = (t_ms − rts₀)/1000`.
    public var rtsOrigin: Int64
    /// W_STS (one row per client and NAME, with its count) and W_CLOCK_BACK rows.
    public var anomalies: [Anomaly]

    /// The largest |sts − rts| in ms for which `sts` is trusted (T3).
    public static let stsToleranceMs: Int64 = 1000
    private static let wrap: Int64 = 1 << 32
    private static let halfWrap: Int64 = 1 << 31

    /// Unwraps `rts` in file order (adding 2^32 whenever it drops by more than 2^31) and places `sts` beside it:
    /// `sts_unwrapped = rts_unwrapped + (sts − rts as a signed 32-bit difference)`. The first `rts` is read as
    /// unsigned (the low 32 bits of epoch ms, 0 … 2^32−1), so times are non-negative.
    public init(_ file: SaveFile, clock: ClockChoice = .sts) {
        let count = file.messages.count
        rtsMs = []
        tMs = []
        stsFallback = []
        rtsMs.reserveCapacity(count)
        tMs.reserveCapacity(count)
        stsFallback.reserveCapacity(count)
        anomalies = []
        var offset: Int64 = 0
        var previousRaw: Int64? = nil
        var previousUnwrapped: Int64? = nil
        var fallbacks: [String: (line: Int, count: Int, client: Int, name: String)] = [:]
        var fallbackOrder: [String] = []
        if let first = file.messages.first, first.rts < 0 { offset = MessageTimes.wrap }
        for message in file.messages {
            let raw = Int64(message.rts)
            if let previousRaw, previousRaw - raw > MessageTimes.halfWrap { offset += MessageTimes.wrap }
            if let previousRaw, raw - previousRaw > MessageTimes.halfWrap { offset -= MessageTimes.wrap }
            previousRaw = raw
            let rts = raw + offset
            if let previousUnwrapped, previousUnwrapped - rts > MessageTimes.stsToleranceMs {
                anomalies.append(Anomaly(sourceFile: file.sourceFile, line: message.line,
                                         code: .clockBack,
                                         message: "rts falls by \(previousUnwrapped - rts) ms from the previous line"))
            }
            previousUnwrapped = max(previousUnwrapped ?? rts, rts)
            let difference = Int64(Int32(truncatingIfNeeded: message.sts &- message.rts))
            let fallback = abs(difference) > MessageTimes.stsToleranceMs
            rtsMs.append(rts)
            stsFallback.append(fallback)
            tMs.append(clock == .rts || fallback ? rts : rts + difference)
            if fallback {
                let key = "\(message.client) \(message.name)"
                if let entry = fallbacks[key] { fallbacks[key] = (entry.line, entry.count + 1, entry.client, entry.name) }
                else {
                    fallbacks[key] = (message.line, 1, message.client, message.name)
                    fallbackOrder.append(key)
                }
            }
        }
        rtsOrigin = rtsMs.first ?? 0
        for key in fallbackOrder {
            guard let entry = fallbacks[key] else { continue }
            anomalies.append(Anomaly(sourceFile: file.sourceFile, line: entry.line, code: .sts,
                                     message: "\(entry.count) \(entry.name) message(s) from \(file.clients[entry.client]) have |sts − rts| > \(MessageTimes.stsToleranceMs) ms: rts used (first at this line)"))
        }
    }

    /// Seconds since the first line's `rts`.
    public func seconds(_ milliseconds: Double) -> Double { (milliseconds - Double(rtsOrigin)) / 1000 }
}
