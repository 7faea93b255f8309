import Spectral
import Tables

/// What changes the numbers of a recording's derived tables (recorded in the provenance).
public struct RecordingAnalysisOptions: Sendable, Equatable {
    /// Bands for `band_power` (`--bands`).
    public var bands: [FrequencyBand]
    /// Welch segment length in s (2 s = 512 samples at 256 Hz), 50 % overlap, periodic Hann.
    public var welchSegmentSeconds: Double

    public init(bands: [FrequencyBand] = FrequencyBand.defaults, welchSegmentSeconds: Double = 2) {
        self.bands = bands
        self.welchSegmentSeconds = welchSegmentSeconds
    }

    /// The Welch parameters at a sampling rate.
    public func welchParameters(rate: Double) -> WelchParameters {
        WelchParameters(samplingRate: rate, segmentLength: max(1, Int((welchSegmentSeconds * rate).rounded())),
                        window: .hann, detrend: .constant, scaling: .density)
    }
}

/// One `band_power` row with MYND's extra columns.
public struct MYNDBandPowerRow: Sendable, Equatable {
    /// The shared row (source_file, scope, scope_index, t_s, channel, band, power, rel_power, n_segments).
    public var shared: BandPowerRow
    public var condition: String
    public var channel1020: String?
    /// The app's alpha (ln µV) on `alpha` rows, else `nil`.
    public var appAlpha: Double?
}

/// Per-channel summary of the signal quality (spec §8 `quality_summary`).
public struct QualitySummary: Sendable, Equatable {
    public var channel: String
    public var windows: Int
    /// Median raw-sample window variance, µV².
    public var varianceMedian: Double?
    public var qualityMedian: Double?
    /// Share of windows whose running average reached 100 (the fitting's acceptance level).
    public var shareAbove100: Double?
}

/// One condition's PSD on one channel (scope `condition` of the band power).
public struct ConditionSpectrum: Sendable {
    public var condition: String
    public var channel: String
    public var spectrum: PowerSpectrum
}

/// A recording with its derived tables' rows and its samples (the `samples` table, signal files).
public struct RecordingAnalysis: Sendable {
    /// The recording with its samples (markers and timestamps emptied); without them once they were moved to a
    /// scratch file (``moveSamples(to:)``) or dropped (``dropSamples()``).
    public var recording: MYNDRecording
    /// Where the samples are once ``moveSamples(to:)`` moved them out of `recording.channels`.
    public private(set) var storedSamples: StoredSamples?
    public var sampleCount: Int
    public var events: [MarkerEvent]
    public var epochs: [ConditionEpoch]
    /// Quality windows per channel (same order as the channel names).
    public var quality: [[QualityWindow]]
    public var qualitySummary: [QualitySummary]
    public var bandPower: [MYNDBandPowerRow]
    /// Per condition and channel, the Welch PSD the condition's band power comes from (its epochs' PSDs averaged,
    /// weighted by segments), for the report.
    public var conditionSpectra: [ConditionSpectrum]
    public var anomalies: [Anomaly]

    /// Computes events, epochs, quality and band power of a recording.
    public init(_ recording: MYNDRecording, options: RecordingAnalysisOptions) {
        let rate = recording.samplingRate
        sampleCount = recording.sampleCount
        let (events, eventAnomalies) = MarkerEvent.events(markers: recording.markers, rate: rate,
                                                          paradigm: recording.paradigm, scenario: recording.scenario,
                                                          sourceFile: recording.sourceFile)
        self.events = events
        epochs = ConditionEpoch.epochs(events, paradigm: recording.paradigm, rate: rate,
                                       sampleCount: recording.sampleCount)
        quality = recording.channels.map { SignalQuality.windows($0, rate: rate) }
        qualitySummary = zip(recording.channelNames, quality).map { name, windows in
            QualitySummary(channel: name, windows: windows.count,
                           varianceMedian: SignalQuality.median(windows.map(\.rawVariance)),
                           qualityMedian: SignalQuality.median(windows.map(\.quality)),
                           shareAbove100: windows.isEmpty ? nil
                               : Double(windows.filter { $0.average >= 100 }.count) / Double(windows.count))
        }
        var anomalies = recording.anomalies + eventAnomalies
        for epoch in epochs where !epoch.complete {
            anomalies.append(Anomaly(sourceFile: recording.sourceFile, location: "/Recording/Data",
                                     code: .epochIncomplete,
                                     message: "epoch \(epoch.index) (\(epoch.condition)) runs past the end of the data; its band power uses the samples there are"))
        }
        (bandPower, conditionSpectra) = RecordingAnalysis.bandPower(recording, epochs: epochs, options: options)
        self.anomalies = anomalies
        // The samples stay (the `samples` table and signal files need them); markers and timestamps are done with.
        var stripped = recording
        stripped.markers = []
        stripped.timestamps = [recording.timestamps.first, recording.timestamps.last].compactMap { $0 }
        stripped.anomalies = []
        self.recording = stripped
    }

