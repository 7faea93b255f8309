/// Fills Seth Roberts' percentiles and the per-session statistics shared by both input formats (spec §8, §10.2).
enum SessionStatistics {
    /// Scores `trials` with Seth's percentile and summarises each session. `trials[i].sessionSeq` indexes
    /// `sessions` (1-based); `validSeth` must be set.
    static func apply(trials: inout [TrialRecord], sessions: inout [SessionRecord], options: SessionAnalysisOptions,
                      format: ResultsFormat) {
        let order = trials.indices.sorted { (trials[$0].sessionSeq, $0) < (trials[$1].sessionSeq, $1) }
        let inputs = order.map { index in
            let trial = trials[index]
            return SethScoring.Input(session: trial.sessionSeq, label: trial.target, latency: trial.latencyMs,
                                     valid: trial.validSeth, warmup: sessions[trial.sessionSeq - 1].isWarmup)
        }
        let ptiles = SethScoring.score(inputs, mode: options.sethMode(for: format), window: options.sethWindow,
                                       minimumN: options.sethMinN)
        for (position, index) in order.enumerated() { trials[index].ptileSeth = ptiles[position] }

        // Target difficulty: mean latency per label minus the mean of the label means, over all valid trials.
        var sums: [String: (Double, Int)] = [:]
        for trial in trials where trial.validSeth && !sessions[trial.sessionSeq - 1].isWarmup {
            let (sum, count) = sums[trial.target, default: (0, 0)]
            sums[trial.target] = (sum + trial.latencyMs, count + 1)
        }
        let labelMeans = sums.mapValues { $0.0 / Double($0.1) }
        // Summed in label order: dictionary order changes between runs, and outputs must be byte-identical.
        let grandMean = labelMeans.isEmpty ? 0 : labelMeans.sorted { $0.key < $1.key }.reduce(0) { $0 + $1.value } / Double(labelMeans.count)
        let effect = labelMeans.mapValues { $0 - grandMean }

        var bySession = [[Int]](repeating: [], count: sessions.count)
        for index in order { bySession[trials[index].sessionSeq - 1].append(index) }
        for (s, members) in bySession.enumerated() {
            let analysed = members.filter { trials[$0].correct && trials[$0].include }.map { trials[$0].latencyMs }
            sessions[s].latencyMeanMs = DescriptiveStatistics.mean(analysed)
            sessions[s].latencyMedianMs = DescriptiveStatistics.median(analysed)
            sessions[s].latencySDMs = DescriptiveStatistics.standardDeviation(analysed)
            sessions[s].latencyTrimmedMeanMs = DescriptiveStatistics.trimmedMean(analysed, fraction: options.trim)
            let valid = members.filter { trials[$0].validSeth }
            sessions[s].nValidSeth = valid.count
            let validLatencies = valid.map { trials[$0].latencyMs }
            (sessions[s].latencyLogMean, sessions[s].latencyLogSE) = DescriptiveStatistics.logMean(validLatencies)
            let ptiles = valid.compactMap { trials[$0].ptileSeth }
            sessions[s].sethPtileMean = DescriptiveStatistics.mean(ptiles)
            sessions[s].sethPtileSE = DescriptiveStatistics.standardError(ptiles)
            sessions[s].latencyCorrectedMeanMs = DescriptiveStatistics.mean(valid.map {
                trials[$0].latencyMs - (effect[trials[$0].target] ?? 0)
            })
            if format == .sethR {
                let included = members.filter { trials[$0].include }
                if !included.isEmpty {
                    let p = Double(included.filter { !trials[$0].correct }.count) / Double(included.count)
                    sessions[s].pctWrong = 100 * p
                    sessions[s].pctWrongSE = 100 * (p * (1 - p) / Double(included.count)).squareRoot()
                }
            }
        }
    }
}
