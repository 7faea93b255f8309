import Foundation

/// One log with its derived rows: strokes, viewing intervals, key presses and per-trial facts (spec §5).
public struct TrialAnalysis: Sendable {
    /// How far, in s, the events' span may differ from the header's Trial Start to Trial End before
    /// `W_SPAN_MISMATCH`.
    public static let spanToleranceSeconds = 2.0

    public var log: ParsedLog
    public var strokes: Strokes
    var viewRecords: [StimulusViews.Record]
    var keyRecords: [KeyPresses.Record]
    public var duplicateReleases: Int
    /// What the file name says, if it follows the pattern.
    public var identity: FileNameIdentity?
    /// The iPad sidecar join, when an `InteractLog.json` was given.
    public var sidecar: SidecarJoin?
    /// Minutes east of UTC of the writing device (iPad), rounded to 15 min.
    public var utcOffsetMinutes: Int?

    /// The viewing intervals, in file order.
    public var views: StimulusViews { StimulusViews(records: viewRecords, log: log) }
    /// The key presses, in file order.
    public var keys: KeyPresses { KeyPresses(records: keyRecords, events: log.events, variant: log.variant) }

    /// Derives every row from a parsed log; `sidecar` is the `InteractLog.json` beside an iPad log, if any.
    ///
    /// One pass over the events, linear in their number: the stimulus context of each stroke (`views_before`
    /// included) is known when the stroke is met, and each view's `strokes_after` is counted by binary search in
    /// the strokes' anchors.
    public init(_ parsed: consuming ParsedLog, sidecarJSON: Data? = nil) {
        // The log's events are flagged in place: taken over, so that no other reference makes them copied.
        var log = consume parsed
        var anomalies = log.anomalies
        var tracker = StimulusViewTracker()
        var pairer = StrokePairer()
        /// `stim_on` events so far per phase and image, repeated ones (`duplicate_on`) included.
        var onCounts: [StimulusKey: Int] = [:]
        var stimulusOns: [Int] = []
        var contextChanged = true
        for index in log.events.indices {
            let kind = log.events.kind(at: index)
            switch kind {
            case .stimulusOn, .stimulusOff:
                if let flag = tracker.observe(kind, index: index, line: log.events.line(at: index),
                                              name: Substring(log.events.name(at: index).text), anomalies: &anomalies) {
                    log.events.insert(flag, at: index)
                }
                if case .stimulusOn(let phase, let image) = kind {
                    onCounts[StimulusKey(phase: phase, image: image), default: 0] += 1
                    stimulusOns.append(index)
                }
                contextChanged = true
            case .buttonDown, .buttonReleased:
                if contextChanged {
                    var context = tracker.context
                    context.viewsBefore = context.lastStimulusPhase.map {
                        onCounts[StimulusKey(phase: $0, image: context.lastStimulus)] ?? 0
                    }
                    pairer.use(context, changed: true)
                    contextChanged = false
                }
                if let flag = pairer.observe(kind, index: index, log: log, anomalies: &anomalies) {
                    log.events.insert(flag, at: index)
                }
            default: break
            }
        }
        pairer.finish(events: log.events, anomalies: &anomalies)
        tracker.finish(lastLine: log.events.isEmpty ? 0 : log.events.line(at: log.events.count - 1), anomalies: &anomalies)
        let strokes = pairer.strokes
        tracker.countStrokesAfter(anchors: strokes.indices.map(strokes.anchorIndex(at:)), stimulusOns: stimulusOns)
        log.anomalies = anomalies
        self.log = log
        self.strokes = strokes
        self.viewRecords = tracker.views
        self.duplicateReleases = pairer.duplicateReleases
        self.keyRecords = KeyPairing.pair(log, anomalies: &self.log.anomalies)
        self.identity = FileNameIdentity.parse(path: log.sourceFile)
        if let sidecarJSON, log.program == .ipad {
            sidecar = SidecarJoin(json: sidecarJSON, log: self.log, strokes: strokes, anomalies: &self.log.anomalies)
        }
        checkIdentity()
        checkTimes()
    }

    /// A phase and image, compared as the stroke context compares them (`nil` image apart from `""`).
    struct StimulusKey: Hashable {
        var phase: String
        var image: String?
    }

