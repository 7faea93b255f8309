import Tables

/// A MindAffect save file as a signal file (`nt-analyze save.txt -o rec.bdf`, docs/bids.md): `ch1` … `chN` (the
/// save file names no channels) in µV at the nominal rate (`fs_nominal`, else the estimate). Times on the message
/// clock become sample positions as in the `stim_samples` matrix: an event lands on the last sample at or before
/// it, its onset is that sample / rate. Annotations: each trial (`trial/<phase>`, lasting its frames), its cue
/// (`cue/<objID>`, at the trial's start) and the online selection (`selection/<objID>`).
extension MindAffectFormat: SignalExportingFormat {
    public func readSignal(_ input: InputSource, into sink: SignalSink) throws -> SaveFileAnalysis {
        let analysis = try read(input)
        guard let channels = analysis.file.channelCount, analysis.file.sampleCount > 0 else {
            throw NoSignalError(path: input.path, reason: "the save file holds no EEG samples")
        }
        guard let rate = analysis.timeline.fsNominal ?? analysis.timeline.fsEstimated else {
            throw NoSignalError(path: input.path, reason: "no sampling rate can be estimated (one data packet)")
        }
        try sink.begin(SignalDescription(
            channels: (1...channels).map { SignalChannel(label: "ch\($0)", type: "EEG", unit: "uV") },
            samplingRate: rate, equipment: "MindAffect"))
        let count = analysis.file.sampleCount
        let block = 4096
        var values: [Double] = []
        var start = 0
        while start < count {
            let end = min(count, start + block)
            values.removeAll(keepingCapacity: true)
            values += analysis.file.sampleValues[(start * channels)..<(end * channels)].map(Double.init)
            try sink.append(values, channelCount: channels)
            start = end
        }
        let times = analysis.timeline.sampleMs
        /// The onset (s) of a message-clock time: the last sample at or before it.
        func onset(_ ms: Double) -> Double {
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] <= ms { low = middle + 1 } else { high = middle }
            }
            return Double(max(0, low - 1)) / rate
        }
        for trial in analysis.trials {
            let begin = onset(Double(trial.startMs))
            let end = onset(Double(trial.startMs + trial.durationMs))
            sink.annotate(SignalAnnotation(onset: begin, duration: max(0, end - begin), description: "trial/\(trial.phase)"))
            if let cued = trial.cuedTarget {
                sink.annotate(SignalAnnotation(onset: begin, description: "cue/\(cued)"))
            }
            if let selected = trial.selected, let at = trial.selectionMs {
                sink.annotate(SignalAnnotation(onset: onset(Double(at)), description: "selection/\(selected)"))
            }
        }
        return analysis
    }
}
