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

    /// The counts behind one trial's percentiles: the slower trials and the comparison set under each rule (the
    /// percentile is their quotient), 16 bytes where a ``Result`` takes 32.
    public struct Counts: Sendable, Equatable {
        var slowerInWindow: Int32 = 0
        var windowN: Int32 = 0
        var slowerInHistory: Int32 = 0
        var historyN: Int32 = 0

        /// The percentiles.
        public var result: Result {
            Result(window: Double(slowerInWindow) / Double(windowN), windowN: Int(windowN),
                   allHistory: Double(slowerInHistory) / Double(historyN), allHistoryN: Int(historyN))
        }

        /// The value and |S_i| under a rule.
        public func value(_ rule: ScoreRule) -> (p: Double, n: Int) { result.value(rule) }
    }

    /// The percentiles of trials given in file order (all trial rows, aborted sessions included, as the app
    /// stored every accepted trial at once). `window` is `kBTlastNTrialsCutoffValue` (100).
    public static func compute(labels: [String], latencies: [Double], window: Int = 100) -> [Result] {
        counts(labels: labels, latencies: latencies, window: window).map(\.result)
    }

    /// The counts of ``compute(labels:latencies:window:)``, in time linear in the trials but for a logarithm:
    /// the window is at most `window` latencies; the slower earlier trials at a target are counted in a Fenwick
    /// tree over that target's latencies in ascending order (inserting into one sorted array per target, as
    /// before, moved the whole history per trial: hours for a 100 MB file).
    public static func counts<Labels: Collection<String>, Latencies: Collection<Double>>(
        labels: Labels, latencies: Latencies, window: Int = 100) -> [Counts] {
        // Targets as small numbers, in order of first appearance (one lookup per trial).
        var idOfLabel: [String: Int] = [:]
        var ids: [Int32] = []
        ids.reserveCapacity(latencies.count)
        var valuesOfLabel: [[Double]] = []
        for (label, latency) in zip(labels, latencies) {
            let id: Int
            if let known = idOfLabel[label] { id = known } else {
                id = valuesOfLabel.count
                idOfLabel[label] = id
                valuesOfLabel.append([])
            }
            ids.append(Int32(id))
            valuesOfLabel[id].append(latency)
        }
        idOfLabel = [:]
        // Each target's distinct latencies, ascending: the ranks of its Fenwick tree.
        let ranks: [[Double]] = valuesOfLabel.map { values in
            var distinct = values.sorted()
            var kept = 0
            for value in distinct where kept == 0 || distinct[kept - 1] != value {
                distinct[kept] = value
                kept += 1
            }
            distinct.removeSubrange(kept...)
            return distinct
        }
        valuesOfLabel = []
        var trees = ranks.map { FenwickTree(count: $0.count) }
        var recent = [[Double]](repeating: [], count: ranks.count)  // the last `window` latencies per target
        var earlier = [Int](repeating: 0, count: ranks.count)     // trials per target so far
        var results: [Counts] = []
        results.reserveCapacity(ids.count)
        for (id, latency) in zip(ids, latencies) {
            let label = Int(id)
            recent[label].append(latency)
            if recent[label].count > window { recent[label].removeFirst(recent[label].count - window) }
            let slowerInWindow = recent[label].reduce(0) { $0 + ($1 > latency ? 1 : 0) }
            let windowN = recent[label].count

            // Earlier latencies at most this one: the tree's count up to its rank.
            let rank = SethComparisonSet.firstIndex(in: ranks[label]) { $0 > latency }  // distinct values ≤ latency
            let atMost = trees[label].sum(upTo: rank)
            trees[label].add(at: rank - 1)
            let before = earlier[label]
            earlier[label] = before + 1
            results.append(Counts(slowerInWindow: Int32(clamping: slowerInWindow), windowN: Int32(clamping: windowN),
                                  slowerInHistory: Int32(clamping: before - atMost), historyN: Int32(clamping: before + 1)))
        }
        return results
    }

    /// Counts at ranks 0..<count: adds one at a rank, sums the first ranks, each in O(log count).
    struct FenwickTree {
        private var tree: [Int32]

        init(count: Int) { tree = [Int32](repeating: 0, count: count + 1) }

        /// Adds one at `rank` (0-based).
        mutating func add(at rank: Int) {
            var index = rank + 1
            while index < tree.count {
                tree[index] += 1
                index += index & -index
            }
        }

        /// The total at ranks 0..<`count`.
        func sum(upTo count: Int) -> Int {
            var index = count, total = 0
            while index > 0 {
                total += Int(tree[index])
                index -= index & -index
            }
            return total
        }
    }

    /// `score_match` (spec §7.2): `exact` if |Δ| ≤ 5e-7, `close` if |Δ| ≤ 0.002, else `differs`.
    public static func match(delta: Double) -> String {
        abs(delta) <= 5e-7 ? "exact" : abs(delta) <= 0.002 ? "close" : "differs"
    }
}
