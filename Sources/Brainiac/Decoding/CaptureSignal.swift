import Tables

/// A Brainiac capture as a signal file (`bt-decode capture.bin -o capture.bdf`, docs/bids.md): T3, O1, T4, O2 in
/// µV on the device clock, every value a whole number of nV (the channel grid is 0.001 µV, so BDF holds them
/// exactly).
///
/// The file is continuous on the device clock: lost samples are filled (linear interpolation, as
/// `--gaps fill`; the tool asks the decoder for it) and each run of them is annotated `BAD_lost_samples` at its
/// place and length. Segments (the order numbers restarted: the device clock itself restarted, the time between
/// is unknown) follow each other, each junction annotated `BAD_discontinuity` (duration 0): splitting would turn one
/// capture into several files for a rare event and lose nothing that the annotation does not say.
extension CaptureFormat: SignalExportingFormat {
    public func readSignal(_ input: InputSource, into sink: SignalSink) throws -> Decoded {
        let rate = BrainiacHeadband.samplingRate
        try sink.begin(SignalDescription(
            channels: BrainiacHeadband.channelNames.map { SignalChannel(label: $0, type: "EEG", unit: "uV", grid: 0.001) },
            samplingRate: rate, equipment: "Brainiac"))
        var frames = 0
        var segment: Int?
        var filledRun: (start: Int, count: Int)?
        var values: [Double] = []
        func closeRun() {
            if let run = filledRun {
                sink.annotate(SignalAnnotation(onset: Double(run.start) / rate, duration: Double(run.count) / rate,
                                               description: "BAD_lost_samples"))
                filledRun = nil
            }
        }
        let decoded = try decode(input) { batch in
            values.removeAll(keepingCapacity: true)
            values.reserveCapacity(batch.count * 4)
            for sample in batch {
                if let current = segment, sample.segment != current {
                    closeRun()
                    sink.annotate(SignalAnnotation(onset: Double(frames) / rate, description: "BAD_discontinuity"))
                }
                segment = sample.segment
                if sample.filled {
                    if let run = filledRun { filledRun = (run.start, run.count + 1) } else { filledRun = (frames, 1) }
                } else {
                    closeRun()
                }
                let microvolts = sample.nanovolts / 1000
                values.append(microvolts[0]); values.append(microvolts[1])
                values.append(microvolts[2]); values.append(microvolts[3])
                frames += 1
            }
            try sink.append(values, channelCount: 4)
        }
        closeRun()
        return decoded
    }
}
