import Tables

/// Turns a parsed `BrainTrackerResultsFile.csv` into trials and sessions: grouping (§5.3), identity and UTC
/// offset (§5.1), unit repair (§6), the app's percentile and SessionScore (§7) and the statistics (§8).
public enum ResultsFileAnalysis {
    /// Rows dated before this (2014-04-27) may be in seconds or ms÷10 (§6 unit repair).
    static let unitRepairBefore = CivilTime.seconds(year: 2014, month: 4, day: 27)

    /// Analyses a parsed file.
    public static func analyze(_ file: ResultsFile, options: SessionAnalysisOptions) -> RTAnalysis {
        var anomalies = file.anomalies
        let (groups, groupingAnomalies) = SessionGrouping.group(file, gapSeconds: options.gapMinutes * 60)
        anomalies += groupingAnomalies
        let latency = repairedLatencies(file, groups: groups, anomalies: &anomalies)
        noteImplausibleLatencies(file, latency: latency, anomalies: &anomalies)
        let builder = SessionRecordBuilder(sourceFile: file.sourceFile, rows: file.rows, latency: latency,
                                           percentileOfRow: appPercentiles(file.rows, latency: latency),
                                           options: options)
        var trials: [TrialRecord] = []
        trials.reserveCapacity(builder.percentileOfRow.count)
        var sessions: [SessionRecord] = []
        for (offset, group) in groups.enumerated() {
            sessions.append(builder.session(group, seq: offset + 1, trials: &trials, anomalies: &anomalies))
        }
        SessionStatistics.apply(trials: &trials, sessions: &sessions, options: options, format: .brt)
        return RTAnalysis(sourceFile: file.sourceFile, format: .brt, trials: trials, sessions: sessions,
                          anomalies: ordered(anomalies))
    }

    /// Latencies after unit repair, per row: a session dated before 2014-04-27 is scaled by its median value
    /// (below 5: seconds, ×1000; below 100: ms÷10, ×10; else already ms) (§6).
    static func repairedLatencies(_ file: ResultsFile, groups: [SessionGroup], anomalies: inout [Anomaly]) -> [Double] {
        let rows = file.rows
        var latency = rows.map(\.value)
        for group in groups {
            guard let first = group.trialRows.first, rows[first].time < unitRepairBefore else { continue }
            let values = group.trialRows.map { rows[$0].value }
            let median = DescriptiveStatistics.median(values) ?? 0
            let factor: Double = median < 5 ? 1000 : median < 100 ? 10 : 1
            for row in group.trialRows { latency[row] = rows[row].value * factor }
            anomalies.append(anomaly(file.sourceFile, rows[first].line, .legacyUnit,
                                     "session before 2014-04-27 with median value \(median): latencies multiplied by \(factor == 1 ? "1 (already ms)" : String(Int(factor)))", location: "D"))
        }
        return latency
    }

    /// Notes every trial row whose repaired latency lies outside 50…60000 ms.
    static func noteImplausibleLatencies(_ file: ResultsFile, latency: [Double], anomalies: inout [Anomaly]) {
        let rows = file.rows
        for row in rows.indices where !rows[row].isSessionRow && (latency[row] < 50 || latency[row] > 60000) {
            anomalies.append(anomaly(file.sourceFile, rows[row].line, .latencyImplausible,
                                     "latency \(latency[row]) ms outside 50…60000 ms", location: "D"))
        }
    }

    /// The app's percentile of each trial row (by row index), computed over all trial rows in file order (§7).
    static func appPercentiles(_ rows: [ResultsRow], latency: [Double]) -> [Int: AppPercentile.Result] {
        let trialRowIndices = rows.indices.filter { !rows[$0].isSessionRow }
        let percentiles = AppPercentile.compute(labels: trialRowIndices.map { rows[$0].label },
                                                latencies: trialRowIndices.map { latency[$0] })
        var percentileOfRow: [Int: AppPercentile.Result] = [:]
        for (position, row) in trialRowIndices.enumerated() { percentileOfRow[row] = percentiles[position] }
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
