import Foundation
import MindAffect

/// A save file cut into equal-length trials for the decoder, as pymindaffectBCI 0.9.24's `load_mindaffectBCI`
/// cuts it (spec §4.1): compat sample times, pre-filtered and decimated EEG, stimulus states landed on the decimated
/// samples, trials by stimulus gaps, one window per trial.
///
/// Where PMB loses data, this does not: times are unwrapped across the decoder clock's 2^24 wrap before anything
/// else (PMB's loader misses the first trial of such files), and a window reaching before the first sample is
/// zero-padded (PMB would wrap round to the end of the recording).
public struct EpochedRecording: Sendable {
    public var sourceFile: String
    /// The raw rate (PMB: 1000 samples per median step of every 1000th sample time), Hz.
    public var fsRaw: Double
    /// The rate after decimation, Hz.
    public var fs: Double
    /// The decimation step in raw samples (`round(2·fs/fs_out)/2`).
    public var decimation: Double
    /// The filter sections applied, in order.
    public var sections: [SecondOrderSection]
    public var trialCount: Int
    /// Samples per trial window.
    public var windowSamples: Int
    public var channelCount: Int
    /// `trials × samples × channels` filtered EEG, µV, single precision.
    public var x: [Float]
    /// `trials × samples × outputs` stimulus states; output k is object ``objectIDs``[k] (objID 0, the cue, first).
    public var y: [UInt8]
    public var objectIDs: [Int]
    /// Window start relative to each trial's first frame, in samples (negative: before).
    public var windowOffset: Int
    /// The trial length used, ms (given, or the percentile of the durations).
    public var trialLengthMs: Double
    /// Per kept trial: its first frame's time on the message clock, ms.
    public var trialStartMs: [Int64]
    /// Per kept trial: its first frame's time on PMB's clock (sts mod 2^24, unwrapped), ms.
    public var trialStartPMBMs: [Int64]
    /// Per kept trial: the save-file line of its first frame.
    public var trialFirstLine: [Int]
    /// Per kept trial: first to last frame, ms.
    public var trialDurationMs: [Double]
    /// Per kept trial: STIMULUSEVENTs in the trial.
    public var trialFrames: [Int]
    /// Per kept trial: the window rows its frames landed on (rows outside the window included as they are).
    public var trialFrameRows: [[Int]]
    /// Trials dropped as too short: (first line, duration ms).
    public var droppedTrials: [(line: Int, durationMs: Double)]

    /// The decimated samples' times on PMB's clock, ms.
    public var sampleTimes: [Double]
    /// Every STIMULUSEVENT's time on PMB's clock, ms, and the decimated sample it landed on.
    public var eventTimes: [Double]
    public var eventSamples: [Int]
    /// Whether the decoder clock (sts mod 2^24) wraps during the recording (times here are unwrapped across it).
    public var clockWrapped: Bool

    public var outputCount: Int { objectIDs.count }

