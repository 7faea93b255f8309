import Tables

/// One phase onset of a block, from a non-zero `/Recording/Marker` value (spec §5.3).
public struct MarkerEvent: Sendable, Equatable {
    /// 1-based position among the block's markers.
    public var index: Int
    /// Sample index from the first retained row.
    public var sample: Int
    /// `sample / rate` in s.
    public var onset: Double
    /// Time to the next marker (the last: to the end of the data) in s.
    public var duration: Double
    /// The marker code (910, 320, …).
    public var marker: Int
    /// `<label>/<phase>` (`EyesClosed/task`, `welcome/prompt`, `goodbye/prompt`).
    public var trialType: String
    /// `ready`, `ready_fixation`, `prompt`, `task`, `pause`, `fixation` (welcome) or `other`.
    public var phase: String
    /// The paradigm's condition label; `nil` for welcome/goodbye and unknown bases.
    public var condition: String?
    /// 1-based trial within the block (welcome = 1).
    public var trialInBlock: Int

    /// The phase of a marker's offset within its trial (spec §5.1).
    public static func phase(offset: Int) -> String? {
        switch offset {
        case 0: "ready"
        case 5: "ready_fixation"
        case 10: "prompt"
        case 20: "task"
        case 30: "pause"
        default: nil
        }
    }

    /// The expected number of markers of a block per scenario (spec §5.1).
    public static let expectedCount: [String: Int] = ["rest": 9, "music": 33, "memories": 33]

    /// The events of a block's marker column, with the warnings `no-markers`, `unknown-marker`, `no-goodbye`
    /// and `marker-count`.
    public static func events(markers: [Int], rate: Double, paradigm: Paradigm, scenario: String?,
                              sourceFile: String) -> (events: [MarkerEvent], anomalies: [Anomaly]) {
        var anomalies: [Anomaly] = []
        func warn(_ code: AnomalyCode, _ message: String, raw: String? = nil) {
            anomalies.append(Anomaly(sourceFile: sourceFile, location: "/Recording/Marker", code: code, message: message,
                                     raw: raw))
        }
        let onsets = markers.indices.filter { markers[$0] != 0 }
        var events: [MarkerEvent] = []
        var seenCondition = false
        var leadingWelcome = 0
        var trial = 0
        var previousKey: String?
        var previousOffset = Int.max
        for (position, sample) in onsets.enumerated() {
            let code = markers[sample]
            let base = code / 100, offset = code % 100
            let key: String
            let label: String
            var phase: String
            var condition: String?
            if base == 9 {
                if seenCondition {
                    key = "goodbye"; label = "goodbye"
                    phase = MarkerEvent.phase(offset: offset) ?? "other"
                } else {
                    key = "welcome"; label = "welcome"
                    phase = leadingWelcome == 0 ? "prompt" : leadingWelcome == 1 ? "fixation" : "other"
                    leadingWelcome += 1
                }
            } else {
                seenCondition = true
                key = String(base)
                if let match = paradigm.condition(ofMarker: code) {
                    label = match.label
                    condition = match.label
                } else {
                    label = "base\(base * 100)"
                }
                phase = MarkerEvent.phase(offset: offset) ?? "other"
            }
            if code < 100 || code > 999 || (phase == "other" && base != 9) {
                warn(.unknownMarker, "marker \(code) at sample \(sample) fits no phase of the marker scheme",
                     raw: String(code))
                phase = "other"
            }
            if key != previousKey || (key != "welcome" && key != "goodbye" && offset <= previousOffset) { trial += 1 }
            previousKey = key
            previousOffset = offset
            let next = position + 1 < onsets.count ? onsets[position + 1] : markers.count
            events.append(MarkerEvent(index: position + 1, sample: sample, onset: Double(sample) / rate,
                                      duration: Double(next - sample) / rate, marker: code,
                                      trialType: "\(label)/\(phase)", phase: phase, condition: condition,
                                      trialInBlock: trial))
        }
        if events.isEmpty {
            warn(.noMarkers, "the block has no non-zero marker")
        } else {
            if events.last?.marker != 910 {
                warn(.noGoodbye, "the block ends with marker \(events.last!.marker), not the goodbye 910")
            }
            if let scenario, let expected = expectedCount[scenario], expected != events.count {
                warn(.markerCount, "\(events.count) markers, a \(scenario) block has \(expected)", raw: String(events.count))
            }
        }
        return (events, anomalies)
    }
}

/// A condition epoch: `TrialTime` s from a condition marker (spec §5.4).
public struct ConditionEpoch: Sendable, Equatable {
    /// 1-based.
    public var index: Int
    public var condition: String
    /// The condition's 1-based position in `ConditionLabels`.
    public var conditionIndex: Int
    public var marker: Int
    /// Onset in s.
    public var onset: Double
    /// `TrialTime` in s.
    public var duration: Double
    /// Time to the next marker in s.
    public var measured: Double
    /// First sample.
    public var startSample: Int
    /// One past the last sample (`start + TrialTime·rate`).
    public var endSample: Int
    /// `onset + BaseTime` in s.
    public var baselineOnset: Double?
    /// Whether the epoch lies wholly inside the data.
    public var complete: Bool

    /// The epochs of a block's events.
    public static func epochs(_ events: [MarkerEvent], paradigm: Paradigm, rate: Double,
                              sampleCount: Int) -> [ConditionEpoch] {
        guard let trialTime = paradigm.trialTime, trialTime > 0 else { return [] }
        let length = Int((trialTime * rate).rounded())
        var epochs: [ConditionEpoch] = []
        for event in events {
            guard let index = paradigm.conditionMarkers.firstIndex(of: event.marker),
                  index < paradigm.conditionLabels.count else { continue }
            epochs.append(ConditionEpoch(index: epochs.count + 1, condition: paradigm.conditionLabels[index],
                                         conditionIndex: index + 1, marker: event.marker, onset: event.onset,
                                         duration: trialTime, measured: event.duration, startSample: event.sample,
                                         endSample: event.sample + length,
                                         baselineOnset: paradigm.baseTime.map { event.onset + $0 },
                                         complete: event.sample + length <= sampleCount))
        }
        return epochs
    }
}
