/// Small transformations that keep plots light: fewer points for long series, runs of equal values as one
/// rectangle, a time unit that suits the span.
public enum PlotData {
    /// `(xs, ys)` reduced to at most `limit` points by averaging consecutive groups of equal size (NaN values
    /// skipped; a group of only NaN stays NaN, breaking the line). Unchanged when already short enough.
    public static func reduced(xs: [Double], ys: [Double], limit: Int) -> (xs: [Double], ys: [Double]) {
        precondition(xs.count == ys.count, "reduced: x and y differ in length")
        guard limit > 0, xs.count > limit else { return (xs, ys) }
        let group = (xs.count + limit - 1) / limit
        var outX: [Double] = [], outY: [Double] = []
        var start = 0
        while start < xs.count {
            let end = min(xs.count, start + group)
            var sx = 0.0, sy = 0.0, ny = 0
            for i in start..<end {
                sx += xs[i]
                if ys[i].isFinite { sy += ys[i]; ny += 1 }
            }
            outX.append(sx / Double(end - start))
            outY.append(ny > 0 ? sy / Double(ny) : .nan)
            start = end
        }
        return (outX, outY)
    }

    /// Runs of equal `values` in order: each run's first and last index and its value.
    public static func runs<T: Equatable>(_ values: [T]) -> [(first: Int, last: Int, value: T)] {
        var result: [(first: Int, last: Int, value: T)] = []
        for (index, value) in values.enumerated() {
            if let tail = result.last, tail.value == value, tail.last == index - 1 {
                result[result.count - 1].last = index
            } else {
                result.append((index, index, value))
            }
        }
        return result
    }

    /// A time unit for a span in seconds: seconds up to 10 minutes, minutes up to 10 hours, hours beyond.
    public static func timeUnit(forSpan seconds: Double) -> (unit: String, divisor: Double) {
        if seconds <= 600 { return ("s", 1) }
        if seconds <= 36_000 { return ("min", 60) }
        return ("h", 3600)
    }

    /// Text for a duration: `42.5 s`, `12.3 min`, `1.52 h`.
    public static func duration(_ seconds: Double) -> String {
        let (unit, divisor) = timeUnit(forSpan: seconds)
        return Markup.value(seconds / divisor, significant: 3) + " " + unit
    }

    /// A percentage with two decimals.
    public static func percent(_ share: Double) -> String {
        share.isFinite ? Markup.number(100 * share, decimals: 2) + " %" : "NA"
    }
}
