/// Which trials the app compared a trial with (spec §7.1).
public enum ScoreRule: String, Sendable, CaseIterable {
    /// The last 100 trials at the same target, the current one included (`1c78227`, 2014-09-18, to HEAD).
    case window100
    /// Every earlier trial at the same target, the current one included (before `1c78227`).
    case allHistory = "all-history"
}

/// `--score-rule`: a fixed rule, or the rule of the app build in use when the session started.
public enum ScoreRuleChoice: String, Sendable, CaseIterable {
    case auto, window100
    case allHistory = "all-history"
}

/// The app's per-trial percentile p_i = #{t ∈ S_i : L_t > L_i} / |S_i| (spec §7.1), under both rules.
public enum AppPercentile {
    /// One trial's percentile and comparison-set size under each rule.
    public struct Result: Sendable, Equatable {
        public var window: Double
        public var windowN: Int
        public var allHistory: Double
        public var allHistoryN: Int

        /// The value and |S_i| under a rule.
        public func value(_ rule: ScoreRule) -> (p: Double, n: Int) {
            switch rule {
            case .window100: (window, windowN)
            case .allHistory: (allHistory, allHistoryN)
            }
        }
    }

    /// The percentiles of trials given in file order (all trial rows, aborted sessions included, as the app
    /// stored every accepted trial at once). `window` is `kBTlastNTrialsCutoffValue` (100).
    public static func compute(labels: [String], latencies: [Double], window: Int = 100) -> [Result] {
        var recent: [String: [Double]] = [:]      // the last `window` latencies per label, oldest first
        var sorted: [String: [Double]] = [:]      // every latency per label, ascending
        var results: [Result] = []
        results.reserveCapacity(latencies.count)
        for (label, latency) in zip(labels, latencies) {
            recent[label, default: []].append(latency)
            if let count = recent[label]?.count, count > window { recent[label]?.removeFirst(count - window) }
            let last = recent[label] ?? []
            let slowerInWindow = last.reduce(0) { $0 + ($1 > latency ? 1 : 0) }

            let above = SethComparisonSet.firstIndex(in: sorted[label] ?? []) { $0 > latency }
            sorted[label, default: []].insert(latency, at: above)
            let total = sorted[label]?.count ?? 1
            let slowerInHistory = total - above - 1

            results.append(Result(window: Double(slowerInWindow) / Double(last.count), windowN: last.count,
                                  allHistory: Double(slowerInHistory) / Double(total), allHistoryN: total))
        }
        return results
    }

    /// `score_match` (spec §7.2): `exact` if |Δ| ≤ 5e-7, `close` if |Δ| ≤ 0.002, else `differs`.
    public static func match(delta: Double) -> String {
        abs(delta) <= 5e-7 ? "exact" : abs(delta) <= 0.002 ? "close" : "differs"
    }
}
