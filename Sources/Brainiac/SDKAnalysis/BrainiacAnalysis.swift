import Spectral
import Tables

/// The SDK re-computation and band power of one input file (spec §3–4), fed with decoded samples in order.
///
/// Samples may come in batches of any size; segments must come in increasing order (a change of `segment`
/// closes the previous one). Memory is bounded by the output rows: the frames keep one 1-s window, the band
/// power streaming Welch accumulators one 256-sample segment per channel.
public final class BrainiacAnalysis {
    /// The tables it makes, in output order.
    public static let tableNames = ["frames", "baseline", "indicators", BandPowerTable.name]

    /// What an analysis computes.
    public enum Scope: Sendable {
        /// Every table of ``tableNames``.
        case tables
        /// Only what the baseline and indicator zones need (a signal file's annotations): the frames are computed
        /// but not kept as rows, and the band power (four fifths of the work, two Welch accumulators per channel)
        /// is not computed; `frames` and `band_power` come out empty.
        case zones
    }

    public let sourceFile: String
    public let options: BrainiacAnalysisOptions
    public let scope: Scope

    private let engine = FrameEngine()
    private let welch: Welch
    private let recordingPower: [WelchAccumulator]
    private let windowPower: [WelchAccumulator]
    private let windowLength: Int
    /// Scratch for one channel of a run in µV.
    private var microvolts = [Double](repeating: 0, count: FrameEngine.windowLength)

    // State of the open segment.
    private var segment: Int?
    private var recentFrames: [FFTFrame] = []
    private var baseline: Baseline?
    private var segmentStartSeconds = 0.0
    private var windowIndex = 0
    private var windowFill = 0
    private var windowStartSeconds = 0.0

    // Output rows.
    private var frameRows = SDKAnalysisTables.FrameRows()
    private var baselineRows: [(segment: Int, baseline: Baseline)] = []
    private var indicatorRows: [(segment: Int, indicator: Indicator, x0: Double, y0: Double)] = []
    private var bandPowerRows: [BandPowerRow] = []

    /// Each closed segment's whole-segment spectrum per channel (the band power's `recording` scope), kept for the
    /// report: 129 values per channel and segment.
    public private(set) var recordingSpectra: [(segment: Int, channel: Int, spectrum: PowerSpectrum)] = []

    /// Options must be valid (``BrainiacAnalysisOptions/validate()``); invalid Welch parameters fall back to scipy's
    /// defaults.
    public init(sourceFile: String, options: BrainiacAnalysisOptions, scope: Scope = .tables) {
        self.sourceFile = sourceFile
        self.options = options
        self.scope = scope
        // The scipy defaults at 250 Hz are valid, so the fallback cannot fail.
        let welch = (try? Welch(options.welch)) ?? (try! Welch(WelchParameters(samplingRate: BrainiacHeadband.samplingRate)))
        self.welch = welch
        // The zones scope computes no band power: no accumulators, so nothing below feeds or closes one.
        let channels = scope == .tables ? 4 : 0
        recordingPower = (0..<channels).map { _ in welch.makeAccumulator() }
        windowPower = (0..<channels).map { _ in welch.makeAccumulator() }
        windowLength = max(1, options.windowSampleCount)
    }

    /// Takes the next samples, in order.
    public func consume(_ samples: [BrainiacSample]) {
        samples.withUnsafeBufferPointer(consume)
    }

