/// The arrays a decoder needs for one trial: EEG and stimulus states on the same samples (spec §2.4, §4.1).
public struct TrialEpoch: Sendable, Equatable {
    /// The trial's index.
    public var trial: Int
    /// The samples of the window in the file's sample numbering (clipped to the data).
    public var samples: Range<Int>
    /// The sample on which the trial's first frame lands.
    public var onsetSample: Int
    /// `samples.count × channels` EEG values in µV, sample-major.
    public var eeg: [Float]
    /// `samples.count × objects` stimulus states, sample-major; zero outside the trial's frames.
    public var stimuli: [UInt8]
}

extension SaveFileAnalysis {
    /// One epoch per trial, from `beforeMs` before the first frame to `afterMs` after the last one, with the
    /// stimulus states of ``StimulusSequence/sampleStates(sampleMs:)`` masked to the trial (default rules, not the
    /// PMB compat slicing of §4.1).
    public func trialEpochs(beforeMs: Double = 500, afterMs: Double = 500) -> [TrialEpoch] {
        let times = timeline.sampleMs
        guard let channels = file.channelCount, !times.isEmpty else { return [] }
        let objects = stimuli.objectIDs.count
        let states = stimuli.sampleStates(sampleMs: times)
        /// The first sample at or after `time`.
        func firstSample(atOrAfter time: Double) -> Int {
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return trials.map { trial in
            let start = Double(trial.startMs), end = Double(trial.startMs + trial.durationMs)
            let range = firstSample(atOrAfter: start - beforeMs)..<firstSample(atOrAfter: end + afterMs + 1e-9)
            let onset = max(0, firstSample(atOrAfter: start + 1e-9) - 1)
            let frames = max(onset, 0)...max(onset, firstSample(atOrAfter: end + 1e-9) - 1)
            var eeg: [Float] = []
            eeg.reserveCapacity(range.count * channels)
            var masked: [UInt8] = []
            masked.reserveCapacity(range.count * objects)
            for sample in range {
                eeg.append(contentsOf: file.sampleValues[(sample * channels)..<((sample + 1) * channels)])
                if frames.contains(sample) {
                    masked.append(contentsOf: states[(sample * objects)..<((sample + 1) * objects)])
                } else {
                    masked.append(contentsOf: repeatElement(0, count: objects))
                }
            }
            return TrialEpoch(trial: trial.index, samples: range, onsetSample: onset, eeg: eeg, stimuli: masked)
        }
    }
}
