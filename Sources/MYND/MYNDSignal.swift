import Tables

/// A MYND recording as a signal file (`mynd-parse r_….hdf -o rec.bdf`, docs/bids.md): the channels under their
/// 10-20 names (Muse: TP9, AF7, AF8, TP10; AUX as `MISC`; the oscillator's stored names), in µV at the recording's
/// rate, starting at the first retained TimeStamp (UTC) when it is an epoch time. Each marker is an annotation
/// with the `events` table's onset, duration and `trial_type` (`<condition or welcome/goodbye>/<phase>`).
extension MYNDFormat: SignalExportingFormat {
    public func readSignal(_ input: InputSource, into sink: SignalSink) throws -> MYNDStudy.Item {
        let item = try readKeepingSamples(input)
        guard case .recording(let analysis) = item else {
            throw NoSignalError(path: input.path, reason: "not a MYND recording (r_*.hdf)")
        }
        let recording = analysis.recording
        let channels = recording.channelNames.map { name in
            let label = ChannelLabel.tenTwenty(name) ?? name
            return SignalChannel(label: label, type: label == "AUX" ? "MISC" : "EEG", unit: "uV")
        }
        try sink.begin(SignalDescription(channels: channels, samplingRate: recording.samplingRate,
                                         start: recording.firstTimestampUTC.map(SignalStart.init(utcSeconds:)),
                                         equipment: recording.device.map { $0 == "muse" ? "Muse" : $0 } ?? "MYND"))
        let count = recording.channels.count
        let frames = recording.channels.map(\.count).min() ?? 0
        var values = [Double](repeating: 0, count: 0)
        let block = 4096
        var start = 0
        while start < frames {
            let end = min(frames, start + block)
            values.removeAll(keepingCapacity: true)
            for frame in start..<end { for channel in 0..<count { values.append(recording.channels[channel][frame]) } }
            try sink.append(values, channelCount: count)
            start = end
        }
        for event in analysis.events {
            sink.annotate(SignalAnnotation(onset: event.onset, duration: event.duration, description: event.trialType))
        }
        return item
    }
}