    /// Rows of the `samples` table: the length of the shortest channel (0 once the samples are dropped).
    public var sampleFrames: Int { storedSamples?.frames ?? (recording.channels.map(\.count).min() ?? 0) }

    /// Moves the samples from memory into `scratch` (the `samples` table reads them back batch by batch), so that a
    /// run over many recordings holds the samples of one.
    public mutating func moveSamples(to scratch: SampleScratch) throws(ScratchError) {
        guard storedSamples == nil else { return }
        storedSamples = try scratch.store(recording.channels, frames: sampleFrames)
        recording.channels = []
    }

    /// Drops the samples, for runs that write no `samples` table (`--check-protocol`).
    public mutating func dropSamples() {
        recording.channels = []
        storedSamples = nil
    }

    /// Copies `target.count` samples of channel `channel` from frame `first` on into `target`, from memory or the
    /// scratch file.
    func copySamples(channel: Int, from first: Int,
                     into target: UnsafeMutableBufferPointer<Double>) throws(ScratchError) {
        if let stored = storedSamples {
            try stored.scratch.read(stored, channel: channel, from: first, into: target)
        } else {
            recording.channels[channel].withUnsafeBufferPointer { values in
                _ = target.initialize(fromContentsOf: values[first..<first + target.count])
            }
        }
    }

    /// Welch band power per epoch and per condition (epoch PSDs averaged, weighted by segments), spec §6.3.
    static func bandPower(_ recording: MYNDRecording, epochs: [ConditionEpoch],
                          options: RecordingAnalysisOptions) -> ([MYNDBandPowerRow], [ConditionSpectrum]) {
        guard !epochs.isEmpty, let welch = try? Welch(options.welchParameters(rate: recording.samplingRate)) else {
            return ([], [])
        }
        var spectra: [ConditionSpectrum] = []
        let alpha = AppAlpha(rate: recording.samplingRate)
        var rows: [MYNDBandPowerRow] = []
        var byCondition: [Int: [(channel: Int, spectrum: PowerSpectrum, alpha: (Double, Int)?)]] = [:]
        for epoch in epochs {
            for (c, samples) in recording.channels.enumerated() {
                let end = min(epoch.endSample, samples.count)
                guard epoch.startSample < end else { continue }
                var slice = Array(samples[epoch.startSample..<end])
                let mean = slice.reduce(0, +) / Double(slice.count)
                for i in slice.indices { slice[i] -= mean }
                guard let spectrum = welch.spectrum(of: slice) else { continue }
                let appAlpha = alpha.mean(samples, range: epoch.startSample..<end)
                rows += rowsFor(spectrum, recording: recording, channel: c, scope: .epoch, scopeIndex: epoch.index,
                                start: epoch.onset, condition: epoch.condition, appAlpha: appAlpha?.value,
                                bands: options.bands)
                byCondition[epoch.conditionIndex, default: []].append((c, spectrum, appAlpha))
            }
        }
        for conditionIndex in byCondition.keys.sorted() {
            let entries = byCondition[conditionIndex]!
            let label = recording.paradigm.conditionLabels[conditionIndex - 1]
            for c in recording.channels.indices {
                let parts = entries.filter { $0.channel == c }
                guard let first = parts.first?.spectrum else { continue }
                let segments = parts.reduce(0) { $0 + $1.spectrum.segmentCount }
                var values = [Double](repeating: 0, count: first.values.count)
                for part in parts {
                    for k in values.indices { values[k] += part.spectrum.values[k] * Double(part.spectrum.segmentCount) }
                }
                for k in values.indices { values[k] /= Double(segments) }
                let pooled = PowerSpectrum(frequencies: first.frequencies, values: values, segmentCount: segments,
                                           frequencyResolution: first.frequencyResolution, scaling: first.scaling)
                spectra.append(ConditionSpectrum(condition: label, channel: recording.channelNames[c], spectrum: pooled))
                let alphas = parts.compactMap(\.alpha)
                let windows = alphas.reduce(0) { $0 + $1.1 }
                let appAlpha = windows > 0 ? alphas.reduce(0) { $0 + $1.0 * Double($1.1) } / Double(windows) : nil
                rows += rowsFor(pooled, recording: recording, channel: c, scope: .condition, scopeIndex: conditionIndex,
                                start: nil, condition: label, appAlpha: appAlpha, bands: options.bands)
            }
        }
        return (rows, spectra)
    }

    private static func rowsFor(_ spectrum: PowerSpectrum, recording: MYNDRecording, channel: Int,
                                scope: BandPowerScope, scopeIndex: Int, start: Double?, condition: String,
                                appAlpha: Double?, bands: [FrequencyBand]) -> [MYNDBandPowerRow] {
        let name = recording.channelNames[channel]
        return BandPowerTable.rows(spectrum, bands: bands, sourceFile: recording.sourceFile, segment: nil,
                                   scope: scope, scopeIndex: scopeIndex, startSeconds: start, channel: name)
            .map { row in
                MYNDBandPowerRow(shared: row, condition: condition, channel1020: ChannelLabel.tenTwenty(name),
                                 appAlpha: row.band.name == "alpha" ? appAlpha : nil)
            }
    }
}
