import Foundation

/// Cumulative output scores turned into z-scores and target probabilities (pymindaffectBCI
/// `normalizeOutputScores`, `estimate_Fy_noise_variance`, `zscore2Ptgt_softmax`, `calibrate_softmaxscale`).
public enum ScoreNormalisation {
    /// The prior's weight in samples and the start-up correction's length (`priorweight`, `startup_correction`).
    public static let priorWeight = 200.0
    public static let startupCorrection = 100.0
    /// The shortest integration before the first decision point (`minDecisLen`).
    public static let minDecisionLength = 100
    /// The softmax scales tried by the calibration.
    public static let softmaxScales: [Double] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 7, 10, 15, 20, 30]

    /// The bias correction of a standard deviation estimated from n values (c4, series form).
    static func c4(_ n: Double) -> Double {
        let m = max(1.0, n)
        return 1 - 1 / 4 * (1 / m) - 7 / 32 * (1 / (m * m)) - 19 / 128 * (1 / (m * m * m))
    }

    /// The per-trial noise variance of the cumulative scores (`estimate_Fy_noise_variance`, without prior): the
    /// running mean over samples of the across-output variance of the (output-centred) cumulative score per sample
    /// integrated, at the trial's last valid sample; nil for a trial without scores. The median over trials is σ₀².
    public static func noiseVariance(_ fy: OutputScores, trial: Int, length: Int) -> Double? {
        let rows = (0..<length).filter { s in (0..<fy.outputs).contains { fy[trial, s, $0] != 0 } }
        let columns = (0..<fy.outputs).filter { y in rows.contains { fy[trial, $0, y] != 0 } }
        guard !rows.isEmpty, !columns.isEmpty else { return nil }
        var cumulative = [Double](repeating: 0, count: columns.count)
        var runningSum = 0.0, last = 0.0
        for (n, s) in rows.enumerated() {
            for (j, y) in columns.enumerated() { cumulative[j] += fy[trial, s, y] }
            var centred = cumulative
            if columns.count > 3 {
                let mean = cumulative.reduce(0, +) / Double(columns.count)
                centred = cumulative.map { $0 - mean }
            }
            let variance = centred.reduce(0) { $0 + $1 * $1 } / max(0.1, Double(columns.count - 1))
            runningSum += variance / Double(n + 1)
            last = runningSum / Double(n + 1)
        }
        return last
    }

    /// z-scores of the cumulative scores of `trials` at the decision points for integration length `length`
    /// (`normalizeOutputScores` with the start-up correction and the prior σ₀² weighted by `priorWeight`):
    /// per trial, `decisions × outputs` values and the decision points. `minDecision` > 0: points
    /// minDecision·2^i up to the last valid sample; < 0: every −minDecision samples and the last.
    ///
    /// Below `minDecision` samples PMB's own code broadcasts one trial's scale over all trials (spec §4.3); this
    /// normalises each trial by its own scale instead.
    public static func zScores(_ fy: OutputScores, trials: [Int], length: Int, minDecision: Int, sigma0: Double?) -> (z: [[[Double]]], decisions: [Int]) {
        let outputs = fy.outputs, samples = fy.samples
        return fy.values.withUnsafeBufferPointer { values in
            // Per trial: which samples have any score, which outputs have any (within the length).
            var rowValid: [[Bool]] = [], validCounts: [Int] = [], lastValid: [Int] = []
            for trial in trials {
                var rows = [Bool](repeating: false, count: length)
                var columns = [Bool](repeating: false, count: outputs)
                for s in 0..<length {
                    let base = (trial * samples + s) * outputs
                    for y in 0..<outputs where values[base + y] != 0 { rows[s] = true; columns[y] = true }
                }
                rowValid.append(rows)
                validCounts.append(columns.filter { $0 }.count)
                lastValid.append(rows.lastIndex(of: true) ?? 0)
            }
            let maxLast = lastValid.max() ?? 0
            if maxLast < 1 { return (trials.map { _ in [[Double](repeating: 0, count: outputs)] }, [0]) }
            var decisions: [Int]
            if minDecision > 0 && minDecision < maxLast {
                let steps = Int((log(Double(maxLast - 1) / Double(minDecision)) / log(2.0)).rounded(.up))
                decisions = (0...steps).map { min(max((1 << $0) * minDecision, minDecision), maxLast - 1) }
            } else if minDecision < 0 {
                decisions = Array(stride(from: -minDecision - 1, to: maxLast - 1, by: -minDecision)) + [maxLast - 1]
            } else {
                decisions = [maxLast - 1]
            }
            let short = abs(minDecision) > length
            let points = short ? [length - 1] : decisions
            // Scores are centred over outputs only when every trial has more than 3 with any score.
            let centre = validCounts.allSatisfy { $0 > 3 }
            var result: [[[Double]]] = []
            var cumulative = [Double](repeating: 0, count: outputs)
            for (index, trial) in trials.enumerated() {
                // Cumulative scores, the count of valid samples, and the variance estimate (estimate_Fy_noise_variance_2).
                let validOutputs = validCounts[index]
                for y in 0..<outputs { cumulative[y] = 0 }
                var validCount = 0
                var runningSum = 0.0
                var pointIndex = 0
                var rows: [[Double]] = []
                for s in 0..<length {
                    let base = (trial * samples + s) * outputs
                    var total = 0.0
                    for y in 0..<outputs {
                        cumulative[y] += values[base + y]
                        total += cumulative[y]
                    }
                    if rowValid[index][s] { validCount += 1 }
                    let mean = centre ? total / Double(validOutputs) : 0
                    var squares = 0.0
                    for y in 0..<outputs { let c = cumulative[y] - mean; squares += c * c }
                    let variance = squares / max(0.1, Double(validOutputs - 1))
                    runningSum += variance / max(0.1, Double(validCount))
                    while pointIndex < points.count && points[pointIndex] == s {
                        var sigma2 = runningSum / max(0.1, Double(validCount))
                        if let sigma0, sigma0 > 0 {
                            sigma2 = (sigma2 * Double(s) + sigma0 * priorWeight) / (Double(s) + priorWeight)
                        }
                        // Below minDecision: one decision on the whole window, scaled with the trial's own count.
                        let count = short ? Double(lastValid[index]) : Double(validCount)
                        var scale = (sigma2 * max(0.01, count)).squareRoot() / c4(count / max(1, startupCorrection))
                        if scale == 0 { scale = 1 }
                        rows.append(cumulative.map { $0 / scale })
                        pointIndex += 1
                    }
                }
                result.append(rows)
            }
            return (result, points)
        }
    }

    /// Target probabilities from z-scores (`zscore2Ptgt_softmax`): a softmax over the valid outputs of scale·z,
    /// jointly over the decision points and summed over them when `marginaliseDecisions` (one row), else per point.
    public static func probabilities(_ z: [[Double]], valid: [Bool], scale: Double, marginaliseDecisions: Bool) -> [[Double]] {
        let outputs = valid.count
        let allValid = !valid.contains(false)
        func softmax(_ rows: [[Double]]) -> [[Double]] {
            let peak = rows.flatMap { $0.map { $0 * scale } }.max() ?? 0
            var p = rows.map { row in row.enumerated().map { y, v in exp(v * scale - peak) * (allValid || valid[y] ? 1 : 0) } }
            let total = max(p.flatMap { $0 }.reduce(0, +), 1e-6)
            p = p.map { $0.map { $0 / total } }
            return p
        }
        var result: [[Double]]
        if marginaliseDecisions && z.count > 1 {
            let p = softmax(z)
            result = [(0..<outputs).map { y in p.reduce(0) { $0 + $1[y] } }]
        } else {
            result = z.map { softmax([$0])[0] }
        }
        if result.contains(where: { $0.contains { $0.isNaN } }) { result = result.map { $0.map { _ in 0 } } }
        return result
    }

    /// `calibrate_softmaxscale`: the scale among ``softmaxScales`` that minimises −Σ log max(P(output 0), 1e-5)
    /// over the trials with an output-0 score and their decision points (z-scores of the cross-validated scores).
    public static func calibrateSoftmaxScale(_ z: [[[Double]]]) -> Double {
        let kept = z.indices.filter { trial in z[trial].contains { $0[0] != 0 } }
        let valid = z.map { rows in (0..<(rows.first?.count ?? 0)).map { y in rows.contains { $0[y] != 0 } } }
        var best = softmaxScales[0], bestCost = Double.infinity
        for scale in softmaxScales {
            var cost = 0.0
            for trial in kept {
                for row in probabilities(z[trial], valid: valid[trial], scale: scale, marginaliseDecisions: false) {
                    cost -= log(max(row[0], 1e-5))
                }
            }
            if cost < bestCost { bestCost = cost; best = scale }
        }
        return best
    }
}
