import Tables

/// Builds one session's record and its trials' records from its group of rows, once latencies are repaired and the
/// app's percentiles known: the UTC offset from the ID's stamp (§5.1), the score rule, and the stored SessionScore
/// checked against the recomputed one (§7).
struct SessionRecordBuilder {
    let sourceFile: String
    let rows: ResultsRows
    /// Latency per row after unit repair (§6).
    let latency: [Double]
    /// The counts behind the app's percentile, per row.
    let percentileOfRow: [AppPercentile.Counts]
    let options: SessionAnalysisOptions

    /// The record of session `seq` (1-based); appends its trials to `trials` and its anomalies to `anomalies`.
    func session(_ group: SessionGroup, seq: Int, trials: inout TrialRecords,
                 anomalies: inout [Anomaly]) -> SessionRecord {
        let start = SessionStart(group: group, rows: rows)
        let offset = utcOffset(start, group: group, anomalies: &anomalies)
        let rule = scoreRule(at: start.ruleTime)
        let pctSum = appendTrials(group, seq: seq, rule: rule, offsetMinutes: offset.minutes, to: &trials)
        let sessionRow = start.sessionRow
        let nTrials = group.trialRows.count
        let nExpected = options.trialsPerSession ?? nTrials
        let startUTC = start.startUTC
        var record = SessionRecord(
            sessionSeq: seq, sessionID: start.id, comment: start.comment, startUTC: startUTC,
            endUTC: group.trialRows.last.map(rows.time(at:)), utcOffsetMin: offset.minutes,
            offsetSource: offset.source,
            startLocal: offset.minutes.flatMap { minutes in startUTC.map { CivilTime.iso8601(wallSeconds: $0 + Double(minutes * 60), offsetMinutes: minutes) } },
            nTrials: nTrials, nExpected: nExpected, complete: sessionRow != nil, isWarmup: false,
            sessionLine: sessionRow?.line, scoreStored: sessionRow?.value, scoreRecomputed: nil, scoreDelta: nil,
            scoreMatch: nil, scoreRule: rule, pctAppMean: nTrials > 0 ? pctSum / Double(nTrials) : nil,
            nValidSeth: 0)
        if let sessionRow, nExpected > 0 {
            recomputeScore(&record, sessionRow: sessionRow, pctSum: pctSum, nExpected: nExpected, rule: rule,
                           anomalies: &anomalies)
        }
        if sessionRow != nil, nTrials != nExpected {
            anomalies.append(ResultsFileAnalysis.anomaly(sourceFile, sessionRow?.line, .nDiffers,
                                                         "complete session with \(nTrials) trial rows, N = \(nExpected)"))
        }
        return record
    }

    /// The UTC offset decoded from the ID's stamp against the start (§5.1), exact against a session row and
    /// rounded to 15 min against a first trial, with where the anchor came from; nil values without a stamp or
    /// start.
    func utcOffset(_ start: SessionStart, group: SessionGroup,
                   anomalies: inout [Anomaly]) -> (minutes: Int?, source: String?) {
        guard let stamp = start.stamp, let anchor = start.startUTC else { return (nil, nil) }
        let sourceLine = (group.sessionRow ?? group.trialRows.first).map(rows.line(at:))
        switch stamp.decode(anchor: anchor, roundToQuarterHour: !start.rowIsStart) {
        case .offset(let minutes, _):
            if SessionIDStamp.isOdd(offsetMinutes: minutes) {
                anomalies.append(ResultsFileAnalysis.anomaly(sourceFile, sourceLine, .offsetOdd,
                                                             "UTC offset \(minutes) min is outside −720…+840 or not a multiple of 15", location: "A"))
            }
            return (minutes, start.rowIsStart ? "session_row" : "first_trial")
        case .unparsed(let reason):
            anomalies.append(ResultsFileAnalysis.anomaly(sourceFile, sourceLine, .idStampUnparsed,
                                                         "ID \(start.rawID): \(reason); UTC offset NA", location: "A"))
            return (nil, nil)
        }
    }

    /// The rule of the app build in use when the session started (`--score-rule`, `--rule-cutover`).
    func scoreRule(at ruleTime: Double) -> ScoreRule {
        switch options.scoreRule {
        case .window100: .window100
        case .allHistory: .allHistory
        case .auto: ruleTime < options.ruleCutover ? .allHistory : .window100
        }
    }

    /// Appends the session's trial records to `trials` and returns the sum of their app percentiles under `rule`.
    func appendTrials(_ group: SessionGroup, seq: Int, rule: ScoreRule, offsetMinutes: Int?,
                      to trials: inout TrialRecords) -> Double {
        var pctSum = 0.0
        for (position, row) in group.trialRows.enumerated() {
            let trialRow = rows[row]
            let (p, n) = percentileOfRow[row].value(rule)
            pctSum += p
            let exclusion = options.sethExclusion(latency: latency[row], correct: true, include: true)
            // The local time is made when the record is read, from the UTC time and the offset.
            trials.append(TrialRecord(
                line: trialRow.line, rowFormat: trialRow.format, sessionSeq: seq,
                sessionID: trialRow.id.isEmpty ? nil : trialRow.id, trialIndex: position + 1,
                timeUTC: trialRow.time, timeLocal: nil,
                target: trialRow.label, latencyMs: latency[row], correct: true, include: true, validSeth: exclusion == nil, exclusion: exclusion,
                pctApp: p, pctRule: rule, pctN: n, ptileSeth: nil, ptileStored: nil), localOffsetMinutes: offsetMinutes)
        }
        return pctSum
    }

    /// The SessionScore recomputed as the percentile sum over N (`--trials-per-session`, else the trial rows)
    /// against the stored one (§7); notes a difference that is not exact.
    func recomputeScore(_ record: inout SessionRecord, sessionRow: ResultsRow, pctSum: Double, nExpected: Int,
                        rule: ScoreRule, anomalies: inout [Anomaly]) {
        let recomputed = pctSum / Double(nExpected)
        let delta = recomputed - sessionRow.value
        let match = AppPercentile.match(delta: delta)
        record.scoreRecomputed = recomputed
        record.scoreDelta = delta
        record.scoreMatch = match
        if match != "exact" {
            anomalies.append(ResultsFileAnalysis.anomaly(sourceFile, sessionRow.line, .scoreDiffers,
                                                         "stored SessionScore \(sessionRow.value), recomputed \(recomputed) (\(rule.rawValue), N = \(nExpected)): \(match)",
                                                         location: "D"))
        }
    }
}
