/// One viewing interval of an image (spec §5.5).
public struct StimulusView: Sendable, Equatable {
    public enum Status: String, Sendable { case closed, openAtEnd = "open_at_end", unmatchedOff = "unmatched_off" }
    public enum ClosedBy: String, Sendable { case off, offMismatch = "off_mismatch", nextOn = "next_on", endOfFile = "end_of_file" }

    /// 1, 2, … in file order.
    public var view: Int
    public var phase: String
    public var image: String?
    public var status: Status
    public var closedBy: ClosedBy?
    /// Event indices of the `stim_on` and of the event that closed the view (`nil` at end of file).
    public var onIndex: Int?
    public var offIndex: Int?
    public var onTime: Double?
    public var offTime: Double?
    /// 1…k per phase and image; `nil` for an unmatched `stim_off`.
    public var viewOfImage: Int?
    /// Strokes anchored after the view ends and before the next `stim_on`.
    public var strokesAfter = 0

    public var duration: Double? {
        guard let onTime, let offTime else { return nil }
        return offTime - onTime
    }
}

/// What a stroke sees of the stimuli at its anchor (spec §5.4).
public struct StimulusContext: Sendable, Equatable {
    /// Phase of the latest `stim_on`/`stim_off`.
    public var phase: String?
    /// Image and phase of the latest `stim_on`.
    public var lastStimulus: String?
    public var lastStimulusPhase: String?
    /// The `stim_on` count of that image before the anchor.
    public var viewsBefore: Int?
    /// Event index of the latest `stim_off`.
    public var lastOffIndex: Int?
    /// Whether a view is open.
    public var stimulusVisible = false
}

/// The viewing intervals of a log, held compactly (event indices and counts; the phase, image and times are
/// the events'). `views[i]` makes a ``StimulusView``.
public struct StimulusViews: RandomAccessCollection, Sendable {
    /// One view as stored.
    struct Record: Sendable {
        /// Event indices of the `stim_on` and of the event that closed the view; -1 for none.
        var on: Int
        var off: Int
        var viewOfImage: Int32
        var strokesAfter: Int32 = 0
        var status: StimulusView.Status
        var closedBy: StimulusView.ClosedBy?
    }

    let records: [Record]
    let log: ParsedLog

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(index: Int) -> StimulusView {
        let record = records[index]
        let stimulus = log.events.kind(at: record.on >= 0 ? record.on : record.off).stimulus
        let onIndex = record.on >= 0 ? record.on : nil, offIndex = record.off >= 0 ? record.off : nil
        let offTime: Double? = record.status == .openAtEnd ? (log.events.isEmpty ? nil : log.time(at: log.events.count - 1))
            : offIndex.flatMap(log.time(at:))
        return StimulusView(view: index + 1, phase: stimulus?.phase ?? "", image: stimulus?.image, status: record.status,
                            closedBy: record.closedBy, onIndex: onIndex, offIndex: offIndex,
                            onTime: onIndex.flatMap(log.time(at:)), offTime: offTime,
                            viewOfImage: record.viewOfImage >= 0 ? Int(record.viewOfImage) : nil,
                            strokesAfter: Int(record.strokesAfter))
    }
}

/// Turns `stim_on`/`stim_off` events into viewing intervals, in file order (spec §5.5).
struct StimulusViewTracker {
    private(set) var views: [StimulusViews.Record] = []
    private(set) var context = StimulusContext()
    /// The open view, with its phase and image.
    private var open: (index: Int, phase: String, image: String?)?
    private var viewCounts: [String: Int] = [:]

    private static func key(_ phase: String, _ image: String?) -> String { phase + "\u{0}" + (image ?? "") }

    /// Feeds one event; returns the flag to put on it (`duplicate_on`), if any.
    mutating func observe(_ kind: EventKind, index: Int, line: Int, name: @autoclosure () -> Substring,
                          anomalies: inout AnomalyRecorder) -> EventFlags? {
        switch kind {
        case .stimulusOn(let phase, let image):
            context.phase = phase
            if let open, open.phase == phase, open.image == image {
                anomalies.add(.duplicateOn, line: line, "'\(name())' while that image is already shown (no new view)",
                              raw: String(name()))
                return .duplicateOn
            }
            if let open { close(open.index, by: .nextOn, index: index) }
            let key = Self.key(phase, image)
            viewCounts[key, default: 0] += 1
            context.lastStimulus = image
            context.lastStimulusPhase = phase
            views.append(StimulusViews.Record(on: index, off: -1, viewOfImage: Int32(clamping: viewCounts[key] ?? 0),
                                              status: .closed, closedBy: nil))
            open = (views.count - 1, phase, image)
            context.stimulusVisible = true
        case .stimulusOff(let phase, let image):
            context.phase = phase
            context.lastOffIndex = index
            if let open {
                let matches = open.phase == phase && open.image == image
                if !matches {
                    anomalies.add(.offMismatch, line: line,
                                  "expected the Off of '\(open.phase)On_\(open.image ?? "")', found \(LogText.quoted(name()))",
                                  raw: String(name()))
                }
                close(open.index, by: matches ? .off : .offMismatch, index: index)
            } else {
                anomalies.add(.unmatchedOff, line: line, "\(LogText.quoted(name())) with no image shown",
                              raw: String(name()))
                views.append(StimulusViews.Record(on: -1, off: index, viewOfImage: -1, status: .unmatchedOff, closedBy: nil))
            }
        default: break
        }
        return nil
    }

    private mutating func close(_ view: Int, by reason: StimulusView.ClosedBy, index: Int) {
        views[view].closedBy = reason
        views[view].off = index
        open = nil
        context.stimulusVisible = false
    }

    /// Closes a view still open at the last event (`open_at_end`, `I_VIEW_OPEN_AT_END`).
    mutating func finish(lastLine: Int, anomalies: inout AnomalyRecorder) {
        guard let open else { return }
        views[open.index].status = .openAtEnd
        views[open.index].closedBy = .endOfFile
        anomalies.add(.viewOpenAtEnd, line: lastLine,
                      "'\(open.phase)On_\(open.image ?? "")' still shown at the last event; its duration is a lower bound")
        self.open = nil
    }

    /// Sets the strokes anchored after each closed view's end and before the next `stim_on` (spec §5.5).
    /// `anchors` are the strokes' anchor event indices, ascending; `stimulusOns` the `stim_on` event indices.
    mutating func countStrokesAfter(anchors: [Int], stimulusOns: [Int]) {
        for index in views.indices {
            guard views[index].status != .openAtEnd, views[index].off >= 0 else { continue }
            let end = views[index].off
            let nextOn = stimulusOns.firstIndex(after: end)
            let next = nextOn < stimulusOns.count ? stimulusOns[nextOn] : Int.max
            let count = anchors.firstIndex(atLeast: next) - anchors.firstIndex(after: end)
            views[index].strokesAfter = Int32(clamping: max(0, count))
        }
    }
}

extension Array where Element == Int {
    /// The index of the first element above `value` in an ascending array (`count` when none is).
    func firstIndex(after value: Int) -> Int { firstIndex(atLeast: value == Int.max ? value : value + 1) }

    /// The index of the first element at least `value` in an ascending array (`count` when none is).
    func firstIndex(atLeast value: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
