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
        var starts = [0]
        for event in 1..<stimuli.eventCount where stimuli.eventMs[event] - stimuli.eventMs[event - 1] > Int64(itiMs) {
            starts.append(event)
        }
        let ends = starts.dropFirst().map { $0 - 1 } + [stimuli.eventCount - 1]
        let source = file.sourceFile
        let column0 = stimuli.column(of: 0)

        var scanned = 0
        var mode: String?
        var newTargetPositions: [Int] = []
        for (index, (first, last)) in zip(starts, ends).enumerated() {
            let firstMessage = stimuli.eventMessages[first]
            let lastMessage = stimuli.eventMessages[last]
            let nextStartMessage = index + 1 < starts.count ? stimuli.eventMessages[starts[index + 1]] : file.messages.count
            let previousEndMessage = index > 0 ? stimuli.eventMessages[ends[index - 1]] : -1

            // Messages up to the first frame, scanned once over all trials.
            var newTargets = 0
            while scanned < firstMessage {
                switch file.messages[scanned].payload {
                case .modeChange(let text): mode = text
                case .newTarget: newTargetPositions.append(scanned)
                default: break
                }
                scanned += 1
            }
            while let position = newTargetPositions.last, position > previousEndMessage {
                newTargets += 1
                newTargetPositions.removeLast()
            }
            newTargetPositions.removeAll(keepingCapacity: true)
            if newTargets != 1 {
                anomalies.append(Anomaly(sourceFile: source, line: stimuli.eventLines[first],
                                         code: .newTarget,
                                         message: "trial \(index): \(newTargets) NEWTARGET messages since the previous trial, expected 1"))
            }
            var selection: (objectID: Int, message: Int)?
            var extraSelections = 0
            var modeChangesInside = 0
            for position in firstMessage..<nextStartMessage {
                let message = file.messages[position]
                switch message.payload {
                case .modeChange where position < lastMessage: modeChangesInside += 1
                case .selection(let objectID):
                    if selection == nil { selection = (objectID, position) } else { extraSelections += 1 }
                default: break
                }
            }
            if modeChangesInside > 0 {
                anomalies.append(Anomaly(sourceFile: source, line: stimuli.eventLines[first],
                                         code: .trialMode,
                                         message: "trial \(index): \(modeChangesInside) MODECHANGE message(s) between its first and last frame"))
            }
            if extraSelections > 0 {
                anomalies.append(Anomaly(sourceFile: source, line: selection.map { file.messages[$0.message].line },
                                         code: .multiSel,
                                         message: "trial \(index): \(extraSelections) further SELECTION message(s) after the first: the first is used"))
            }
            var online: (yest: Int, perr: Double, rts: Int64)?
            if let selection {
                let selectionRts = times.rtsMs[selection.message]
                for position in firstMessage..<nextStartMessage where times.rtsMs[position] <= selectionRts
                    && position != selection.message {
                    if case .predictedTargetProb(let yest, let perr) = file.messages[position].payload,
                       online == nil || times.rtsMs[position] >= online!.rts {
                        online = (yest, perr, times.rtsMs[position])
                    }
                }
            }

            var ids = Set<Int>()
            for event in first...last { ids.formUnion(stimuli.reported[event]) }
            var trial = Trial(index: index, phase: Trial.phase(of: mode), mode: mode,
                              firstLine: stimuli.eventLines[first], events: first...last,
                              startMs: stimuli.eventMs[first],
                              durationMs: stimuli.eventMs[last] - stimuli.eventMs[first],
                              objectIDs: ids.sorted(), cuedTarget: nil, cueAgreement: nil,
                              selected: selection?.objectID,
                              selectionMs: selection.map { times.tMs[$0.message] },
                              onlineYest: online?.yest, onlinePerr: online?.perr, codeAgreement: nil)
            if let column0, ids.contains(0) {
                var best: (objectID: Int, agreement: Double)?
                var tied = false
                for objectID in trial.objectIDs where objectID != 0 {
                    guard let column = stimuli.column(of: objectID) else { continue }
                    var same = 0
                    for event in first...last where stimuli.state(event: event, column: column)
                        == stimuli.state(event: event, column: column0) { same += 1 }
                    let agreement = Double(same) / Double(trial.frameCount)
                    if best == nil || agreement > best!.agreement { best = (objectID, agreement); tied = false }
                    else if agreement == best!.agreement { tied = true }
                }
                trial.cueAgreement = best?.agreement
                if let best, best.agreement >= TrialSegmentation.cueThreshold {
                    if tied {
                        anomalies.append(Anomaly(sourceFile: source, line: trial.firstLine,
                                                 code: .cue,
                                                 message: "trial \(index): several objects agree equally well (\(best.agreement)) with objID 0: no cue"))
                    } else {
                        trial.cuedTarget = best.objectID
                    }
                } else if let best {
                    anomalies.append(Anomaly(sourceFile: source, line: trial.firstLine, code: .cue,
                                             message: "trial \(index): the best agreement with objID 0 is \(best.agreement) (objID \(best.objectID)), below \(TrialSegmentation.cueThreshold): no cue"))
                }
            }
            trials.append(trial)
        }

        if trials.count > 2 {
            let gaps = (1..<trials.count).map { Double(trials[$0].startMs - (trials[$0 - 1].startMs + trials[$0 - 1].durationMs)) }
            if let median = SampleTimeline.median(gaps), Double(itiMs) > median / 2 {
                anomalies.append(Anomaly(sourceFile: source, code: .iti,
                                         message: "iti_ms \(itiMs) is above half the median gap between trials (\(median) ms): trials may run together; see --iti-ms"))
            }
        }
    }
}