    /// Loads `analysis` (its file parsed by ``MindAffect``) with `options`.
    public init(_ analysis: SaveFileAnalysis, options: EpochingOptions) throws(DecodeError) {
        let file = analysis.file
        sourceFile = file.sourceFile
        guard let channels = file.channelCount, channels > 0, file.sampleCount > 1 else {
            throw .noData(file: file.sourceFile, reason: "no EEG samples to decode")
        }
        channelCount = channels
        let compat = analysis.pymindaffect ?? PymindaffectTimestamps(file, times: analysis.times)
        let rawTs = compat.sampleTs.map(Double.init)
        clockWrapped = (compat.sampleTs.last ?? 0) >= 1 << 24

        // Rate: 1000 / the median step of every 1000th sample time divided by 1000.
        let strided = stride(from: 0, to: rawTs.count, by: 1000).map { rawTs[$0] }
        guard strided.count > 1 else {
            throw .noData(file: file.sourceFile, reason: "\(rawTs.count) samples: too few to estimate the sampling rate (PMB needs 1001)")
        }
        let stepMs = Statistics.median((1..<strided.count).map { (strided[$0] - strided[$0 - 1]) / 1000.0 })
        guard stepMs > 0 else { throw .noData(file: file.sourceFile, reason: "sample times do not advance") }
        fsRaw = 1000.0 / stepMs

        // Filter (single precision; PMB's fit step runs the first sample through once before the whole signal).
        var data = file.sampleValues
        var designed: [SecondOrderSection] = []
        for spec in options.filters {
            guard let band = spec.band(fs: fsRaw) else { continue }
            designed += ButterworthDesign.sections(order: options.filterOrder, band: band, edgePrecision: .single)
        }
        sections = designed
        if !designed.isEmpty {
            let cascade = SectionCascade(designed)
            let steady = cascade.steadyState
            var state: [Float] = []
            for channel in 0..<channels { state += steady.map { $0 * data[channel] } }
            var first = Array(data[0..<channels])
            cascade.run(&first, channels: channels, state: &state)
            cascade.run(&data, channels: channels, state: &state)
        }

        // Decimate: every r-th sample, or linear interpolation for a fractional r.
        let fsOutEffective = options.fsOut < fsRaw ? options.fsOut : fsRaw
        let rate = (fsRaw * 2.0 / fsOutEffective).rounded(.toNearestOrEven) / 2.0
        decimation = rate
        fs = fsRaw / rate
        var eeg: [Float] = []
        var ts: [Double] = []
        let rawCount = rawTs.count
        if rate > 1 {
            var position = 0.0
            while position < Double(rawCount) {
                if rate.truncatingRemainder(dividingBy: 1) > 0 {
                    let lower = Int(position.rounded(.down))
                    let upper = min(Int(position.rounded(.up)), rawCount - 1)
                    let weight = position - Double(lower)
                    for channel in 0..<channels {
                        eeg.append(Float(Double(data[upper * channels + channel]) * weight + Double(data[lower * channels + channel]) * (1 - weight)))
                    }
                    ts.append(rawTs[upper] * weight + rawTs[lower] * (1 - weight))
                } else {
                    let index = Int(position)
                    eeg.append(contentsOf: data[(index * channels)..<((index + 1) * channels)])
                    ts.append(rawTs[index])
                }
                position += rate
            }
        } else {
            eeg = data
            ts = rawTs
        }
        let samples = ts.count

        // Stimulus states per STIMULUSEVENT, held from the previous kept message of any type (PMB keeps
        // STIMULUSEVENT, MODECHANGE, NEWTARGET and SELECTION), on PMB's clock.
        var used = [Bool](repeating: false, count: 256)
        var heldRow = [Int](repeating: 0, count: 256)
        var eventRows: [[Int]] = []
        var eventTs: [Double] = []
        var eventLines: [Int] = []
        for (index, message) in file.messages.enumerated() {
            switch message.payload {
            case .stimulusEvent(let pairs):
                var row = [Int](repeating: 0, count: 256)
                for id in 0..<256 where used[id] { row[id] = heldRow[id] }
                for pair in pairs {
                    let id = ((pair.objectID % 256) + 256) % 256
                    row[id] = pair.state
                    used[id] = true
                }
                heldRow = row
                eventRows.append(row)
                let sts = analysis.times.rtsMs[index] + Int64(Int32(truncatingIfNeeded: message.sts &- message.rts))
                eventTs.append(Double(sts - compat.offsetToMessageClock))
                eventLines.append(message.line)
            case .modeChange, .newTarget, .selection:
                heldRow = [Int](repeating: 0, count: 256)
            default:
                continue
            }
        }
        let ids = (0..<256).filter { used[$0] }
        objectIDs = ids
        guard !eventTs.isEmpty else { throw .noData(file: file.sourceFile, reason: "no STIMULUSEVENT: nothing to decode") }

        // Land each event on the last sample at or before it, at least one past the previous event's sample;
        // hold its state up to the next event; nothing after the last one (PMB `upsample_stimseq`).
        let outputs = ids.count
        var yAll = [UInt8](repeating: 0, count: samples * outputs)
        var landing = [Int](repeating: 0, count: eventTs.count)
        var next = 0
        var dataIndex: Int? = nil
        for (event, time) in eventTs.enumerated() {
            let previous = dataIndex
            while next < samples {
                dataIndex = next
                next += 1
                if ts[dataIndex!] > time { break }
            }
            guard var at = dataIndex else { break }
            at = max(at - 1, 0)
            dataIndex = at
            if let previous, previous <= at {
                let held = Array(yAll[(previous * outputs)..<((previous + 1) * outputs)])
                for sample in previous...at { yAll.replaceSubrange((sample * outputs)..<((sample + 1) * outputs), with: held) }
            }
            landing[event] = at
            for (k, id) in ids.enumerated() { yAll[at * outputs + k] = UInt8(truncatingIfNeeded: eventRows[event][id]) }
        }

        sampleTimes = ts
        eventTimes = eventTs
        eventSamples = landing

        // Trials: a gap above iti_ms (the data start counting as an event, the data end closing the last trial).
        var gaps: [Double] = []
        gaps.append(eventTs[0] - ts[0])
        for i in 1..<eventTs.count { gaps.append(eventTs[i] - eventTs[i - 1]) }
        gaps.append(ts[max(samples - 2, 0)] - eventTs[eventTs.count - 1])
        let starts = gaps.indices.filter { gaps[$0] > options.itiMs }
        var durations: [Double] = []
        if starts.count > 1 {
            for i in 0..<(starts.count - 1) { durations.append(eventTs[starts[i + 1] - 1] - eventTs[starts[i]]) }
        }
        guard !durations.isEmpty else {
            throw .noData(file: file.sourceFile, reason: "no complete trial (stimulus gaps above \(options.itiMs.shortText) ms)")
        }
        let trialLength = options.trialLengthMs ?? Statistics.percentile(durations, options.trialLengthPercentile)
        trialLengthMs = trialLength
        var keptStarts: [Int] = []
        var keptDurations: [Double] = []
        var keptFrames: [Int] = []
        droppedTrials = []
        for (i, duration) in durations.enumerated() {
            if duration > trialLength * options.minTrialFraction {
                keptStarts.append(starts[i])
                keptDurations.append(duration)
                keptFrames.append(starts[i + 1] - starts[i])
            } else {
                droppedTrials.append((eventLines[starts[i]], duration))
            }
        }
        trialDurationMs = keptDurations
        trialFrames = keptFrames
        trialStartPMBMs = keptStarts.map { Int64(eventTs[$0]) }
        trialStartMs = keptStarts.map { Int64(eventTs[$0]) + compat.offsetToMessageClock }
        trialFirstLine = keptStarts.map { eventLines[$0] }

        // One window per trial: X zero-padded past either end of the data, Y also zeroed from the next trial on.
        let trialSamples = Int(trialLength * fs / 1000)
        let before = Int(options.offsetBeforeMs * fs / 1000), after = Int(options.offsetAfterMs * fs / 1000)
        windowOffset = before
        let length = trialSamples + after - before
        guard length > 0 else { throw .noData(file: file.sourceFile, reason: "empty trial window (\(length) samples)") }
        windowSamples = length
        trialCount = keptStarts.count
        let onsets = keptStarts.map { landing[$0] }
        trialFrameRows = keptStarts.enumerated().map { i, start in
            let end = starts[starts.firstIndex(of: start)! + 1]
            return (start..<end).map { landing[$0] - (onsets[i] + before) }
        }
        x = [Float](repeating: 0, count: trialCount * length * channels)
        y = [UInt8](repeating: 0, count: trialCount * length * outputs)
        for (trial, onset) in onsets.enumerated() {
            let endX = min(samples, onset + trialSamples + after)
            let endY = trial + 1 < onsets.count ? min(endX, onsets[trial + 1]) : endX
            for sample in max(onset + before, 0)..<max(endX, max(onset + before, 0)) {
                let row = sample - (onset + before)
                let target = (trial * length + row) * channels
                for channel in 0..<channels { x[target + channel] = eeg[sample * channels + channel] }
                if sample < endY {
                    let targetY = (trial * length + row) * outputs
                    for k in 0..<outputs { y[targetY + k] = yAll[sample * outputs + k] }
                }
            }
        }
    }
}
