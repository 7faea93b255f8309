/// The order statistics the decoder needs, computed as numpy computes them.
enum Statistics {
    /// numpy `median`: the middle value, or the mean of the two middle values.
    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of nothing")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// numpy `percentile(values, q)` with its default linear interpolation, including numpy's way of
    /// interpolating from the upper neighbour when the fraction is at least one half.
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        precondition(!values.isEmpty, "percentile of nothing")
        let sorted = values.sorted()
        let position = q / 100 * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let t = position - Double(lower)
        let a = sorted[lower], b = sorted[upper]
        let difference = b - a
        return t >= 0.5 ? b - difference * (1 - t) : a + difference * t
    }
}
