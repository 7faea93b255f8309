import Tables

/// Cuts the stimulus events into trials and finds each trial's cue, selection and online prediction
/// (spec §2.5–2.6).
public struct TrialSegmentation: Sendable {
    /// The trials in order.
    public var trials: [Trial]
    /// W_NEWTARGET, W_TRIAL_MODE, W_ITI, W_CUE and W_MULTI_SEL rows.
    public var anomalies: [Anomaly]

    /// The agreement with objID 0 from which a cue counts (PMB `dedupY0`).
    public static let cueThreshold = 0.95

    /// Segments `stimuli` of `file` with the inter-trial gap `itiMs` (a gap strictly above it starts a trial).
    public init(_ file: SaveFile, times: MessageTimes, stimuli: StimulusSequence, itiMs: Int = 1000) {
        trials = []
        anomalies = []
        guard stimuli.eventCount > 0 else { return }
        let runs = TrialSegmentation.eventRuns(stimuli, itiMs: itiMs)
        var preamble = TrialPreambleScan()
        for index in runs.indices {
            let span = MessageSpan(runs: runs, index: index, stimuli: stimuli, messageCount: file.messages.count)
            appendTrial(index, events: runs[index], span: span, preamble: &preamble,
                        file: file, times: times, stimuli: stimuli)
        }
        checkInterTrialGap(itiMs: itiMs, sourceFile: file.sourceFile)
    }

    /// The trials' event ranges: the first event starts a trial, and so does every event more than `itiMs` after
    /// the previous one (spec §2.5).
    static func eventRuns(_ stimuli: StimulusSequence, itiMs: Int) -> [ClosedRange<Int>] {
        var starts = [0]
        for event in 1..<stimuli.eventCount where stimuli.eventMs[event] - stimuli.eventMs[event - 1] > Int64(itiMs) {
            starts.append(event)
        }
        let ends = starts.dropFirst().map { $0 - 1 } + [stimuli.eventCount - 1]
        return zip(starts, ends).map { $0...$1 }
    }

    /// Builds trial `index` over `events` and records its W_NEWTARGET, W_TRIAL_MODE, W_MULTI_SEL and W_CUE
    /// rows, in that order.
    private mutating func appendTrial(_ index: Int, events: ClosedRange<Int>, span: MessageSpan,
                                      preamble: inout TrialPreambleScan, file: SaveFile, times: MessageTimes,
                                      stimuli: StimulusSequence) {
        let source = file.sourceFile
        let firstLine = stimuli.eventLines[events.lowerBound]
        let newTargets = preamble.advance(file, to: span.firstMessage, countingNewTargetsAfter: span.previousEndMessage)
        if newTargets != 1 {
            anomalies.append(Anomaly(sourceFile: source, line: firstLine,
                                     code: .newTarget,
                                     message: "trial \(index): \(newTargets) NEWTARGET messages since the previous trial, expected 1"))
        }
        let modeChangesInside = TrialSegmentation.modeChanges(in: file, messages: span.firstMessage..<span.lastMessage)
        if modeChangesInside > 0 {
            anomalies.append(Anomaly(sourceFile: source, line: firstLine,
                                     code: .trialMode,
                                     message: "trial \(index): \(modeChangesInside) MODECHANGE message(s) between its first and last frame"))
        }
        let selection = TrialSelection(in: file, messages: span.window)
        if let selection, selection.extraCount > 0 {
            anomalies.append(Anomaly(sourceFile: source, line: file.messages[selection.message].line,
                                     code: .multiSel,
                                     message: "trial \(index): \(selection.extraCount) further SELECTION message(s) after the first: the first is used"))
        }
        let online = selection?.onlinePrediction(in: file, times: times, messages: span.window)
        var trial = TrialSegmentation.trial(index, events: events, mode: preamble.mode, stimuli: stimuli,
                                            selection: selection, online: online, times: times)
        assignCue(to: &trial, stimuli: stimuli, sourceFile: source)
        trials.append(trial)
    }

    /// The MODECHANGE messages among `messages`.
    static func modeChanges(in file: SaveFile, messages: Range<Int>) -> Int {
        var count = 0
        for position in messages {
            if case .modeChange = file.messages[position].payload { count += 1 }
        }
        return count
    }

