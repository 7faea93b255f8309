/// The model's component in microvolts: CCA leaves W and R scaled for correlation, not amplitude. With the component
/// c(t) = W·(x(t) − mean) and its prediction ĉ(t) = Σ_e Σ_τ R[e, τ]·event_e(t − τ) from output 0's events,
/// the forward pattern is P[d] = Σ (x_d − mean_d)·c / Σ c² (µV per unit of c, least squares) and the amplitude
/// β = Σ c·ĉ / Σ ĉ²; the response at channel d is P[d]·β·R[e, τ] µV.
public struct ResponseScaling: Sendable {
    /// µV per unit of the component, per channel.
    public var patternMicrovolts: [Double]
    /// The least-squares amplitude of R's prediction of the component.
    public var amplitude: Double
    /// The channel (0-based) with the largest |pattern|.
    public var peakChannel: Int

    /// Scales component `component` of `model` on `recording`'s trials.
    public init(model: CCAModel, component: Int, recording: EpochedRecording, events: EventCoding) {
        let channels = recording.channelCount, samples = recording.windowSamples, trials = recording.trialCount
        let w = model.spatialFilters[component], r = model.impulseResponses[component]
        let e = events.types.count, outputs = events.outputs
        var mean = [Double](repeating: 0, count: channels)
        for i in 0..<(trials * samples) { for d in 0..<channels { mean[d] += Double(recording.x[i * channels + d]) } }
        mean = mean.map { $0 / Double(max(trials * samples, 1)) }
        var cross = [Double](repeating: 0, count: channels)
        var cc = 0.0, cPredicted = 0.0, predictedSquared = 0.0
        for trial in 0..<trials {
            var prediction = [Double](repeating: 0, count: samples)
            for s in 0..<samples {
                for k in 0..<e where events.values[((trial * samples + s) * outputs) * e + k] != 0 {
                    for tau in 0..<model.tau where s + tau < samples { prediction[s + tau] += r[k][tau] }
                }
            }
            for s in 0..<samples {
                let base = (trial * samples + s) * channels
                var c = 0.0
                for d in 0..<channels { c += w[d] * (Double(recording.x[base + d]) - mean[d]) }
                for d in 0..<channels { cross[d] += (Double(recording.x[base + d]) - mean[d]) * c }
                cc += c * c
                cPredicted += c * prediction[s]
                predictedSquared += prediction[s] * prediction[s]
            }
        }
        patternMicrovolts = cross.map { cc > 0 ? $0 / cc : 0 }
        amplitude = predictedSquared > 0 ? cPredicted / predictedSquared : 0
        let pattern = patternMicrovolts
        peakChannel = pattern.indices.max { abs(pattern[$0]) < abs(pattern[$1]) } ?? 0
    }
}
