import Foundation

/// The evaluation options (pymindaffectBCI 0.9.24 `analyse_dataset` / `decodingCurveSupervised` defaults).
public struct EvaluationOptions: Sendable, Codable, Equatable {
    /// Contiguous, unshuffled cross-validation folds (at most one per trial).
    public var folds: Int = 5
    /// Integration lengths of the decoding curve.
    public var curvePoints: Int = 30

    public init() {}

    enum CodingKeys: String, CodingKey { case folds = "cv_folds", curvePoints = "curve_points" }
}

/// The decoder's result on one recording.
public struct DecodeResult: Sendable {
    /// The model fitted on every trial.
    public var model: CCAModel
    /// The cross-validated scores (each trial scored by the model of the folds it was left out of).
    public var scores: OutputScores
    /// PMB `audc_score` of the cross-validated scores.
    public var audcScore: Double
    /// The same per fold.
    public var foldScores: [Double]
    /// The folds' trials.
    public var folds: [[Int]]
    /// σ₀², the median per-trial noise variance of the cross-validated scores.
    public var sigma0: Double
    /// The calibrated softmax scale.
    public var softmaxScale: Double
    /// Per trial: the output duplicating output 0 (the cue), nil if none agrees over 95 %.
    public var cuedOutput: [Int?]
    /// The decoding curve.
    public var curve: DecodingCurve
}

/// The error rate as the integration length grows (pymindaffectBCI `decodingCurveSupervised`, tie-breaking noise
/// off: ties go to the lowest output).
public struct DecodingCurve: Sendable {
    /// Integration lengths in samples from the window's start.
    public var lengths: [Int]
    /// Trials with any output-0 score (the others count as wrong and are left out of the rates).
    public var keptTrials: [Int]
    /// Per trial and length: the output chosen (nil for trials left out).
    public var predicted: [[Int?]]
    /// Per trial and length: the estimated error probability, 1 − the chosen output's probability (1 for left out).
    public var estimatedError: [[Double]]
    /// Per trial and length: output 0's z-score less the best other output's at the last decision point.
    public var margin: [[Double?]]
    /// Per length: the share of kept trials not decoded as output 0.
    public var errorRate: [Double]
    /// Per length: the mean estimated error probability of the kept trials.
    public var estimatedErrorRate: [Double]
}

/// The offline decoder of `nt-analyze decode`: the canonical-correlation model with cross-validation and the
/// decoding curve, after pymindaffectBCI 0.9.24 (`analyse_dataset(…, model='cca', evtlabs=('re','fe'), rank=1,
/// cv=5)`).
public enum NoiseTagDecoder {
    /// The impulse-response length in samples for `tauMs` at `fs` (truncated, as PMB does).
    public static func tau(ms: Double, fs: Double) -> Int { Int(ms * fs / 1000) }

    /// Contiguous folds: the first `trials mod folds` one trial longer (scikit-learn's `StratifiedKFold` on one class
    /// without shuffling); one trial is its own training and test set.
    public static func folds(trials: Int, count: Int) -> [[Int]] {
        if trials <= 1 { return [Array(0..<trials)] }
        let k = min(count, trials)
        var result: [[Int]] = []
        var start = 0
        for fold in 0..<k {
            let size = trials / k + (fold < trials % k ? 1 : 0)
            result.append(Array(start..<(start + size)))
            start += size
        }
        return result
    }

    /// Integration lengths: `points` evenly spaced up to `samples` (numpy `linspace(0, samples, points + 1)`
    /// truncated, without the 0), or every sample when there are fewer samples than points.
    public static func integrationLengths(samples: Int, points: Int) -> [Int] {
        guard points > 0, points < samples else { return Array(1...max(samples, 1)) }
        let step = Double(samples) / Double(points)
        return (1...points).map { $0 == points ? samples : Int(Double($0) * step) }
    }

