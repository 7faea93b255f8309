import Tables

/// Turns a parsed `BrainTrackerResultsFile.csv` into trials and sessions: grouping (§5.3), identity and UTC
/// offset (§5.1), unit repair (§6), the app's percentile and SessionScore (§7) and the statistics (§8).
public enum ResultsFileAnalysis {
    /// Rows dated before this (2014-04-27) may be in seconds or ms÷10 (§6 unit repair).
    static let unitRepairBefore = CivilTime.seconds(year: 2014, month: 4, day: 27)

    /// Analyses a parsed file; its rows are let go once the trials are made (pass the file with `consume` so
    /// that they can be).
    public static func analyze(_ file: consuming ResultsFile, options: SessionAnalysisOptions) -> RTAnalysis {
        var anomalies = file.anomalies
        let sourceFile = file.sourceFile
        var trials = TrialRecords()
        var sessions: [SessionRecord] = []
        do {
            let rows = file.rows
            file = ResultsFile(sourceFile: sourceFile, rows: ResultsRows(capacity: 0), anomalies: [], hasHeader: false)
            let (groups, groupingAnomalies) = SessionGrouping.group(rows, sourceFile: sourceFile,
                                                                    gapSeconds: options.gapMinutes * 60)
            anomalies += groupingAnomalies
            let latency = repairedLatencies(rows, sourceFile: sourceFile, groups: groups, anomalies: &anomalies)
            noteImplausibleLatencies(rows, sourceFile: sourceFile, latency: latency, anomalies: &anomalies)
            let builder = SessionRecordBuilder(sourceFile: sourceFile, rows: rows, latency: latency,
                                               percentileOfRow: appPercentiles(rows, latency: latency),
                                               options: options)
            trials.reserveCapacity(rows.indices.reduce(0) { $0 + (rows.isSessionRow(at: $1) ? 0 : 1) })
            for (offset, group) in groups.enumerated() {
                sessions.append(builder.session(group, seq: offset + 1, trials: &trials, anomalies: &anomalies))
            }
        }
        trials.finishAdding()
        SessionStatistics.apply(trials: &trials, sessions: &sessions, options: options, format: .brt)
        return RTAnalysis(sourceFile: sourceFile, format: .brt, trials: trials, sessions: sessions,
                          anomalies: ordered(anomalies))
    }

    /// Latencies after unit repair, per row: a session dated before 2014-04-27 is scaled by its median value
    /// (below 5: seconds, ×1000; below 100: ms÷10, ×10; else already ms) (§6).
    static func repairedLatencies(_ rows: ResultsRows, sourceFile: String, groups: [SessionGroup],
                                  anomalies: inout [Anomaly]) -> [Double] {
        var latency = rows.indices.map(rows.value(at:))
        for group in groups {
            guard let first = group.trialRows.first, rows.time(at: first) < unitRepairBefore else { continue }
            let values = group.trialRows.map(rows.value(at:))
            let median = DescriptiveStatistics.median(values) ?? 0
            let factor: Double = median < 5 ? 1000 : median < 100 ? 10 : 1
            for row in group.trialRows { latency[row] = rows.value(at: row) * factor }
            anomalies.append(anomaly(sourceFile, rows.line(at: first), .legacyUnit,
                                     "session before 2014-04-27 with median value \(median): latencies multiplied by \(factor == 1 ? "1 (already ms)" : String(Int(factor)))", location: "D"))
        }
        return latency
    }

    /// Notes every trial row whose repaired latency lies outside 50…60000 ms.
    static func noteImplausibleLatencies(_ rows: ResultsRows, sourceFile: String, latency: [Double],
                                         anomalies: inout [Anomaly]) {
        for row in rows.indices where !rows.isSessionRow(at: row) && (latency[row] < 50 || latency[row] > 60000) {
            anomalies.append(anomaly(sourceFile, rows.line(at: row), .latencyImplausible,
                                     "latency \(latency[row]) ms outside 50…60000 ms", location: "D"))
        }
    }

    /// The counts behind the app's percentile of each row (by row index; zero for session rows), computed over
    /// all trial rows in file order (§7).
    static func appPercentiles(_ rows: ResultsRows, latency: [Double]) -> [AppPercentile.Counts] {
        let trialRowIndices = rows.indices.lazy.filter { !rows.isSessionRow(at: $0) }
        let counts = AppPercentile.counts(labels: trialRowIndices.map(rows.label(at:)),
                                          latencies: trialRowIndices.map { latency[$0] })
        var percentileOfRow = [AppPercentile.Counts](repeating: AppPercentile.Counts(), count: rows.count)
        for (position, row) in trialRowIndices.enumerated() { percentileOfRow[row] = counts[position] }
        return percentileOfRow
    }

    /// An anomaly of the analysis (without raw text).
    static func anomaly(_ sourceFile: String, _ line: Int?, _ code: AnomalyCode, _ message: String,
                        location: String? = nil) -> Anomaly {
        Anomaly(sourceFile: sourceFile, line: line, location: location, code: code, message: message, raw: nil)
    }

    /// Anomalies by line (whole-file ones first), stable within a line.
    static func ordered(_ anomalies: [Anomaly]) -> [Anomaly] {
        anomalies.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
    }
}
