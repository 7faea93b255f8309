import Tables

/// The 2-D arrays of one recording for HDF5's `/arrays/` group (spec §2.7): `samples` [nSamp, nCh] float32 µV,
/// `stimuli` [nEvt, nObj] uint8, `stim_samples` [nSamp, nObj] uint8 and `objids` [nObj], time first.
public enum SaveFileArrays {
    /// The arrays of `analysis`, under `prefix` (empty for `/arrays/<name>`, else `/arrays/<prefix>/<name>`).
    public static func arrays(_ analysis: SaveFileAnalysis, prefix: String) -> [ArrayDataset] {
        let base = prefix.isEmpty ? "" : prefix + "/"
        let file = analysis.file
        let stimuli = analysis.stimuli
        let objects = stimuli.objectIDs.count
        var result: [ArrayDataset?] = []
        if let channels = file.channelCount, channels > 0, file.sampleCount > 0 {
            result.append(ArrayDataset(path: base + "samples", dimensions: [file.sampleCount, channels],
                                       dimensionNames: ["sample", "channel"], unit: "µV",
                                       description: "EEG of \(file.sourceFile)", values: .float32(file.sampleValues)))
        }
        if objects > 0 {
            result.append(ArrayDataset(path: base + "objids", dimensions: [objects], dimensionNames: ["object"],
                                       unit: "1", description: "the objIDs of the object columns",
                                       values: .int32(stimuli.objectIDs.map { Int32(clamping: $0) })))
            if stimuli.eventCount > 0 {
                result.append(ArrayDataset(path: base + "stimuli", dimensions: [stimuli.eventCount, objects],
                                           dimensionNames: ["event", "object"], unit: "1",
                                           description: "latched stimulus state per STIMULUSEVENT",
                                           values: .uint8(stimuli.states)))
            }
            if file.sampleCount > 0 {
                result.append(ArrayDataset(path: base + "stim_samples", dimensions: [file.sampleCount, objects],
                                           dimensionNames: ["sample", "object"], unit: "1",
                                           description: "stimulus state on the EEG samples (spec §2.4)",
                                           values: .uint8(stimuli.sampleStates(sampleMs: analysis.timeline.sampleMs))))
            }
        }
        return result.compactMap { $0 }
    }
}
