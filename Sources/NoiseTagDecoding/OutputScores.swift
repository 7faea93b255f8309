/// Per trial, sample and output, how well the output's stimulus explains the EEG under a model (pymindaffectBCI
/// `scoreStimulus` then `scoreOutput`): Fe[s, e] = Σ_t Σ_d W[d]·X[s + t, d]·R[e, t] for windows starting at s (zero
/// where the window would pass the trial's end), Fy[s, y] = Σ_e Fe[s, e]·events[s, y, e].
public struct OutputScores: Sendable {
    public let trials: Int
    public let samples: Int
    public let outputs: Int
    /// `trials × samples × outputs`.
    public var values: [Double]

    /// Zeros for `trials × samples × outputs`.
    public init(trials: Int, samples: Int, outputs: Int) {
        self.trials = trials
        self.samples = samples
        self.outputs = outputs
        values = [Double](repeating: 0, count: trials * samples * outputs)
    }

    @inline(__always)
    public subscript(trial: Int, sample: Int, output: Int) -> Double {
        get { values[(trial * samples + sample) * outputs + output] }
        set { values[(trial * samples + sample) * outputs + output] = newValue }
    }

    /// Scores the trials `subset` of `x` under `model` into the same rows of `self` (`events` already deduplicated).
    public mutating func score(x: [Float], events: EventCoding, channels: Int, model: CCAModel, trials subset: [Int]) {
        let e = events.types.count, tau = model.tau
        let windows = max(samples - tau + 1, 0)
        for trial in subset {
            var fe = [Double](repeating: 0, count: samples * e)
            for component in model.spatialFilters.indices {
                let w = model.spatialFilters[component]
                let projected = (0..<samples).map { s in
                    (0..<channels).reduce(0.0) { $0 + w[$1] * Double(x[(trial * samples + s) * channels + $1]) }
                }
                for s in 0..<windows {
                    for k in 0..<e {
                        let r = model.impulseResponses[component][k]
                        var sum = 0.0
                        for t in 0..<tau { sum += projected[s + t] * r[t] }
                        fe[s * e + k] += sum
                    }
                }
            }
            for s in 0..<samples {
                for y in 0..<outputs {
                    var sum = 0.0
                    for k in 0..<e { sum += fe[s * e + k] * Double(events.value(trial: trial, sample: s, output: y, type: k)) }
                    self[trial, s, y] = sum
                }
            }
        }
    }

    /// PMB `audc_score`: over the trials with any positive cumulative score, the share of (trial, sample) points at
    /// which output 0 has the largest cumulative score (ties go to the lowest output, so to output 0).
    public var audcScore: Double {
        var correct = 0, points = 0
        for trial in 0..<trials {
            var cumulative = [Double](repeating: 0, count: outputs)
            var winners: [Int] = []
            var anyPositive = false
            for s in 0..<samples {
                var best = 0
                for y in 0..<outputs {
                    cumulative[y] += self[trial, s, y]
                    if cumulative[y] > 0 { anyPositive = true }
                    if cumulative[y] > cumulative[best] { best = y }
                }
                winners.append(best)
            }
            guard anyPositive else { continue }
            points += samples
            correct += winners.filter { $0 == 0 }.count
        }
        return points > 0 ? Double(correct) / Double(points) : .nan
    }
}
