import Spectral
import Tables

/// What `bt-decode --report` shows of one capture beyond its small tables, gathered while the capture streams:
/// the whole-capture spectrum per channel, a few seconds of raw signal around the worst gap, and compact copies of
/// the analysis rows a plot needs (frame quality, indicator zones, windowed band power). Its size does not depend
/// on the capture's length but through those rows (a few tens of thousands of numbers an hour).
public struct CaptureReportData: Sendable {
    /// Per channel (T3, O1, T4, O2): the Welch PSD over every segment (segments' estimates weighted by their
    /// number of Welch segments), `nil` when the capture is shorter than one Welch segment.
    public var spectra: [PowerSpectrum?] = [nil, nil, nil, nil]
    /// The raw signal around the largest gap (or the capture's first seconds when it has none).
    public var trace: RawTrace?
    /// One entry per frame and channel: the frame's segment, time and `clear`.
    public var quality = QualityRows()
    /// One entry per indicator.
    public var indicators = IndicatorRows()
    /// The `band_power` rows of scope `window`.
    public var bandPower = BandPowerRows()

    public init() {}

    /// Samples of the four channels around one place of a capture.
    public struct RawTrace: Sendable {
        /// The segment the trace is in.
        public var segment: Int
        /// `sample_index / 250` of each sample.
        public var times: [Double] = []
        /// µV per channel.
        public var microvolts: [[Double]] = [[], [], [], []]
        /// Whether each sample was filled in (`--gaps fill`).
        public var filled: [Bool] = []
        /// The gap shown: the first lost sample's time and the lost samples (`nil`: no gap, the capture's start).
        public var gapStartSeconds: Double?
        public var lostSamples: Int
    }

    /// One entry per frame (13 bytes): its segment and number, time, and bit `1 << c` set when channel c was clear.
    public struct QualityRows: Sendable {
        public var segment: [Int32] = [], frame: [Int32] = [], seconds: [Double] = [], clearMask: [UInt8] = []
    }

    /// One entry per indicator; zone −1 for the SDK's "none".
    public struct IndicatorRows: Sendable {
        public var segment: [Int32] = [], seconds: [Double] = [], zone: [Int8] = []
    }

    /// One entry per window, channel and band (22 bytes); `band` indexes the analysis' bands.
    public struct BandPowerRows: Sendable {
        public var segment: [Int32] = [], seconds: [Double] = [], channel: [UInt8] = [], band: [UInt8] = []
        public var power: [Double] = []
    }
}

/// Gathers a ``CaptureReportData`` while a capture is decoded: fed every sample batch (on the decoding thread: a
/// comparison per sample to find gaps, and a copy of a few seconds when a new largest gap appears) and every
/// analysis batch the format hands to the output (their few columns copied). Without the SDK analysis
/// (`--no-analysis`) it runs its own Welch accumulators for the spectrum.
public final class CaptureReportCollector {
    /// Seconds of signal kept on each side of the worst gap.
    public static let traceSeconds = 2.0
    /// Seconds shown when the capture has no gap.
    public static let startSeconds = 4.0

    private var data = CaptureReportData()
    private let context = Int(CaptureReportCollector.traceSeconds * BrainiacHeadband.samplingRate)

    // Worst gap so far: the window [from, to) of sample indices in `traceSegment`, filled as samples arrive.
    /// The end of the previous batch: its last `context` samples, and the filled run open at its end.
    private var previousBatch: [BrainiacSample] = []
    private var last: BrainiacSample?
    private var worstLost = 0
    private var filledRunStart: BrainiacSample?
    private var traceSegment = 0
    private var traceWindow = 0..<0
    private var trace: CaptureReportData.RawTrace?

    // The spectrum without the analysis: one accumulator per channel for the open segment, and sums over the
    // segments closed.
    private let welch: Welch?
    private var accumulators: [WelchAccumulator] = []
    private var welchSegment: Int?
    private var weightedSums: [[Double]] = [[], [], [], []]
    private var welchCounts = [0, 0, 0, 0]
    private var lastSpectra: [PowerSpectrum?] = [nil, nil, nil, nil]
    private var scratch = [Double](repeating: 0, count: 4096)

    /// The analysis' band names, in order (band-power rows keep an index into them).
    private let bandNames: [String]

    /// `welch` runs the collector's own spectrum (without the SDK analysis); `nil` takes the analysis' spectra at
    /// ``finish(analysisSpectra:)``. `bands` are the analysis' bands.
    public init(welch: WelchParameters?, bands: [String] = []) {
        bandNames = bands
        self.welch = welch.flatMap { try? Welch($0) }
        if let welch = self.welch { accumulators = (0..<4).map { _ in welch.makeAccumulator() } }
    }

