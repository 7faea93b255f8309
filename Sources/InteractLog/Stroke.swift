/// One stroke: a `ButtonDown`/`ButtonReleased` pair, or an unpaired row (spec §5.4).
public struct Stroke: Sendable, Equatable {
    /// A release repeating the previous one at the same point less than this many ms later is a duplicate
    /// (`W_DUPLICATE_RELEASE`, spec §4.1), not the end of a stroke.
    public static let duplicateReleaseWindowMs = 50.0

    public enum Status: String, Sendable { case paired, unpairedDown = "unpaired_down", unpairedRelease = "unpaired_release" }

    /// 1, 2, … by first line.
    public var stroke: Int
    public var status: Status
    /// Event indices of the press and release.
    public var downIndex: Int?
    public var upIndex: Int?
    /// The stimuli at the anchor (the press; the release for `unpaired_release`).
    public var context: StimulusContext
    /// Non-mouse events between press and release (paired strokes only).
    public var eventsWithin: Int?

    /// The anchor's event index.
    public var anchorIndex: Int { (status == .unpairedRelease ? upIndex : downIndex) ?? 0 }
}

/// The strokes of a log, held compactly: event indices, counts and the stimulus context shared by the strokes
/// between two stimulus events. `strokes[i]` makes a ``Stroke``.
public struct Strokes: RandomAccessCollection, Sendable {
    /// One stroke as stored.
    struct Record: Sendable {
        /// Event indices of the press and release; -1 for none.
        var down: Int
        var up: Int
        /// Index into ``contexts``.
        var context: Int32
        /// -1 for none.
        var eventsWithin: Int32
        var status: Stroke.Status
    }

    var records: [Record] = []
    /// The stimulus contexts strokes were anchored in, each once.
    var contexts: [StimulusContext] = []

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(index: Int) -> Stroke {
        let record = records[index]
        return Stroke(stroke: index + 1, status: record.status, downIndex: record.down >= 0 ? record.down : nil,
                      upIndex: record.up >= 0 ? record.up : nil, context: contexts[Int(record.context)],
                      eventsWithin: record.eventsWithin >= 0 ? Int(record.eventsWithin) : nil)
    }

    /// The anchor's event index of stroke `index` (the press; the release for `unpaired_release`).
    func anchorIndex(at index: Int) -> Int {
        let record = records[index]
        return record.status == .unpairedRelease ? record.up : record.down
    }
}

/// Pairs `ButtonDown` and `ButtonReleased` defensively, in file order (spec §5.4).
struct StrokePairer {
    private(set) var strokes = Strokes()
    private(set) var duplicateReleases = 0
    private var open: Strokes.Record?

    /// Makes the stimulus context of a stroke anchored now the current one (``Strokes/contexts``), if it is not
    /// already.
    mutating func use(_ context: StimulusContext, changed: Bool) {
        if changed || strokes.contexts.isEmpty { strokes.contexts.append(context) }
    }

    private var contextIndex: Int32 { Int32(clamping: strokes.contexts.count - 1) }

    /// Feeds one event of `log` (whose kind is `kind`) with the stimulus context ``use(_:changed:)`` set;
    /// returns the flag for the event (`duplicate_release`), if any.
    mutating func observe(_ kind: EventKind, index: Int, log: ParsedLog, anomalies: inout AnomalyRecorder) -> EventFlags? {
        let events = log.events
        switch kind {
        case .buttonDown:
            if let stroke = open { emitUnpairedDown(stroke, events: events, anomalies: &anomalies) }
            open = Strokes.Record(down: index, up: -1, context: contextIndex, eventsWithin: -1, status: .paired)
        case .buttonReleased:
            if index > 0, events.kind(at: index - 1) == .buttonReleased, events.x(at: index - 1) == events.x(at: index),
               events.y(at: index - 1) == events.y(at: index), let gap = log.milliseconds(from: index - 1, to: index),
               gap >= 0, gap < Stroke.duplicateReleaseWindowMs {
                duplicateReleases += 1
                anomalies.add(.duplicateRelease, line: events.line(at: index),
                              "'ButtonReleased' repeats the previous release at the same point \(gap) ms later (not paired)",
                              raw: events.name(at: index).text)
                return .duplicateRelease
            }
            if var stroke = open, stroke.down >= 0 {
                let down = stroke.down
                stroke.up = index
                var within = 0
                var spansStimulus = false
                for between in (down + 1)..<index {
                    let kind = events.kind(at: between)
                    if !kind.isButton { within += 1 }
                    if case .stimulusOn = kind { spansStimulus = true }
                }
                stroke.eventsWithin = Int32(clamping: within)
                if spansStimulus {
                    anomalies.add(.strokeSpansStimulus, line: events.line(at: index),
                                  "the stroke from line \(events.line(at: down)) spans a stimulus onset")
                }
                strokes.records.append(stroke)
                open = nil
            } else {
                anomalies.add(.unpairedRelease, line: events.line(at: index), "'ButtonReleased' without an open 'ButtonDown'",
                              raw: events.name(at: index).text)
                strokes.records.append(Strokes.Record(down: -1, up: index, context: contextIndex, eventsWithin: -1,
                                                      status: .unpairedRelease))
            }
        default: break
        }
        return nil
    }

    private mutating func emitUnpairedDown(_ stroke: Strokes.Record, events: LogEvents, anomalies: inout AnomalyRecorder) {
        var row = stroke
        row.status = .unpairedDown
        anomalies.add(.unpairedDown, line: stroke.down >= 0 ? events.line(at: stroke.down) : nil,
                      "'ButtonDown' without a 'ButtonReleased'", raw: "ButtonDown")
        strokes.records.append(row)
    }

    /// Emits a stroke still open at the end of the file as `unpaired_down`.
    mutating func finish(events: LogEvents, anomalies: inout AnomalyRecorder) {
        if let stroke = open { emitUnpairedDown(stroke, events: events, anomalies: &anomalies) }
        open = nil
    }
}
