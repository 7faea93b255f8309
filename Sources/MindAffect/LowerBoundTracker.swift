/// PMB's `lower_bound_tracker` as the spec describes it (§2.2 `pymindaffect`, steps 1–6): a sliding-window line
/// from cumulative sample count x to packet time y, fitted by iteratively reweighted least squares that treats
/// late packets (y above the line) as outliers, with step detection.
struct LowerBoundTracker {
    /// The number of (x, y) pairs kept.
    let windowSize = 200
    /// Below this many pairs the slope is the median of the pairwise slopes.
    let warmupSize = 10
    /// Positive errors above this are down-weighted by √(c/e).
    let positiveCost = 0.1
    /// Errors above the mean by more than this many mean absolute deviations get weight 0.
    let outlierThreshold = 1.0
    /// The tail length for step detection, and its threshold in standard deviations.
    let stepSize = 10
    let stepThreshold = 2.0

    private(set) var slope: Double
    private(set) var intercept = 0.0
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var started = false

    init(initialSlope: Double = 1) { slope = initialSlope }

    /// Adds a pair and returns the fitted y at x (the first pair is returned unchanged).
    mutating func transform(x: Double, y: Double) -> Double {
        guard started else {
            started = true
            xs = [x]
            ys = [y]
            intercept = y - slope * x
            return y
        }
        xs.append(x)
        ys.append(y)
        if xs.count > windowSize {
            xs.removeFirst(xs.count - windowSize)
            ys.removeFirst(ys.count - windowSize)
        }
        update()
        return slope * x + intercept
    }

    private mutating func update() {
        let count = xs.count
        if count > 0 && count < warmupSize {
            if count > 2 {
                var slopes: [Double] = []
                for index in 1..<count {
                    let dy: Double = ys[index] - ys[index - 1]
                    let dx: Double = xs[index] - xs[index - 1]
                    slopes.append(dy / dx)
                }
                slope = Self.median(slopes)
            }
            intercept = ys[count - 1] - slope * xs[count - 1]
            return
        }
        // x is the cumulative sample count, so the window is already in order.
        let middle = count / 2
        let medianX = count % 2 == 1 ? xs[middle] : (xs[middle - 1] + xs[middle]) / 2
        let medianY = Self.median(ys)
        let x = xs.map { $0 - medianX }, y = ys.map { $0 - medianY }
        var a = slope
        // The previous line's intercept in the centred coordinates: b + a·median(x) − median(y) (PMB `b0`).
        var b = intercept + slope * medianX - medianY
        var errors = [Double](repeating: 0, count: count)
        var sqrtWeights = [Double](repeating: 1, count: count)
        for _ in 0..<3 {
            for index in 0..<count { errors[index] = y[index] - (x[index] * a + b) }
            let meanError = errors.reduce(0, +) / Double(count)
            let scale = errors.reduce(0) { $0 + abs($1 - meanError) } / Double(count)
            for index in 0..<count {
                let error = errors[index]
                var weight = error > positiveCost ? (positiveCost / error).squareRoot() : 1
                if error - meanError > outlierThreshold * scale { weight = 0 }
                sqrtWeights[index] = weight
            }
            (a, b) = Self.weightedLine(x: x, y: y, sqrtWeights: sqrtWeights) ?? (a, b)
        }
        slope = a
        intercept = b - a * medianX + medianY
        if count > 2 * stepSize {
            let earlier = Array(errors[..<(count - stepSize)])
            let mean = earlier.reduce(0, +) / Double(earlier.count)
            let deviation = (earlier.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(earlier.count)).squareRoot()
            let centre = Self.median(earlier)
            let tail = Self.median(Array(errors[(count - stepSize)...]))
            if tail > centre + stepThreshold * deviation || tail < centre - stepThreshold * deviation {
                xs.removeAll()
                ys.removeAll()
            }
        }
    }

    /// Least squares of y·√w on [x·√w, √w] by a 2 × 2 orthogonal (Givens) reduction; nil if degenerate.
    static func weightedLine(x: [Double], y: [Double], sqrtWeights: [Double]) -> (Double, Double)? {
        // Accumulate the R factor of the n × 2 design and Qᵀy with Givens rotations (numerically like lstsq).
        var r11 = 0.0, r12 = 0.0, r22 = 0.0, q1 = 0.0, q2 = 0.0
        for index in x.indices {
            var u = x[index] * sqrtWeights[index], v = sqrtWeights[index], t = y[index] * sqrtWeights[index]
            // Rotate (u, v, t) into the first row.
            let h1 = (r11 * r11 + u * u).squareRoot()
            if h1 > 0 {
                let c = r11 / h1, s = u / h1
                let newR12 = c * r12 + s * v, newQ1 = c * q1 + s * t
                v = -s * r12 + c * v
                t = -s * q1 + c * t
                r11 = h1; r12 = newR12; q1 = newQ1
                u = 0
            }
            let h2 = (r22 * r22 + v * v).squareRoot()
            if h2 > 0 {
                let c = r22 / h2, s = v / h2
                q2 = c * q2 + s * t
                r22 = h2
            }
        }
        guard r11 != 0, r22 != 0 else { return nil }
        let b = q2 / r22
        let a = (q1 - r12 * b) / r11
        return (a, b)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
