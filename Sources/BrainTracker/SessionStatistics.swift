/// Fills Seth Roberts' percentiles and the per-session statistics shared by both input formats (spec §8, §10.2).
enum SessionStatistics {
    /// Scores `trials` with Seth's percentile and summarises each session. `trials[i].sessionSeq` indexes
    /// `sessions` (1-based); `validSeth` must be set.
    static func apply(trials: inout TrialRecords, sessions: inout [SessionRecord], options: SessionAnalysisOptions,
                      format: ResultsFormat) {
        // Trials in session order, file order within a session: the records' own order when it already is (a
        // BrainTracker file's trials come session by session), so that no index list is made.
        let inOrder = trials.indices.dropFirst().allSatisfy { trials.sessionSeq(at: $0 - 1) <= trials.sessionSeq(at: $0) }
        let order: [Int] = inOrder ? [] : trials.indices.sorted {
            (trials.sessionSeq(at: $0), $0) < (trials.sessionSeq(at: $1), $1)
        }
        let count = trials.count
        func trial(_ position: Int) -> Int { inOrder ? position : order[position] }
        let ptiles: [Double?]
        do {
            let records = trials, warmups = sessions.map(\.isWarmup)
            let inputs = (0..<count).lazy.map { position in
                let index = trial(position)
                return SethScoring.Input(session: records.sessionSeq(at: index), label: records.target(at: index),
                                         latency: records.latency(at: index), valid: records.isValidSeth(at: index),
                                         warmup: warmups[records.sessionSeq(at: index) - 1])
            }
            ptiles = SethScoring.score(inputs, mode: options.sethMode(for: format), window: options.sethWindow,
                                       minimumN: options.sethMinN)
        }
        for position in 0..<count { trials.setPtileSeth(ptiles[position], at: trial(position)) }

        // Target difficulty: mean latency per label minus the mean of the label means, over all valid trials.
        var sums: [String: (Double, Int)] = [:]
        for index in trials.indices where trials.isValidSeth(at: index) && !sessions[trials.sessionSeq(at: index) - 1].isWarmup {
            let (sum, count) = sums[trials.target(at: index), default: (0, 0)]
            sums[trials.target(at: index)] = (sum + trials.latency(at: index), count + 1)
        }
        let labelMeans = sums.mapValues { $0.0 / Double($0.1) }
        // Summed in label order: dictionary order changes between runs, and outputs must be byte-identical.
        let grandMean = labelMeans.isEmpty ? 0 : labelMeans.sorted { $0.key < $1.key }.reduce(0) { $0 + $1.value } / Double(labelMeans.count)
        let effect = labelMeans.mapValues { $0 - grandMean }

        // Each session's trials are a run of positions in that order.
        var runs = [Range<Int>](repeating: 0..<0, count: sessions.count)
        var start = 0
        while start < count {
            let seq = trials.sessionSeq(at: trial(start))
            var end = start + 1
            while end < count, trials.sessionSeq(at: trial(end)) == seq { end += 1 }
            runs[seq - 1] = start..<end
            start = end
        }
        for s in sessions.indices {
            let members = runs[s].map(trial)
            let analysed = members.filter { trials.isCorrect(at: $0) && trials.isIncluded(at: $0) }.map(trials.latency(at:))
            sessions[s].latencyMeanMs = DescriptiveStatistics.mean(analysed)
            sessions[s].latencyMedianMs = DescriptiveStatistics.median(analysed)
            sessions[s].latencySDMs = DescriptiveStatistics.standardDeviation(analysed)
            sessions[s].latencyTrimmedMeanMs = DescriptiveStatistics.trimmedMean(analysed, fraction: options.trim)
            let valid = members.filter(trials.isValidSeth(at:))
            sessions[s].nValidSeth = valid.count
            let validLatencies = valid.map(trials.latency(at:))
            (sessions[s].latencyLogMean, sessions[s].latencyLogSE) = DescriptiveStatistics.logMean(validLatencies)
            let ptiles = valid.compactMap(trials.ptileSeth(at:))
            sessions[s].sethPtileMean = DescriptiveStatistics.mean(ptiles)
            sessions[s].sethPtileSE = DescriptiveStatistics.standardError(ptiles)
            sessions[s].latencyCorrectedMeanMs = DescriptiveStatistics.mean(valid.map {
                trials.latency(at: $0) - (effect[trials.target(at: $0)] ?? 0)
            })
            if format == .sethR {
                let included = members.filter(trials.isIncluded(at:))
                if !included.isEmpty {
                    let p = Double(included.filter { !trials.isCorrect(at: $0) }.count) / Double(included.count)
                    sessions[s].pctWrong = 100 * p
                    sessions[s].pctWrongSE = 100 * (p * (1 - p) / Double(included.count)).squareRoot()
                }
            }
        }
    }
}
