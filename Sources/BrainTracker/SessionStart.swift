/// What a session's rows say about its identity and start (spec §5.1): its session row, its first trial row, the
/// session ID and its stamp.
struct SessionStart {
    /// The session row that closed the session, nil for an aborted one.
    var sessionRow: ResultsRow?
    /// The first trial row, nil for a lone session row.
    var firstTrial: ResultsRow?
    /// The ID of the first trial row, else of the session row (`""` when neither has one).
    var rawID: String
    /// `rawID`, nil when empty.
    var id: String?
    /// What the ID's `|` part says, nil without one.
    var stamp: SessionIDStamp?
    /// Whether the session row's time is the start: a session row with an ID, not of the 4-field layout.
    var rowIsStart: Bool
    /// The session row's time when it is the start, else the first trial's (else the session row's).
    var startUTC: Double?

    init(group: SessionGroup, rows: ResultsRows) {
        sessionRow = group.sessionRow.map { rows[$0] }
        firstTrial = group.trialRows.first.map { rows[$0] }
        rawID = firstTrial?.id ?? sessionRow?.id ?? ""
        id = rawID.isEmpty ? nil : rawID
        stamp = id.flatMap(SessionIDStamp.init(id:))
        rowIsStart = sessionRow.map { !$0.id.isEmpty && $0.format != .legacy4 } ?? false
        startUTC = rowIsStart ? sessionRow?.time : (firstTrial?.time ?? sessionRow?.time)
    }

    /// The session's comment: field E of its session row, else of a hand-ID or `(timestamp=…)` first trial, else
    /// the ID's comment part, else the ID without a leading `ID`.
    var comment: String? {
        if let sessionRow {
            sessionRow.trailing
        } else if let firstTrial, firstTrial.format == .legacyHandID || firstTrial.format == .timestampParen {
            firstTrial.trailing
        } else if let stamp {
            stamp.comment
        } else if let id {
            id.hasPrefix("ID") ? String(id.dropFirst(2)) : id
        } else {
            nil
        }
    }

    /// When the session started, for the choice of the app build's score rule: the first trial's time, else the
    /// session row's, else 0.
    var ruleTime: Double { firstTrial?.time ?? sessionRow?.time ?? 0 }
}