    // MARK: Samples

    /// Takes the next decoded samples, in order.
    public func add(_ batch: [BrainiacSample]) {
        guard !batch.isEmpty else { return }
        if trace == nil && last == nil { startTrace(batch) }
        for index in batch.indices {
            let sample = batch[index]
            if let previous = last, previous.segment == sample.segment {
                // Under --gaps sdk lost samples are missing (a jump of the index); under --gaps fill they are
                // there, flagged.
                let jump = sample.sampleIndex - previous.sampleIndex - 1
                if jump > worstLost { newWorstGap(lost: jump, first: previous.sampleIndex + 1, in: batch, at: index) }
                if sample.filled && !previous.filled { filledRunStart = sample }
                if !sample.filled && previous.filled, let start = filledRunStart, start.segment == sample.segment {
                    let lost = sample.sampleIndex - start.sampleIndex
                    if lost > worstLost { newWorstGap(lost: lost, first: start.sampleIndex, in: batch, at: index) }
                }
            }
            last = sample
        }
        extendTrace(batch)
        // A new worst gap found in the next batch needs the `context` samples before it, and before the filled run
        // it ends (under --gaps fill) if that run started here: a copy of the batch's end, so that the decoder's
        // batch (megabytes) is not kept alive for another round.
        var keep = context
        if let start = filledRunStart, let last, last.filled, start.segment == last.segment {
            keep += last.sampleIndex - start.sampleIndex + 1
        }
        previousBatch = Array(batch.suffix(keep))
        if welch != nil { addToSpectrum(batch) }
    }

    /// The capture's first seconds, shown when it has no gap.
    private func startTrace(_ batch: [BrainiacSample]) {
        let first = batch[0]
        traceSegment = first.segment
        traceWindow = first.sampleIndex..<(first.sampleIndex + Int(Self.startSeconds * BrainiacHeadband.samplingRate))
        trace = CaptureReportData.RawTrace(segment: first.segment, gapStartSeconds: nil, lostSamples: 0)
        traceLastIndex = Int.min
        traceComplete = false
    }

    /// A gap larger than any before: the trace restarts around it with what is at hand (the previous batch and this
    /// one up to the gap); ``extendTrace(_:)`` adds the samples after it.
    private func newWorstGap(lost: Int, first: Int, in batch: [BrainiacSample], at index: Int) {
        worstLost = lost
        let segment = batch[index].segment
        traceSegment = segment
        traceWindow = (first - context)..<(first + lost + context)
        var fresh = CaptureReportData.RawTrace(segment: segment, gapStartSeconds: Double(first) / BrainiacHeadband.samplingRate,
                                               lostSamples: lost)
        traceLastIndex = Int.min
        traceComplete = false
        for sample in previousBatch where sample.segment == segment && traceWindow.contains(sample.sampleIndex) {
            append(sample, to: &fresh)
        }
        for sample in batch[..<index] where sample.segment == segment && traceWindow.contains(sample.sampleIndex) {
            append(sample, to: &fresh)
        }
        trace = fresh
        // Samples from `index` on are added by extendTrace.
        pendingFrom = index
    }

    private var pendingFrom: Int?

    /// Adds this batch's samples that fall in the trace window after those it holds (from the gap on, for a gap
    /// found in this batch). Once the window is full this is one comparison per batch.
    private func extendTrace(_ batch: [BrainiacSample]) {
        let start = pendingFrom ?? 0
        pendingFrom = nil
        guard var current = trace, !traceComplete else { return }
        var added = false
        for sample in batch[start...] {
            if sample.segment != traceSegment || sample.sampleIndex >= traceWindow.upperBound {
                if sample.segment > traceSegment || sample.sampleIndex >= traceWindow.upperBound { traceComplete = true; break }
                continue
            }
            guard sample.sampleIndex >= traceWindow.lowerBound, sample.sampleIndex > traceLastIndex else { continue }
            append(sample, to: &current)
            added = true
        }
        if added { trace = current }
    }

    private var traceLastIndex = Int.min
    private var traceComplete = false

    private func append(_ sample: BrainiacSample, to trace: inout CaptureReportData.RawTrace) {
        traceLastIndex = sample.sampleIndex
        trace.times.append(sample.timeSeconds)
        for c in 0..<4 { trace.microvolts[c].append(sample.nanovolts[c] / 1000) }
        trace.filled.append(sample.filled)
    }

    // MARK: Spectrum without the analysis

