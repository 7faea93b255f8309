import Tables

/// What a report shows of a run's anomalies, gathered one row at a time: the count of each code per input and
/// severity, the totals by severity, and the first ``RunReport/anomalyRowsShown`` errors and warnings. A run never
/// holds every row for its report (a 10-hour capture with many faults has hundreds of thousands, nearly all notes).
public struct AnomalySummary: Sendable, Equatable {
    /// The rows of one code of one input.
    public struct Count: Sendable, Equatable {
        public var input: String
        public var code: String
        public var severity: AnomalySeverity
        public var count: Int
    }

    /// One entry per input and code, inputs and codes in the order first seen.
    public private(set) var counts: [Count] = []
    /// The first errors and warnings, in run order (at most ``RunReport/anomalyRowsShown``).
    public private(set) var firstSerious: [Anomaly] = []
    private var totals: [AnomalySeverity: Int] = [:]
    private var index: [String: [String: Int]] = [:]

    /// An empty summary.
    public init() {}

    /// The summary of `anomalies`.
    public init(_ anomalies: [Anomaly]) {
        for anomaly in anomalies { add(anomaly) }
    }

    /// Counts the next row.
    public mutating func add(_ anomaly: Anomaly) {
        totals[anomaly.severity, default: 0] += 1
        if let position = index[anomaly.sourceFile]?[anomaly.code] {
            counts[position].count += 1
        } else {
            index[anomaly.sourceFile, default: [:]][anomaly.code] = counts.count
            counts.append(Count(input: anomaly.sourceFile, code: anomaly.code, severity: anomaly.severity, count: 1))
        }
        if anomaly.severity != .info && firstSerious.count < RunReport.anomalyRowsShown {
            firstSerious.append(anomaly)
        }
    }

    /// The rows of one severity.
    public func total(_ severity: AnomalySeverity) -> Int { totals[severity] ?? 0 }

    /// Whether there are no rows.
    public var isEmpty: Bool { counts.isEmpty }
}
