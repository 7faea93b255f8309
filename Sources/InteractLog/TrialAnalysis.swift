import Foundation

/// One log with its derived rows: strokes, viewing intervals, key presses and per-trial facts (spec §5).
public struct TrialAnalysis: Sendable {
    /// How far, in s, the events' span may differ from the header's Trial Start to Trial End before
    /// `W_SPAN_MISMATCH`.
    public static let spanToleranceSeconds = 2.0

    public var log: ParsedLog
    public var strokes: [Stroke]
    public var views: [StimulusView]
    public var keys: [KeyPress]
    public var duplicateReleases: Int
    /// What the file name says, if it follows the pattern.
    public var identity: FileNameIdentity?
    /// The iPad sidecar join, when an `InteractLog.json` was given.
    public var sidecar: SidecarJoin?
    /// Minutes east of UTC of the writing device (iPad), rounded to 15 min.
    public var utcOffsetMinutes: Int?

    /// Derives every row from a parsed log; `sidecar` is the `InteractLog.json` beside an iPad log, if any.
    public init(_ parsed: ParsedLog, sidecarJSON: Data? = nil) {
        var log = parsed
        var anomalies = log.anomalies
        var tracker = StimulusViewTracker()
        var pairer = StrokePairer()
        for index in log.events.indices {
            let event = log.events[index]
            let contextBefore = tracker.context
            if let flag = tracker.observe(event, index: index, time: log.times[index], anomalies: &anomalies) {
                log.events[index].flags.append(flag)
            }
            if let flag = pairer.observe(log.events, index: index, context: contextBefore, log: log, anomalies: &anomalies) {
                log.events[index].flags.append(flag)
            }
        }
        pairer.finish(events: log.events, anomalies: &anomalies)
        tracker.finish(lastTime: log.times.last ?? nil, lastLine: log.events.last?.line ?? 0, anomalies: &anomalies)
        var strokes = pairer.strokes
        var views = tracker.views
        for index in strokes.indices {
            let anchor = strokes[index].anchorIndex
            strokes[index].context.viewsBefore = strokes[index].context.lastStimulusPhase.map {
                Self.onCount(log.events, before: anchor, phase: $0, image: strokes[index].context.lastStimulus)
            }
        }
        let stimulusOnIndices = log.events.indices.filter { if case .stimulusOn = log.events[$0].kind { true } else { false } }
        for index in views.indices {
            guard views[index].status != .openAtEnd, let end = views[index].offIndex else { continue }
            let next = stimulusOnIndices.first { $0 > end } ?? Int.max
            views[index].strokesAfter = strokes.reduce(0) { $0 + ($1.anchorIndex > end && $1.anchorIndex < next ? 1 : 0) }
        }
        log.anomalies = anomalies
        self.log = log
        self.strokes = strokes
        self.views = views
        self.duplicateReleases = pairer.duplicateReleases
        self.keys = KeyPairing.pair(log, anomalies: &self.log.anomalies)
        self.identity = FileNameIdentity.parse(path: log.sourceFile)
        if let sidecarJSON, log.program == .ipad {
            sidecar = SidecarJoin(json: sidecarJSON, log: self.log, strokes: strokes, anomalies: &self.log.anomalies)
        }
        checkIdentity()
        checkTimes()
    }

    static func onCount(_ events: [LogEvent], before anchor: Int, phase: String, image: String?) -> Int {
        events[..<anchor].reduce(0) { count, event in
            if case .stimulusOn(let p, let i) = event.kind, p == phase, i == image { count + 1 } else { count }
        }
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
    public var eventSpan: Double? { log.times.last ?? nil }
    /// `Trial End` − `Trial Start` from the header.
    public var headerDuration: Double? {
        guard let start = log.header.trialStart, let end = log.header.trialEnd else { return nil }
        return end - start
    }
    /// UTC of the first event (iPad, from its epoch-ms timestamp).
    public var firstEventUTC: Double? {
        guard log.program == .ipad, log.times.first ?? nil != nil, let ms = log.events.first?.milliseconds else { return nil }
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
    public func count(_ status: Stroke.Status) -> Int { strokes.reduce(0) { $0 + ($1.status == status ? 1 : 0) } }
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