    private func addToSpectrum(_ batch: [BrainiacSample]) {
        var start = 0
        while start < batch.count {
            let segment = batch[start].segment
            if segment != welchSegment { closeWelchSegment(); welchSegment = segment }
            var end = start
            while end < batch.count && batch[end].segment == segment && end - start < scratch.count { end += 1 }
            for c in 0..<4 {
                for i in start..<end { scratch[i - start] = batch[i].nanovolts[c] / 1000 }
                scratch.withUnsafeBufferPointer { accumulators[c].append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<(end - start)])) }
            }
            start = end
        }
    }

    private func closeWelchSegment() {
        guard welchSegment != nil else { return }
        for c in 0..<4 {
            if let spectrum = accumulators[c].spectrum { fold(spectrum, channel: c) }
            accumulators[c].reset()
        }
        welchSegment = nil
    }

    /// Adds one segment's spectrum, weighted by its number of Welch segments (so the result is the mean
    /// periodogram over every Welch segment of the capture).
    private func fold(_ spectrum: PowerSpectrum, channel c: Int) {
        if weightedSums[c].isEmpty { weightedSums[c] = [Double](repeating: 0, count: spectrum.values.count) }
        guard weightedSums[c].count == spectrum.values.count else { return }
        for k in spectrum.values.indices { weightedSums[c][k] += spectrum.values[k] * Double(spectrum.segmentCount) }
        welchCounts[c] += spectrum.segmentCount
        lastSpectra[c] = spectrum
    }

    // MARK: Analysis rows

    /// Copies what the report needs from an analysis batch handed to the output (`frames`, `indicators`,
    /// `band_power`); other tables are ignored.
    public func observe(_ table: Table) {
        switch table.name {
        case "frames":
            // 12 rows per frame (channels × bands); one entry per frame, from its theta rows.
            let bands = table.strings("band"), channels = table.strings("channel"), clear = table.bools("clear")
            let segments = table.doubles("segment"), frames = table.doubles("frame"), times = table.doubles("t_s")
            for row in 0..<table.rowCount where bands[row] == "theta" {
                guard let channel = channels[row].flatMap(BrainiacHeadband.channelNames.firstIndex(of:)) else { continue }
                let segment = Int32(segments[row]), frame = Int32(frames[row])
                if data.quality.frame.last != frame || data.quality.segment.last != segment {
                    data.quality.segment.append(segment)
                    data.quality.frame.append(frame)
                    data.quality.seconds.append(times[row])
                    data.quality.clearMask.append(0)
                }
                if clear[row] == true { data.quality.clearMask[data.quality.clearMask.count - 1] |= UInt8(1 << channel) }
            }
        case "indicators":
            let segments = table.doubles("segment"), times = table.doubles("t_s"), zones = table.doubles("zone")
            for row in 0..<table.rowCount {
                data.indicators.segment.append(Int32(segments[row]))
                data.indicators.seconds.append(times[row])
                data.indicators.zone.append(zones[row].isNaN ? -1 : Int8(zones[row]))
            }
        case BandPowerTable.name:
            let scopes = table.strings("scope"), segments = table.doubles("segment"), times = table.doubles("t_s")
            let channels = table.strings("channel"), bands = table.strings("band"), power = table.doubles("power_uv2")
            for row in 0..<table.rowCount where scopes[row] == BandPowerScope.window.rawValue {
                guard let channel = channels[row].flatMap(BrainiacHeadband.channelNames.firstIndex(of:)),
                      let band = bands[row].flatMap(bandNames.firstIndex(of:)) else { continue }
                data.bandPower.segment.append(Int32(segments[row]))
                data.bandPower.seconds.append(times[row])
                data.bandPower.channel.append(UInt8(channel))
                data.bandPower.band.append(UInt8(clamping: band))
                data.bandPower.power.append(power[row])
            }
        default: break
        }
    }

    // MARK: End

    /// The data gathered. `analysisSpectra` are the SDK analysis' whole-segment spectra (when it ran).
    public func finish(analysisSpectra: [(segment: Int, channel: Int, spectrum: PowerSpectrum)]?) -> CaptureReportData {
        if welch != nil { closeWelchSegment() }
        for entry in analysisSpectra ?? [] { fold(entry.spectrum, channel: entry.channel) }
        var result = data
        for c in 0..<4 {
            guard welchCounts[c] > 0, let template = lastSpectra[c] else { continue }
            var spectrum = template
            spectrum.values = weightedSums[c].map { $0 / Double(welchCounts[c]) }
            spectrum.segmentCount = welchCounts[c]
            result.spectra[c] = spectrum
        }
        result.trace = trace
        return result
    }
}
