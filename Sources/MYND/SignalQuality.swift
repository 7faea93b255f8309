/// One 0.5-s window of the app's variance-based signal quality for one channel (spec §6.1).
public struct QualityWindow: Sendable, Equatable {
    /// 0-based window number.
    public var window: Int
    /// Start in s.
    public var start: Double
    /// Population variance of the smoothed signal over the window, µV².
    public var variance: Double
    /// Population variance of the raw samples over the window, µV² (the spec's "raw window variance").
    public var rawVariance: Double
    /// Window quality q: 0 (flat), 110 (v < 150 µV²) or 150/v·100.
    public var quality: Double
    /// Running average A_k = (4·A_{k−1} + q_k)/5, A_0 = 50.
    public var average: Double
}

/// The MYND app's signal quality in variance mode [`ProcessingDelegate.swift`], recomputed offline.
public enum SignalQuality {
    /// The variance below which a window scores 110.
    public static let threshold = 150.0
    /// The running average before the first window.
    public static let initialAverage = 50.0

    /// The quality windows of one channel's raw samples at `rate` Hz: windows of ⌊rate/2⌋ samples, an incomplete
    /// last window dropped. The smoothing weight of window k is A_{k−2}/100 (one window late, unclamped).
    public static func windows(_ samples: [Double], rate: Double) -> [QualityWindow] {
        let length = Int(rate / 2)
        guard length > 0, samples.count >= length else { return [] }
        let count = samples.count / length
        var result: [QualityWindow] = []
        result.reserveCapacity(count)
        var averages = [initialAverage, initialAverage]  // A_{k−2}, A_{k−1} for k = 1
        var smoothed = samples[0]
        for k in 0..<count {
            let weight = averages[0] / 100
            var sum = 0.0, sumSquares = 0.0, rawSum = 0.0, rawSquares = 0.0
            var values = [Double](repeating: 0, count: length)
            for i in 0..<length {
                let t = k * length + i
                if t > 0 { smoothed = (1 - weight) * smoothed + weight * samples[t] }
                values[i] = smoothed
                sum += smoothed
                rawSum += samples[t]
            }
            let rawMean = rawSum / Double(length)
            for i in 0..<length {
                let d = samples[k * length + i] - rawMean
                rawSquares += d * d
            }
            let mean = sum / Double(length)
            for value in values { sumSquares += (value - mean) * (value - mean) }
            let variance = sumSquares / Double(length)
            let quality = variance == 0 ? 0 : variance < threshold ? 110 : threshold / variance * 100
            let average = (4 * averages[1] + quality) / 5
            averages = [averages[1], average]
            result.append(QualityWindow(window: k, start: Double(k * length) / rate, variance: variance,
                                        rawVariance: rawSquares / Double(length), quality: quality, average: average))
        }
        return result
    }

    /// The median of values (mean of the middle two for an even count); `nil` when empty.
    public static func median(_ values: [Double]) -> Double? {
        let finite = values.filter { !$0.isNaN }.sorted()
        guard !finite.isEmpty else { return nil }
        let middle = finite.count / 2
        return finite.count % 2 == 1 ? finite[middle] : (finite[middle - 1] + finite[middle]) / 2
    }
}