    /// Takes the next sample.
    public func consume(_ sample: BrainiacSample) {
        withUnsafePointer(to: sample) { consume(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Processes the samples in runs that stay within one segment, one frame window, one band-power window and
    /// one side of E, so that every event (frame, window, baseline, indicator) falls at the end of a run.
    private func consume(_ samples: UnsafeBufferPointer<BrainiacSample>) {
        var index = 0
        while index < samples.count {
            if samples[index].segment != segment {
                closeSegment()
                openSegment(samples[index])
            }
            let counter = engine.counter
            var room = min(FrameEngine.windowLength - counter % FrameEngine.windowLength, windowLength - windowFill)
            if let end = baseline?.endCounter, counter < end { room = min(room, end - counter) }
            let runEnd = Self.segmentEnd(samples, from: index, limit: min(samples.count, index + room))
            process(UnsafeBufferPointer(rebasing: samples[index..<runEnd]))
            index = runEnd
        }
    }

    /// The end of the run of samples of `samples[start]`'s segment within `start..<limit`. Segments never go back,
    /// so the run reaches `limit` when the sample before it is still of that segment (the usual case, one look);
    /// else the end is found by halving.
    static func segmentEnd(_ samples: UnsafeBufferPointer<BrainiacSample>, from start: Int, limit: Int) -> Int {
        let segment = samples[start].segment
        if samples[limit - 1].segment == segment { return limit }
        // The first sample of a later segment lies in low...high (samples[high] is one).
        var (low, high) = (start + 1, limit - 1)
        while low < high {
            let middle = low + (high - low) / 2
            if samples[middle].segment == segment { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// One run (see above): band power, frame window, then the events at its end.
    private func process(_ run: UnsafeBufferPointer<BrainiacSample>) {
        guard let last = run.last, let segment else { return }
        if scope == .tables { addToBandPower(run) }
        if var frame = engine.push(run) {
            applyBypass(to: &frame)
            if scope == .tables { frameRows.append(frame, segment: segment) }
            recentFrames.append(frame)
            if recentFrames.count > Baseline.frameCount { recentFrames.removeFirst() }
        }
        let counter = engine.counter
        let endSeconds = Double(last.sampleIndex + 1) / BrainiacHeadband.samplingRate
        guard let current = baseline else { return }
        if current.status == .notStarted, counter == current.endCounter {
            takeBaseline(endSeconds: endSeconds)
        } else if current.status == .ok, let thresholds = current.thresholds, counter > current.endCounter,
                  counter % Baseline.indicatorInterval == 0, !recentFrames.isEmpty {
            let frames = recentFrames.suffix(Baseline.indicatorFrameCount)
            let indicator = Indicator(counter: counter, endSeconds: endSeconds, x: ActivityAverages.x(frames),
                                      y: ActivityAverages.y(frames), thresholds: thresholds)
            indicatorRows.append((segment, indicator, thresholds.x0, thresholds.y0))
        }
    }

    /// Closes the last segment (band power of the whole segment and of the last partial window; a baseline row
    /// `not_started` if the segment ended before E).
    public func finish() {
        closeSegment()
        segment = nil
    }

    /// The tables so far: `frames`, `baseline`, `indicators`, `band_power`.
    public var tables: [Table] {
        [frameRows.table(sourceFile: sourceFile),
         SDKAnalysisTables.baseline(baselineRows, sourceFile: sourceFile),
         SDKAnalysisTables.indicators(indicatorRows, sourceFile: sourceFile),
         BandPowerTable.table(bandPowerRows, includeSegment: true)]
    }

    /// The tables so far, then forgets their rows: for writing long recordings in batches.
    public func takeTables() -> [Table] {
        let result = tables
        frameRows = SDKAnalysisTables.FrameRows()
        baselineRows = []
        indicatorRows = []
        bandPowerRows = []
        return result
    }

    // MARK: - Segments

    private func openSegment(_ sample: BrainiacSample) {
        segment = sample.segment
        engine.reset()
        recentFrames = []
        for accumulator in recordingPower + windowPower { accumulator.reset() }
        segmentStartSeconds = sample.timeSeconds
        windowIndex = 0
        windowFill = 0
        baseline = options.baselineStart.map { start in
            Baseline(startCounter: start, endCounter: start + options.baselineDelay, endSeconds: nil, frames: nil,
                     thresholds: nil, rules: options.indicatorRules, status: .notStarted)
        }
    }

    private func closeSegment() {
        guard let segment else { return }
        // Rows come in stream order: each segment's windows, then the segment as a whole.
        if windowFill > 0 { closeWindow() }
        for (c, accumulator) in recordingPower.enumerated() {
            if let spectrum = accumulator.spectrum {
                recordingSpectra.append((segment, c, spectrum))
                bandPowerRows += BandPowerTable.rows(spectrum, bands: options.bands, sourceFile: sourceFile,
                                                     segment: segment, scope: .recording, scopeIndex: segment,
                                                     startSeconds: segmentStartSeconds,
                                                     channel: BrainiacHeadband.channelNames[c])
            }
        }
        if let baseline { baselineRows.append((segment, baseline)) }
        self.baseline = nil
        self.segment = nil
    }

    // MARK: - Frames, baseline

    /// The bypass (spec §3): frames emitted at counter c with S < c ≤ E are forced clear, and all frames after
    /// S once the baseline has failed.
    private func applyBypass(to frame: inout FFTFrame) {
        guard let baseline, frame.counter > baseline.startCounter else { return }
        let bypassed = frame.counter <= baseline.endCounter || baseline.status == .failedEmpty
        if bypassed { for c in frame.channels.indices { frame.channels[c].clear = true } }
    }

    private func takeBaseline(endSeconds: Double) {
        guard var current = baseline else { return }
        current.endSeconds = endSeconds
        // The SDK needs more than 10 frames and uses the last 10.
        if recentFrames.count == Baseline.frameCount, let first = recentFrames.first, let last = recentFrames.last,
           last.index >= Baseline.frameCount {
            current.frames = first.index...last.index
            if let x = ActivityAverages.x(recentFrames), let y = ActivityAverages.y(recentFrames) {
                current.thresholds = IndicatorThresholds(x0: x, y0: y, rules: options.indicatorRules)
                current.status = .ok
            } else {
                current.status = .failedEmpty
            }
        } else {
            current.status = .failedEmpty
        }
        baseline = current
    }

    // MARK: - Band power

    /// Pushes a run (within one band-power window) of µV values to the recording and window accumulators.
    private func addToBandPower(_ run: UnsafeBufferPointer<BrainiacSample>) {
        if windowFill == 0, let first = run.first { windowStartSeconds = first.timeSeconds }
        microvolts.withUnsafeMutableBufferPointer { scratch in
            var offset = 0
            while offset < run.count {
                let count = min(scratch.count, run.count - offset)
                for c in 0..<4 {
                    for i in 0..<count { scratch[i] = run[offset + i].nanovolts[c] / 1000 }
                    let values = UnsafeBufferPointer(rebasing: scratch[0..<count])
                    recordingPower[c].append(contentsOf: values)
                    windowPower[c].append(contentsOf: values)
                }
                offset += count
            }
        }
        windowFill += run.count
        if windowFill >= windowLength { closeWindow() }
    }

    private func closeWindow() {
        for (c, accumulator) in windowPower.enumerated() {
            if let spectrum = accumulator.spectrum, let segment {
                bandPowerRows += BandPowerTable.rows(spectrum, bands: options.bands, sourceFile: sourceFile,
                                                     segment: segment, scope: .window, scopeIndex: windowIndex,
                                                     startSeconds: windowStartSeconds,
                                                     channel: BrainiacHeadband.channelNames[c])
            }
            accumulator.reset()
        }
        windowIndex += 1
        windowFill = 0
    }
}
