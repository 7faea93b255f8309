import Foundation

/// The summary statistics of the sessions table (spec §8, §10.2), as R and scipy define them.
public enum DescriptiveStatistics {
    /// The arithmetic mean; `nil` for no values.
    public static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The median: the middle value, or the mean of the middle pair.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The sample standard deviation (n − 1); `nil` for fewer than 2 values.
    public static func standardDeviation(_ values: [Double]) -> Double? {
        guard values.count >= 2, let mean = mean(values) else { return nil }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (squares / Double(values.count - 1)).squareRoot()
    }

    /// The standard error of the mean, sd/√n; `nil` for fewer than 2 values.
    public static func standardError(_ values: [Double]) -> Double? {
        standardDeviation(values).map { $0 / Double(values.count).squareRoot() }
    }

    /// The mean after dropping ⌊fraction·n⌋ sorted values at each end (R `mean(x, trim =)`,
    /// `scipy.stats.trim_mean`); `nil` for no values or when nothing is left.
    public static func trimmedMean(_ values: [Double], fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let cut = Int((fraction * Double(values.count)).rounded(.down))
        guard 2 * cut < values.count else { return nil }
        return mean(Array(values.sorted()[cut..<(values.count - cut)]))
    }

    /// The mean of ln(values) and its standard error (values must be positive; others are left out).
    public static func logMean(_ values: [Double]) -> (mean: Double?, se: Double?) {
        let logs = values.filter { $0 > 0 }.map { Foundation.log($0) }
        return (mean(logs), standardError(logs))
    }
}
