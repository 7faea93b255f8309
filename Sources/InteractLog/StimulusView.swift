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

/// Turns `stim_on`/`stim_off` events into viewing intervals, in file order (spec §5.5).
struct StimulusViewTracker {
    private(set) var views: [StimulusView] = []
    private(set) var context = StimulusContext()
    private var open: Int?
    private var onCounts: [String: Int] = [:]
    private var viewCounts: [String: Int] = [:]

    private static func key(_ phase: String, _ image: String?) -> String { phase + "\u{0}" + (image ?? "") }

    /// Feeds one event; returns the flag to put on it (`duplicate_on`), if any.
    mutating func observe(_ event: LogEvent, index: Int, time: Double?, anomalies: inout AnomalyRecorder) -> String? {
        switch event.kind {
        case .stimulusOn(let phase, let image):
            context.phase = phase
            let key = Self.key(phase, image)
            if let open, views[open].phase == phase, views[open].image == image {
                anomalies.add(.duplicateOn, line: event.line, "'\(event.name)' while that image is already shown (no new view)",
                              raw: String(event.name))
                return "duplicate_on"
            }
            if let open { close(open, by: .nextOn, index: index, time: time) }
            onCounts[key, default: 0] += 1
            viewCounts[key, default: 0] += 1
            context.lastStimulus = image
            context.lastStimulusPhase = phase
            views.append(StimulusView(view: views.count + 1, phase: phase, image: image, status: .closed, closedBy: nil,
                                      onIndex: index, offIndex: nil, onTime: time, offTime: nil,
                                      viewOfImage: viewCounts[key]))
            open = views.count - 1
            context.stimulusVisible = true
        case .stimulusOff(let phase, let image):
            context.phase = phase
            context.lastOffIndex = index
            if let open {
                let matches = views[open].phase == phase && views[open].image == image
                if !matches {
                    anomalies.add(.offMismatch, line: event.line,
                                  "expected the Off of '\(views[open].phase)On_\(views[open].image ?? "")', found \(LogText.quoted(event.name))",
                                  raw: String(event.name))
                }
                close(open, by: matches ? .off : .offMismatch, index: index, time: time)
            } else {
                anomalies.add(.unmatchedOff, line: event.line, "\(LogText.quoted(event.name)) with no image shown",
                              raw: String(event.name))
                views.append(StimulusView(view: views.count + 1, phase: phase, image: image, status: .unmatchedOff,
                                          closedBy: nil, onIndex: nil, offIndex: index, onTime: nil, offTime: time,
                                          viewOfImage: nil))
            }
        default: break
        }
        return nil
    }

    /// The `stim_on` count of an image so far.
    func onCount(phase: String, image: String?) -> Int { onCounts[Self.key(phase, image)] ?? 0 }

    private mutating func close(_ view: Int, by reason: StimulusView.ClosedBy, index: Int, time: Double?) {
        views[view].closedBy = reason
        views[view].offIndex = index
        views[view].offTime = time
        open = nil
        context.stimulusVisible = false
    }

    /// Closes a view still open at the last event (`open_at_end`, `I_VIEW_OPEN_AT_END`).
    mutating func finish(lastTime: Double?, lastLine: Int, anomalies: inout AnomalyRecorder) {
        guard let open else { return }
        views[open].status = .openAtEnd
        views[open].closedBy = .endOfFile
        views[open].offTime = lastTime
        anomalies.add(.viewOpenAtEnd, line: lastLine,
                      "'\(views[open].phase)On_\(views[open].image ?? "")' still shown at the last event; its duration is a lower bound")
        self.open = nil
    }
}