    /// A trial without its cue: events, mode and phase, objIDs, selection and online prediction.
    static func trial(_ index: Int, events: ClosedRange<Int>, mode: String?, stimuli: StimulusSequence,
                      selection: TrialSelection?, online: (yest: Int, perr: Double)?, times: MessageTimes) -> Trial {
        var ids = Set<Int>()
        for event in events { ids.formUnion(stimuli.reported[event]) }
        let first = events.lowerBound, last = events.upperBound
        return Trial(index: index, phase: Trial.phase(of: mode), mode: mode,
                     firstLine: stimuli.eventLines[first], events: events,
                     startMs: stimuli.eventMs[first],
                     durationMs: stimuli.eventMs[last] - stimuli.eventMs[first],
                     objectIDs: ids.sorted(), cuedTarget: nil, cueAgreement: nil,
                     selected: selection?.objectID,
                     selectionMs: selection.map { times.tMs[$0.message] },
                     onlineYest: online?.yest, onlinePerr: online?.perr, codeAgreement: nil)
    }

    /// Sets `trial`'s cue agreement and, when the best agreement with objID 0 reaches ``cueThreshold`` and is
    /// unique, its cued target; otherwise records W_CUE (spec §2.6). A trial without objID 0 stays uncued.
    private mutating func assignCue(to trial: inout Trial, stimuli: StimulusSequence, sourceFile: String) {
        guard let column0 = stimuli.column(of: 0), trial.objectIDs.contains(0) else { return }
        let match = CueMatch(stimuli: stimuli, events: trial.events, objectIDs: trial.objectIDs, column0: column0)
        trial.cueAgreement = match?.agreement
        guard let match else { return }
        if match.agreement >= TrialSegmentation.cueThreshold {
            if match.tied {
                anomalies.append(Anomaly(sourceFile: sourceFile, line: trial.firstLine,
                                         code: .cue,
                                         message: "trial \(trial.index): several objects agree equally well (\(match.agreement)) with objID 0: no cue"))
            } else {
                trial.cuedTarget = match.objectID
            }
        } else {
            anomalies.append(Anomaly(sourceFile: sourceFile, line: trial.firstLine, code: .cue,
                                     message: "trial \(trial.index): the best agreement with objID 0 is \(match.agreement) (objID \(match.objectID)), below \(TrialSegmentation.cueThreshold): no cue"))
        }
    }

    /// W_ITI: with more than two trials, `itiMs` above half the median gap between trials (spec §2.5).
    private mutating func checkInterTrialGap(itiMs: Int, sourceFile: String) {
        guard trials.count > 2 else { return }
        let gaps = (1..<trials.count).map { Double(trials[$0].startMs - (trials[$0 - 1].startMs + trials[$0 - 1].durationMs)) }
        if let median = SampleTimeline.median(gaps), Double(itiMs) > median / 2 {
            anomalies.append(Anomaly(sourceFile: sourceFile, code: .iti,
                                     message: "iti_ms \(itiMs) is above half the median gap between trials (\(median) ms): trials may run together; see --iti-ms"))
        }
    }

    /// The message indices that bound one trial's scans.
    private struct MessageSpan {
        /// The messages of the trial's first and last event.
        var firstMessage: Int
        var lastMessage: Int
        /// The message of the next trial's first event (the message count after the last trial).
        var nextStartMessage: Int
        /// The message of the previous trial's last event (−1 before the first trial).
        var previousEndMessage: Int

        init(runs: [ClosedRange<Int>], index: Int, stimuli: StimulusSequence, messageCount: Int) {
            firstMessage = stimuli.eventMessages[runs[index].lowerBound]
            lastMessage = stimuli.eventMessages[runs[index].upperBound]
            nextStartMessage = index + 1 < runs.count ? stimuli.eventMessages[runs[index + 1].lowerBound] : messageCount
            previousEndMessage = index > 0 ? stimuli.eventMessages[runs[index - 1].upperBound] : -1
        }

        /// From the trial's first event up to the next trial's first event: where its selection is looked for.
        var window: Range<Int> { firstMessage..<nextStartMessage }
    }
}
