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
    /// Reused by the median of the packet times.
    private var scratch: [Double] = []

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
        let medianY = Self.selectMedian(ys, scratch: &scratch)
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
            let centre = Self.selectMedian(earlier, scratch: &scratch)
            let tail = Self.selectMedian(Array(errors[(count - stepSize)...]), scratch: &scratch)
            if tail > centre + stepThreshold * deviation || tail < centre - stepThreshold * deviation {
                xs.removeAll()
                ys.removeAll()
            }
        }
    }

    /// Least squares of y·√w on [x·√w, √w] by a 2 × 2 orthogonal (Givens) reduction; nil if degenerate.
    static func weightedLine(x: [Double], y: [Double], sqrtWeights: [Double]) -> (Double, Double)? {
        // The 2 × 2 normal equations of the weighted fit y ≈ a·x + b (x and y are centred on their medians, so the
        // sums stay small and the solution agrees with a QR least-squares fit to far below a millisecond).
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for index in x.indices {
            let w = sqrtWeights[index] * sqrtWeights[index]
            if w == 0 { continue }
            sw += w
            sx += w * x[index]
            sy += w * y[index]
            sxx += w * x[index] * x[index]
            sxy += w * x[index] * y[index]
        }
        let determinant = sw * sxx - sx * sx
        guard sw > 0, determinant > 0 else { return nil }
        let a = (sw * sxy - sx * sy) / determinant
        let b = (sy - a * sx) / sw
        return (a, b)
    }

    /// The median by selection (no full sort), in `scratch`.
    static func selectMedian(_ values: [Double], scratch: inout [Double]) -> Double {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: values)
        let count = scratch.count, middle = count / 2
        return scratch.withUnsafeMutableBufferPointer { buffer in
            let upper = select(buffer, middle)
            guard count % 2 == 0 else { return upper }
            // The largest value below the middle one: the maximum of the lower part after the selection.
            var lower = buffer[0]
            for index in 1..<middle where buffer[index] > lower { lower = buffer[index] }
            return (lower + upper) / 2
        }
    }

    /// Hoare's selection: the k-th smallest value; afterwards every value before index k is at most it.
    static func select(_ buffer: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var low = 0, high = buffer.count - 1
        while low < high {
            let pivot = buffer[(low + high) / 2]
            var i = low, j = high
            while i <= j {
                while buffer[i] < pivot { i += 1 }
                while buffer[j] > pivot { j -= 1 }
                if i <= j { buffer.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return buffer[k]
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
