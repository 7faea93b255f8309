import Tables

/// Turns a parsed `BrainTrackerResultsFile.csv` into trials and sessions: grouping (§5.3), identity and UTC
/// offset (§5.1), unit repair (§6), the app's percentile and SessionScore (§7) and the statistics (§8).
public enum ResultsFileAnalysis {
    /// Rows dated before this (2014-04-27) may be in seconds or ms÷10 (§6 unit repair).
    static let unitRepairBefore = CivilTime.seconds(year: 2014, month: 4, day: 27)

    /// Analyses a parsed file.
    public static func analyze(_ file: ResultsFile, options: SessionAnalysisOptions) -> RTAnalysis {
        let rows = file.rows
        var anomalies = file.anomalies
        func note(_ line: Int?, _ code: AnomalyCode, _ message: String, location: String? = nil) {
            anomalies.append(Anomaly(sourceFile: file.sourceFile, line: line, location: location, code: code,
                                     message: message, raw: nil))
        }
        let (groups, groupingAnomalies) = SessionGrouping.group(file, gapSeconds: options.gapMinutes * 60)
        anomalies += groupingAnomalies

        // Latencies after unit repair, per row.
        var latency = rows.map(\.value)
        for group in groups {
            guard let first = group.trialRows.first, rows[first].time < unitRepairBefore else { continue }
            let values = group.trialRows.map { rows[$0].value }
            let median = DescriptiveStatistics.median(values) ?? 0
            let factor: Double = median < 5 ? 1000 : median < 100 ? 10 : 1
            for row in group.trialRows { latency[row] = rows[row].value * factor }
            note(rows[first].line, .legacyUnit,
                 "session before 2014-04-27 with median value \(median): latencies multiplied by \(factor == 1 ? "1 (already ms)" : String(Int(factor)))", location: "D")
        }
        for row in rows.indices where !rows[row].isSessionRow && (latency[row] < 50 || latency[row] > 60000) {
            note(rows[row].line, .latencyImplausible, "latency \(latency[row]) ms outside 50…60000 ms", location: "D")
        }

        // The app's percentile over all trial rows in file order.
        let trialRowIndices = rows.indices.filter { !rows[$0].isSessionRow }
        let percentiles = AppPercentile.compute(labels: trialRowIndices.map { rows[$0].label },
                                                latencies: trialRowIndices.map { latency[$0] })
        var percentileOfRow: [Int: AppPercentile.Result] = [:]
        for (position, row) in trialRowIndices.enumerated() { percentileOfRow[row] = percentiles[position] }

        var trials: [TrialRecord] = []
        trials.reserveCapacity(trialRowIndices.count)
        var sessions: [SessionRecord] = []
        for (offset, group) in groups.enumerated() {
            let seq = offset + 1
            let sessionRow = group.sessionRow.map { rows[$0] }
            let firstTrial = group.trialRows.first.map { rows[$0] }
            let rawID = firstTrial?.id ?? sessionRow?.id ?? ""
            let id: String? = rawID.isEmpty ? nil : rawID
            let stamp = id.flatMap(SessionIDStamp.init(id:))
            let rowIsStart = sessionRow.map { !$0.id.isEmpty && $0.format != .legacy4 } ?? false
            let startUTC = rowIsStart ? sessionRow?.time : (firstTrial?.time ?? sessionRow?.time)

            // Identity: the UTC offset from the ID's stamp (§5.1).
            var offsetMinutes: Int?
            var offsetSource: String?
            if let stamp, let anchor = startUTC {
                let sourceLine = (group.sessionRow ?? group.trialRows.first).map { rows[$0].line }
                switch stamp.decode(anchor: anchor, roundToQuarterHour: !rowIsStart) {
                case .offset(let minutes, _):
                    offsetMinutes = minutes
                    offsetSource = rowIsStart ? "session_row" : "first_trial"
                    if SessionIDStamp.isOdd(offsetMinutes: minutes) {
                        note(sourceLine, .offsetOdd, "UTC offset \(minutes) min is outside −720…+840 or not a multiple of 15", location: "A")
                    }
                case .unparsed(let reason):
                    note(sourceLine, .idStampUnparsed, "ID \(rawID): \(reason); UTC offset NA", location: "A")
                }
            }

            let comment: String?
            if let sessionRow {
                comment = sessionRow.trailing
            } else if let firstTrial, firstTrial.format == .legacyHandID || firstTrial.format == .timestampParen {
                comment = firstTrial.trailing
            } else if let stamp {
                comment = stamp.comment
            } else if let id {
                comment = id.hasPrefix("ID") ? String(id.dropFirst(2)) : id
            } else {
                comment = nil
            }

            // The rule of the app build in use when the session started.
            let ruleTime = firstTrial?.time ?? sessionRow?.time ?? 0
            let rule: ScoreRule = switch options.scoreRule {
            case .window100: .window100
            case .allHistory: .allHistory
            case .auto: ruleTime < options.ruleCutover ? .allHistory : .window100
            }

            var pctSum = 0.0
            for (position, row) in group.trialRows.enumerated() {
                let trialRow = rows[row]
                let (p, n) = percentileOfRow[row]?.value(rule) ?? (0, 0)
                pctSum += p
                let exclusion = options.sethExclusion(latency: latency[row], correct: true, include: true)
                trials.append(TrialRecord(
                    line: trialRow.line, rowFormat: trialRow.format, sessionSeq: seq,
                    sessionID: trialRow.id.isEmpty ? nil : trialRow.id, trialIndex: position + 1,
                    timeUTC: trialRow.time,
                    timeLocal: offsetMinutes.map { CivilTime.iso8601(wallSeconds: trialRow.time + Double($0 * 60), offsetMinutes: $0) },
                    target: trialRow.label, latencyMs: latency[row], correct: true, include: true, validSeth: exclusion == nil, exclusion: exclusion,
                    pctApp: p, pctRule: rule, pctN: n, ptileSeth: nil, ptileStored: nil))
            }
            let nTrials = group.trialRows.count
            let nExpected = options.trialsPerSession ?? nTrials
            var record = SessionRecord(
                sessionSeq: seq, sessionID: id, comment: comment, startUTC: startUTC,
                endUTC: group.trialRows.last.map { rows[$0].time }, utcOffsetMin: offsetMinutes,
                offsetSource: offsetSource,
                startLocal: offsetMinutes.flatMap { minutes in startUTC.map { CivilTime.iso8601(wallSeconds: $0 + Double(minutes * 60), offsetMinutes: minutes) } },
                nTrials: nTrials, nExpected: nExpected, complete: sessionRow != nil, isWarmup: false,
                sessionLine: sessionRow?.line, scoreStored: sessionRow?.value, scoreRecomputed: nil, scoreDelta: nil,
                scoreMatch: nil, scoreRule: rule, pctAppMean: nTrials > 0 ? pctSum / Double(nTrials) : nil,
                nValidSeth: 0)
            if let sessionRow, nExpected > 0 {
                let recomputed = pctSum / Double(nExpected)
                let delta = recomputed - sessionRow.value
                let match = AppPercentile.match(delta: delta)
                record.scoreRecomputed = recomputed
                record.scoreDelta = delta
                record.scoreMatch = match
                if match != "exact" {
                    note(sessionRow.line, .scoreDiffers,
                         "stored SessionScore \(sessionRow.value), recomputed \(recomputed) (\(rule.rawValue), N = \(nExpected)): \(match)",
                         location: "D")
                }
            }
            if sessionRow != nil, nTrials != nExpected {
                note(sessionRow?.line, .nDiffers, "complete session with \(nTrials) trial rows, N = \(nExpected)")
            }
            sessions.append(record)
        }
        SessionStatistics.apply(trials: &trials, sessions: &sessions, options: options, format: .brt)
        anomalies = ordered(anomalies)
        return RTAnalysis(sourceFile: file.sourceFile, format: .brt, trials: trials, sessions: sessions,
                          anomalies: anomalies)
    }

    /// Anomalies by line (whole-file ones first), stable within a line.
    static func ordered(_ anomalies: [Anomaly]) -> [Anomaly] {
        anomalies.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
    }
}