    /// Decodes `recording`.
    public static func decode(_ recording: EpochedRecording, model options: CCAOptions, evaluation: EvaluationOptions) throws(DecodeError) -> DecodeResult {
        let trials = recording.trialCount, samples = recording.windowSamples, outputs = recording.outputCount
        let tau = tau(ms: options.tauMs, fs: recording.fs)
        guard tau >= 1, tau < samples else {
            throw .noData(file: recording.sourceFile, reason: "tau \(tau) samples does not fit a \(samples)-sample trial window")
        }
        guard outputs > 0, recording.objectIDs.first == 0 else {
            throw .noData(file: recording.sourceFile, reason: "no objID 0 (the cued target's stimulus): nothing to fit the model to")
        }
        let events = EventCoding(states: recording.y, trials: trials, samples: samples, outputs: outputs, types: options.eventTypes)
        var scoring = events
        let cued = scoring.zeroCopiesOfOutputZero()

        let folds = folds(trials: trials, count: evaluation.folds)
        var scores = OutputScores(trials: trials, samples: samples, outputs: outputs)
        var foldScores: [Double] = []
        do {
            for fold in folds {
                let training = trials <= 1 ? fold : (0..<trials).filter { !fold.contains($0) }
                let model = try CCAModel.fit(x: recording.x, events: events, channels: recording.channelCount,
                                             trials: training, tau: tau, options: options)
                scores.score(x: recording.x, events: scoring, channels: recording.channelCount, model: model, trials: fold)
                var foldOnly = OutputScores(trials: fold.count, samples: samples, outputs: outputs)
                for (i, trial) in fold.enumerated() {
                    for s in 0..<samples { for y in 0..<outputs { foldOnly[i, s, y] = scores[trial, s, y] } }
                }
                foldScores.append(foldOnly.audcScore)
            }
        } catch {
            throw .numerical(file: recording.sourceFile, reason: "the model could not be fitted: \(error)")
        }
        let model: CCAModel
        do {
            model = try CCAModel.fit(x: recording.x, events: events, channels: recording.channelCount,
                                     trials: Array(0..<trials), tau: tau, options: options)
        } catch {
            throw .numerical(file: recording.sourceFile, reason: "the model could not be fitted: \(error)")
        }

        let variances = (0..<trials).compactMap { ScoreNormalisation.noiseVariance(scores, trial: $0, length: samples) }
        let sigma0 = variances.isEmpty ? Double.nan : Statistics.median(variances)
        let calibration = ScoreNormalisation.zScores(scores, trials: Array(0..<trials), length: samples, minDecision: -10,
                                                     sigma0: sigma0.isNaN ? nil : sigma0)
        let softmaxScale = ScoreNormalisation.calibrateSoftmaxScale(calibration.z)
        let curve = decodingCurve(scores, softmaxScale: softmaxScale, sigma0: sigma0.isNaN ? nil : sigma0, points: evaluation.curvePoints)
        return DecodeResult(model: model, scores: scores, audcScore: scores.audcScore, foldScores: foldScores, folds: folds,
                            sigma0: sigma0, softmaxScale: softmaxScale, cuedOutput: cued, curve: curve)
    }

    /// The decoding curve of cross-validated scores.
    public static func decodingCurve(_ scores: OutputScores, softmaxScale: Double, sigma0: Double?, points: Int) -> DecodingCurve {
        let trials = scores.trials, outputs = scores.outputs
        let lengths = integrationLengths(samples: scores.samples, points: points)
        let kept = (0..<trials).filter { trial in (0..<scores.samples).contains { scores[trial, $0, 0] != 0 } }
        var predicted = [[Int?]](repeating: [Int?](repeating: nil, count: lengths.count), count: trials)
        var estimated = [[Double]](repeating: [Double](repeating: 1, count: lengths.count), count: trials)
        var margin = [[Double?]](repeating: [Double?](repeating: nil, count: lengths.count), count: trials)
        var errorRate: [Double] = [], estimatedRate: [Double] = []
        for (li, length) in lengths.enumerated() {
            let (z, _) = ScoreNormalisation.zScores(scores, trials: kept, length: length,
                                                     minDecision: ScoreNormalisation.minDecisionLength, sigma0: sigma0)
            var wrong = 0, perrSum = 0.0
            for (index, trial) in kept.enumerated() {
                let valid = (0..<outputs).map { y in (0..<length).contains { scores[trial, $0, y] != 0 } }
                let p = ScoreNormalisation.probabilities(z[index], valid: valid, scale: softmaxScale, marginaliseDecisions: true)[0]
                var best = 0
                for y in 1..<max(outputs, 1) where p[y] > p[best] { best = y }
                predicted[trial][li] = best
                estimated[trial][li] = 1 - p[best]
                if let last = z[index].last, outputs > 1 {
                    margin[trial][li] = last[0] - (1..<outputs).map { last[$0] }.max()!
                }
                if best != 0 { wrong += 1 }
                perrSum += 1 - p[best]
            }
            errorRate.append(kept.isEmpty ? .nan : Double(wrong) / Double(kept.count))
            estimatedRate.append(kept.isEmpty ? .nan : perrSum / Double(kept.count))
        }
        return DecodingCurve(lengths: lengths, keptTrials: kept, predicted: predicted, estimatedError: estimated,
                             margin: margin, errorRate: errorRate, estimatedErrorRate: estimatedRate)
    }
}
