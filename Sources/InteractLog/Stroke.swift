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

/// Pairs `ButtonDown` and `ButtonReleased` defensively, in file order (spec §5.4).
struct StrokePairer {
    private(set) var strokes: [Stroke] = []
    private(set) var duplicateReleases = 0
    private var open: Stroke?

    /// Feeds one event with the stimulus context before it; returns the flag for the event
    /// (`duplicate_release`), if any.
    mutating func observe(_ events: [LogEvent], index: Int, context: StimulusContext, log: ParsedLog,
                          anomalies: inout AnomalyRecorder) -> String? {
        let event = events[index]
        switch event.kind {
        case .buttonDown:
            if let stroke = open { emitUnpairedDown(stroke, events: events, anomalies: &anomalies) }
            open = Stroke(stroke: 0, status: .paired, downIndex: index, upIndex: nil, context: context, eventsWithin: nil)
        case .buttonReleased:
            if index > 0, events[index - 1].kind == .buttonReleased, events[index - 1].x == event.x,
               events[index - 1].y == event.y, let gap = log.milliseconds(from: index - 1, to: index), gap >= 0, gap < Stroke.duplicateReleaseWindowMs {
                duplicateReleases += 1
                anomalies.add(.duplicateRelease, line: event.line,
                              "'ButtonReleased' repeats the previous release at the same point \(gap) ms later (not paired)",
                              raw: String(event.name))
                return "duplicate_release"
            }
            if var stroke = open, let down = stroke.downIndex {
                stroke.upIndex = index
                stroke.eventsWithin = events[(down + 1)..<index].reduce(0) { $0 + ($1.kind.isButton ? 0 : 1) }
                if events[(down + 1)..<index].contains(where: { if case .stimulusOn = $0.kind { true } else { false } }) {
                    anomalies.add(.strokeSpansStimulus, line: event.line,
                                  "the stroke from line \(events[down].line) spans a stimulus onset")
                }
                append(stroke)
                open = nil
            } else {
                anomalies.add(.unpairedRelease, line: event.line, "'ButtonReleased' without an open 'ButtonDown'",
                              raw: String(event.name))
                append(Stroke(stroke: 0, status: .unpairedRelease, downIndex: nil, upIndex: index, context: context,
                              eventsWithin: nil))
            }
        default: break
        }
        return nil
    }

    private mutating func emitUnpairedDown(_ stroke: Stroke, events: [LogEvent], anomalies: inout AnomalyRecorder) {
        var row = stroke
        row.status = .unpairedDown
        let line = stroke.downIndex.map { events[$0].line }
        anomalies.add(.unpairedDown, line: line, "'ButtonDown' without a 'ButtonReleased'", raw: "ButtonDown")
        append(row)
    }

    private mutating func append(_ stroke: Stroke) {
        var row = stroke
        row.stroke = strokes.count + 1
        strokes.append(row)
    }

    /// Emits a stroke still open at the end of the file as `unpaired_down`.
    mutating func finish(events: [LogEvent], anomalies: inout AnomalyRecorder) {
        if let stroke = open { emitUnpairedDown(stroke, events: events, anomalies: &anomalies) }
        open = nil
    }
}
