import Tables

/// Per-sample timestamps and the sampling rate, from the packet times (spec §2.2 `interp`, §2.3, T4, T5).
public struct SampleTimeline: Sendable {
    /// Per sample: its time in ms on the message clock (Float64).
    public var sampleMs: [Double]
    /// Per packet: its sample count, in file order.
    public var packetSampleCounts: [Int]
    /// Per packet: its time T_p (the time of its last sample, T4), in ms.
    public var packetMs: [Int64]
    /// `(N − n₀)·1000/(T_last − T₀)`, nil with fewer than two packets or no time span.
    public var fsEstimated: Double?
    /// The nearest standard rate within 1 %, else ``fsEstimated`` (W_FS).
    public var fsNominal: Double?
    /// Packets whose time does not advance past the previous one (their samples get the previous time).
    public var zeroAdvancePackets: Int
    /// W_TS_NONMONO and W_FS rows.
    public var anomalies: [Anomaly]

    /// The standard EEG rates `fs_nominal` snaps to (spec §2.3).
    public static let standardRates: [Double] = [100, 125, 128, 200, 250, 256, 500, 512, 1000, 1024, 2048]

    /// The timeline of `file`'s packets with the message times `times`.
    public init(_ file: SaveFile, times: MessageTimes) {
        packetSampleCounts = []
        packetMs = []
        var packetLines: [Int] = []
        for (index, message) in file.messages.enumerated() {
            if case .dataPacket(_, let count, _) = message.payload {
                packetSampleCounts.append(count)
                packetMs.append(times.tMs[index])
                packetLines.append(message.line)
            }
        }
        anomalies = []
        zeroAdvancePackets = 0
        let total = packetSampleCounts.reduce(0, +)
        if let first = packetMs.first, let last = packetMs.last, last > first {
            fsEstimated = Double(total - packetSampleCounts[0]) * 1000 / Double(last - first)
        } else {
            fsEstimated = nil
        }
        let standard = fsEstimated.flatMap { estimate in
            SampleTimeline.standardRates.min { abs($0 - estimate) < abs($1 - estimate) }
                .flatMap { abs($0 - estimate) <= 0.01 * $0 ? $0 : nil }
        }
        fsNominal = standard ?? fsEstimated
        if let estimate = fsEstimated, standard == nil {
            anomalies.append(Anomaly(sourceFile: file.sourceFile, code: .fs,
                                     message: "estimated sampling rate \(estimate) Hz is not within 1 % of a standard rate: used as is"))
        } else if fsEstimated == nil {
            anomalies.append(Anomaly(sourceFile: file.sourceFile, code: .fs,
                                     message: "the sampling rate cannot be estimated (fewer than two packets with a time span): the first packet's samples all get its time"))
        }
        sampleMs = []
        sampleMs.reserveCapacity(total)
        guard let firstTime = packetMs.first else { return }
        let firstCount = packetSampleCounts[0]
        let period = fsNominal.map { 1000 / $0 } ?? 0
        for j in 1...max(firstCount, 1) where j <= firstCount {
            sampleMs.append(Double(firstTime) - Double(firstCount - j) * period)
        }
        var previous = firstTime
        for packet in 1..<packetMs.count {
            let time = packetMs[packet]
            let count = packetSampleCounts[packet]
            if time <= previous {
                zeroAdvancePackets += 1
                anomalies.append(Anomaly(sourceFile: file.sourceFile, line: packetLines[packet],
                                         code: .tsNonmono,
                                         message: "packet time \(time) ms does not advance past \(previous) ms: its \(count) sample(s) get \(previous) ms"))
                sampleMs.append(contentsOf: repeatElement(Double(previous), count: count))
                continue
            }
            let step = Double(time - previous) / Double(count)
            for j in 1...max(count, 1) where j <= count { sampleMs.append(Double(previous) + step * Double(j)) }
            previous = time
        }
    }

    /// The median sample count per packet.
    public var packetSamplesMedian: Double? { Self.median(packetSampleCounts.map(Double.init)) }

    /// The median step between consecutive packet times, in ms.
    public var packetStepMedianMs: Double? {
        guard packetMs.count > 1 else { return nil }
        return Self.median((1..<packetMs.count).map { Double(packetMs[$0] - packetMs[$0 - 1]) })
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
