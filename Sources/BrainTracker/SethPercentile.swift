/// Seth Roberts' mid-rank percentile (spec §8, `newmath.ptile`): each trial scored against the last n valid
/// latencies at its label, n = min(window, smallest per-label count).
public struct SethComparisonSet: Sendable {
    /// The common per-label comparison size n (0 when the history is empty).
    public let n: Int
    private let sortedByLabel: [String: [Double]]

    /// Builds the set from per-label histories of valid latencies in time order.
    public init(histories: [String: [Double]], window: Int) {
        let smallest = histories.values.map(\.count).min() ?? 0
        let n = min(window, smallest)
        self.n = n
        sortedByLabel = n == 0 ? [:] : histories.mapValues { Array($0.suffix(n)).sorted() }
    }

    /// A set whose per-label arrays are already the sorted last n values.
    init(n: Int, sortedByLabel: [String: [Double]]) {
        self.n = n
        self.sortedByLabel = sortedByLabel
    }

    /// ptile = 100·[1/(2n) + a·(1 − 1/n)/n], a = #(values > v) + ½·#(values = v); `nil` when the label has no
    /// history or n < `minimumN`. Higher = faster.
    public func percentile(label: String, latency v: Double, minimumN: Int) -> Double? {
        guard n >= max(minimumN, 1), let values = sortedByLabel[label] else { return nil }
        let lowerEqual = Self.firstIndex(in: values) { $0 >= v }
        let above = Self.firstIndex(in: values) { $0 > v }
        let a = Double(values.count - above) + 0.5 * Double(above - lowerEqual)
        let size = Double(n)
        return 100 * (1 / (2 * size) + a * (1 - 1 / size) / size)
    }

    /// The first index whose value satisfies a predicate that is false then true along the sorted array.
    static func firstIndex(in values: [Double], where predicate: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// When Seth's comparison set is built (spec §8 `--seth-mode`).
public enum SethMode: String, Sendable, CaseIterable {
    /// From valid trials of earlier sessions, as his live feedback (default for BrainTracker input).
    case prospective
    /// One set from the whole input, as his stored `latency.ptile` (default for R input).
    case final
}

/// Scores every valid trial with Seth's percentile.
public enum SethScoring {
    /// One trial as the scoring sees it.
    public struct Input: Sendable {
        public var session: Int
        public var label: String
        public var latency: Double
        public var valid: Bool
        /// Warm-up sessions are left out of the histories.
        public var warmup: Bool
        public init(session: Int, label: String, latency: Double, valid: Bool, warmup: Bool) {
            self.session = session
            self.label = label
            self.latency = latency
            self.valid = valid
            self.warmup = warmup
        }
    }

    /// The percentile of each trial (`nil` when not valid or n < `minimumN`). Trials must come grouped and ordered
    /// by session for the prospective mode. Any collection of trials indexed from 0 (a lazy view of stored
    /// trials, so that no array of them is made).
    public static func score<Trials: RandomAccessCollection>(_ trials: Trials, mode: SethMode, window: Int,
                                                             minimumN: Int) -> [Double?]
    where Trials.Element == Input, Trials.Index == Int {
        precondition(trials.startIndex == 0, "trials are indexed from 0")
        var result = [Double?](repeating: nil, count: trials.count)
        switch mode {
        case .final:
            var histories: [String: [Double]] = [:]
            for trial in trials where trial.valid && !trial.warmup { histories[trial.label, default: []].append(trial.latency) }
            let set = SethComparisonSet(histories: histories, window: window)
            for index in trials.indices {
                let trial = trials[index]
                guard trial.valid else { continue }
                result[index] = set.percentile(label: trial.label, latency: trial.latency, minimumN: minimumN)
            }
        case .prospective:
            var windows = RollingWindows(window: window)
            var start = 0
            let count = trials.count
            while start < count {
                let session = trials[start].session
                var end = start
                while end < count, trials[end].session == session { end += 1 }
                let set = windows.comparisonSet()
                for index in start..<end {
                    let trial = trials[index]
                    guard trial.valid else { continue }
                    result[index] = set.percentile(label: trial.label, latency: trial.latency, minimumN: minimumN)
                }
                for index in start..<end {
                    let trial = trials[index]
                    guard trial.valid && !trial.warmup else { continue }
                    windows.append(label: trial.label, latency: trial.latency)
                }
                start = end
            }
        }
        return result
    }
}

/// The last `window` valid latencies per label, kept in arrival order and sorted, so that the prospective
/// comparison set of each session costs no sorting once every label has a full window.
struct RollingWindows {
    let window: Int
    private var recent: [String: [Double]] = [:]
    private var sorted: [String: [Double]] = [:]

    init(window: Int) { self.window = window }

    mutating func append(label: String, latency: Double) {
        recent[label, default: []].append(latency)
        sorted[label, default: []].insert(latency, at: SethComparisonSet.firstIndex(in: sorted[label] ?? []) { $0 > latency })
        if let count = recent[label]?.count, count > window, let oldest = recent[label]?.removeFirst() {
            let at = SethComparisonSet.firstIndex(in: sorted[label] ?? []) { $0 >= oldest }
            sorted[label]?.remove(at: at)
        }
    }

    /// The comparison set of the history so far (n = min(window, smallest label count)).
    func comparisonSet() -> SethComparisonSet {
        let n = min(window, recent.values.map(\.count).min() ?? 0)
        guard n > 0 else { return SethComparisonSet(n: 0, sortedByLabel: [:]) }
        if n == window { return SethComparisonSet(n: n, sortedByLabel: sorted) }
        return SethComparisonSet(n: n, sortedByLabel: recent.mapValues { Array($0.suffix(n)).sorted() })
    }
}
