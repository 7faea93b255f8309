import Tables

/// The rows of one session: its trial rows and the session row that closed it, if any (spec §5.3).
public struct SessionGroup: Sendable, Equatable {
    /// Indices into `ResultsFile.rows`, in file order.
    public var trialRows: [Int]
    /// Index into `ResultsFile.rows` of the session row, `nil` for an aborted session.
    public var sessionRow: Int?
    /// Whether the session row closed it with an empty field A (legacy/hand-edited files).
    public var closedByEmptyID: Bool = false

    /// The index of the first row (trial or session row), which orders sessions.
    public var firstRow: Int { min(trialRows.first ?? Int.max, sessionRow ?? Int.max) }
}

/// Groups the rows of a results file into sessions (spec §5.3).
public enum SessionGrouping {
    /// Groups `file.rows` in file order. `gapSeconds` splits runs closed by a session row with an empty ID
    /// (`--gap-minutes`). Sessions come back ordered by their first row; the anomalies name every split,
    /// detached or lone session row and aborted session.
    public static func group(_ file: ResultsFile, gapSeconds: Double) -> (sessions: [SessionGroup], anomalies: [Anomaly]) {
        group(file.rows, sourceFile: file.sourceFile, gapSeconds: gapSeconds)
    }

    /// Groups `rows` of `sourceFile` (``group(_:gapSeconds:)``).
    static func group(_ rows: ResultsRows, sourceFile: String,
                      gapSeconds: Double) -> (sessions: [SessionGroup], anomalies: [Anomaly]) {
        var groups: [SessionGroup] = []
        var anomalies: [Anomaly] = []
        func note(_ row: Int, _ code: AnomalyCode, _ message: String) {
            anomalies.append(Anomaly(sourceFile: sourceFile, line: rows.line(at: row), code: code, message: message,
                                     raw: nil))
        }
        var openRuns: [Int] = []        // groups started since the previous session row
        var currentRun: Int?            // the group the previous row (a trial row) extended
        // Groups that may still be without a session row, by the ID of their trial rows, in creation order: the
        // last one of an ID that truly is (those given a session row are dropped from the end when met) is the
        // run a detached session row belongs to.
        var openByID: [String: [Int]] = [:]
        func lastOpen(_ id: String) -> Int? {
            while let run = openByID[id]?.last {
                if groups[run].sessionRow == nil, !groups[run].trialRows.isEmpty { return run }
                openByID[id]?.removeLast()
            }
            return nil
        }
        for index in rows.indices {
            let row = rows[index]
            if !row.isSessionRow {
                if let run = currentRun, let last = groups[run].trialRows.last, rows.id(at: last) == row.id {
                    groups[run].trialRows.append(index)
                } else {
                    groups.append(SessionGroup(trialRows: [index], sessionRow: nil))
                    currentRun = groups.count - 1
                    openRuns.append(groups.count - 1)
                    openByID[row.id, default: []].append(groups.count - 1)
                }
                continue
            }
            defer { currentRun = nil; openRuns = [] }
            if !row.id.isEmpty {
                if let run = currentRun, groups[run].sessionRow == nil,
                   let last = groups[run].trialRows.last, rows.id(at: last) == row.id {
                    groups[run].sessionRow = index
                } else if let run = lastOpen(row.id) {
                    groups[run].sessionRow = index
                    note(index, .sessionRowDetached,
                         "session row for \(row.id) does not follow its trial rows; attached to the run at line \(rows.line(at: groups[run].trialRows[0]))")
                } else {
                    groups.append(SessionGroup(trialRows: [], sessionRow: index))
                    note(index, .sessionWithoutTrials, "session row for \(row.id) has no trial rows (kept as a session of 0 trials)")
                }
                continue
            }
            // Empty A: close every trial row since the previous session row, split where A changes (separate
            // runs already) or where trials are more than the gap apart; the last segment gets the session row.
            let pending = openRuns.filter { groups[$0].sessionRow == nil }
            guard !pending.isEmpty else {
                groups.append(SessionGroup(trialRows: [], sessionRow: index, closedByEmptyID: true))
                note(index, .sessionWithoutTrials, "session row with an empty ID has no trial rows since the previous session row (kept as a session of 0 trials)")
                continue
            }
            var lastSegment = pending[pending.count - 1]
            for run in pending {
                let trialRows = groups[run].trialRows
                var segments: [[Int]] = [[trialRows[0]]]
                var gaps: [Double] = []
                for (previous, next) in zip(trialRows, trialRows.dropFirst()) {
                    let gap = rows.time(at: next) - rows.time(at: previous)
                    if gap > gapSeconds {
                        segments.append([next])
                        gaps.append(gap)
                    } else {
                        segments[segments.count - 1].append(next)
                    }
                }
                groups[run].trialRows = segments[0]
                for (segment, gap) in zip(segments, gaps) {
                    let hours = (gap / 360).rounded() / 10
                    note(segment[0], .runSplit,
                         "\(segment.count) trial row\(segment.count == 1 ? "" : "s") before a \(hours) h gap form an aborted session")
                }
                for segment in segments.dropFirst() {
                    groups.append(SessionGroup(trialRows: segment, sessionRow: nil))
                    openByID[rows.id(at: segment[0]), default: []].append(groups.count - 1)
                    if run == pending[pending.count - 1] { lastSegment = groups.count - 1 }
                }
            }
            groups[lastSegment].sessionRow = index
            groups[lastSegment].closedByEmptyID = true
        }
        groups.sort { $0.firstRow < $1.firstRow }
        for group in groups where group.sessionRow == nil {
            let first = group.trialRows[0]
            note(first, .abortedSession,
                 "\(group.trialRows.count) trial row\(group.trialRows.count == 1 ? "" : "s") of \(rows.id(at: first).isEmpty ? "an unnamed session" : rows.id(at: first)) without a session row (aborted)")
        }
        anomalies.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return (groups, anomalies)
    }
}