    /// File name against header: participant, trial, stamp; the default name.
    mutating func checkIdentity() {
        let header = log.header
        if header.name == "Anonymous Participant" {
            log.anomalies.add(.defaultName, "participant 'Anonymous Participant' identifies nobody")
        }
        guard let identity else { return }
        if let name = header.name, name != identity.participant {
            log.anomalies.add(.nameMismatch, "header Name '\(name)' differs from the file name's '\(identity.participant)'")
        }
        if let trial = header.trialNumber, trial != identity.trial {
            log.anomalies.add(.trialMismatch, "header Trial Number \(trial) differs from the file name's \(identity.trial)")
        }
        if let start = header.experimentStart, LocalDateTime.fileStamp(start) != identity.stamp {
            log.anomalies.add(.stampMismatch,
                              "file-name stamp '\(identity.stamp)' differs from Experiment Start '\(LocalDateTime.fileStamp(start))'")
        }
    }

    /// Event span against header duration; the iPad's UTC offset.
    mutating func checkTimes() {
        if let span = eventSpan, let duration = headerDuration {
            if span > duration + Self.spanToleranceSeconds || (log.program == .java && duration > span + Self.spanToleranceSeconds) {
                log.anomalies.add(.spanMismatch, "events span \(span) s but the header's Trial Start to Trial End is \(duration) s")
            }
        }
        guard log.program == .ipad, let local = log.header.trialStart else { return }
        let utc = sidecar?.trialStartUTC ?? firstEventUTC
        guard let utc else { return }
        let difference = local - utc
        let rounded = (difference / 900).rounded() * 900
        if !(abs(difference) <= 18 * 3600) || abs(difference - rounded) > 120 {
            log.anomalies.add(.utcOffset, "Trial Start minus the first event's UTC is \(difference) s, not a whole quarter hour; utc_offset_min is NA")
        } else {
            utcOffsetMinutes = Int(rounded / 60)
        }
    }

    /// Seconds from the first to the last event.
    public var eventSpan: Double? { log.events.isEmpty ? nil : log.time(at: log.events.count - 1) }
    /// `Trial End` − `Trial Start` from the header.
    public var headerDuration: Double? {
        guard let start = log.header.trialStart, let end = log.header.trialEnd else { return nil }
        return end - start
    }
    /// UTC of the first event (iPad, from its epoch-ms timestamp).
    public var firstEventUTC: Double? {
        guard log.program == .ipad, !log.events.isEmpty, log.time(at: 0) != nil,
              let ms = log.events.milliseconds(at: 0) else { return nil }
        return ms / 1000
    }

    /// `<participant>|<stamp>` (Java), or the iPad run folder when it matches the sidecar's `id`.
    public var runKey: String? {
        if let folder = sidecar?.runID, Self.parentFolder(log.sourceFile) == folder { return folder }
        let stamp = identity?.stamp ?? log.header.experimentStart.map(LocalDateTime.fileStamp)
        guard let participant = log.header.name ?? identity?.participant, let stamp else { return nil }
        return participant + "|" + stamp
    }

    /// The name of the folder holding a path (`2023-07-04`, a run UUID), or `nil` for a bare file name.
    public static func parentFolder(_ path: String) -> String? {
        let parts = path.split(separator: "/")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : nil
    }

    /// Strokes of a status.
    public func count(_ status: Stroke.Status) -> Int { strokes.records.reduce(0) { $0 + ($1.status == status ? 1 : 0) } }
}

extension TrialAnalysis {
    /// Records `W_DUPLICATE_TRIAL` on each log whose participant and trial appeared in another run before it.
    public static func checkDuplicateTrials(_ analyses: inout [TrialAnalysis]) {
        var firstRun: [String: (runKey: String?, file: String)] = [:]
        for index in analyses.indices {
            let header = analyses[index].log.header
            guard let name = header.name, name != "Anonymous Participant", let trial = header.trialNumber else { continue }
            let key = "\(name)\u{0}\(trial)"
            let runKey = analyses[index].runKey
            if let earlier = firstRun[key] {
                if earlier.runKey != runKey {
                    analyses[index].log.anomalies.add(.duplicateTrial,
                                                      "participant '\(name)' trial \(trial) also appears in another run (\(earlier.file))")
                }
            } else {
                firstRun[key] = (runKey, analyses[index].log.sourceFile)
            }
        }
    }
}
