import Reports
import Spectral
import Tables

/// `bt-decode --report`: per capture, what was decoded (segments, lost samples, byte order), the spectrum per
/// channel with the SDK bands shaded, band power over time, frame quality and indicator zones over time, gaps and
/// resyncs on a timeline, and the raw signal around the largest gap (docs/reports.md).
extension CaptureFormat: ReportingFormat {
    public func report(_ parsed: [Decoded], output: FormatOutput) -> ReportPage {
        let recordings = output.table("recordings")
        let sections = parsed.enumerated().map { index, decoded in
            CaptureReportSection(decoded: decoded, number: index + 1, recordings: recordings, options: options).section()
        }
        return ReportPage(title: "Brainiac captures decoded by bt-decode", sections: sections)
    }
}

/// One capture's section of the report.
struct CaptureReportSection {
    let decoded: CaptureFormat.Decoded
    let number: Int
    let options: CaptureFormat.Options
    /// The capture's segments from the `recordings` table.
    let segments: [Int]
    let durations: [Double]
    /// Capture time of each segment's start: segments laid end to end.
    let offsets: [Int: Double]
    let totalSeconds: Double
    let unit: (unit: String, divisor: Double)
    let recordings: Table?

    init(decoded: CaptureFormat.Decoded, number: Int, recordings: Table?, options: CaptureFormat.Options) {
        self.decoded = decoded
        self.number = number
        self.options = options
        self.recordings = recordings
        let table = decoded.recordings
        segments = table.doubles("segment").map { Int($0) }
        durations = table.doubles("duration_s").map { $0.isFinite ? $0 : 0 }
        var offsets: [Int: Double] = [:]
        var total = 0.0
        for (segment, duration) in zip(segments, durations) {
            offsets[segment] = total
            total += duration
        }
        self.offsets = offsets
        totalSeconds = total
        unit = PlotData.timeUnit(forSpan: total)
    }

    var id: String { "capture-\(number)" }
    var channelColours: [String] { (0..<4).map(Palette.colour) }

    /// Capture time in the plot's unit.
    func captureTime(segment: Int32, seconds: Double) -> Double { captureTime(segment: Int(segment), seconds: seconds) }

    func captureTime(segment: Int, seconds: Double) -> Double {
        ((offsets[segment] ?? 0) + seconds) / unit.divisor
    }

    func timeAxis() -> Axis {
        var axis = Axis(segments.count > 1 ? "capture time (segments end to end)" : "device time", unit: unit.unit,
                        domain: 0...max(totalSeconds / unit.divisor, 1e-9))
        axis.expand = false
        return axis
    }

    func section() -> ReportSection {
        var blocks: [ReportBlock] = [.facts(facts())]
        guard let data = decoded.report else {
            return ReportSection(id: id, heading: decoded.sourceFile, blocks: blocks)
        }
        blocks.append(spectrum(data))
        blocks += bandPower(data)
        blocks.append(quality(data))
        blocks.append(zones(data))
        blocks.append(gaps())
        blocks += trace(data)
        return ReportSection(id: id, heading: decoded.sourceFile, blocks: blocks)
    }

    // MARK: Facts

    func facts() -> [(String, String)] {
        let table = decoded.recordings
        let samples = table.doubles("samples").reduce(0, +)
        let lost = table.doubles("lost_samples").reduce(0, +)
        let skipped = table.doubles("skipped_bytes").reduce(0, +)
        let order = table.strings("byte_order").first.flatMap { $0 } ?? "NA"
        var counts: [CaptureEvent.Kind: Int] = [:]
        for event in decoded.events { counts[event.kind, default: 0] += 1 }
        let events = CaptureEvent.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }
        return [
            ("duration", PlotData.duration(totalSeconds) + " (device clock, lost samples included)"),
            ("segments", String(segments.count)),
            ("samples", Markup.number(samples, decimals: 0)),
            ("lost samples", Markup.number(lost, decimals: 0) + " (" + PlotData.percent(lost / max(1, samples + lost)) + ")"),
            ("skipped bytes", Markup.number(skipped, decimals: 0)),
            ("byte order", order),
            ("events", events.isEmpty ? "none" : events.joined(separator: ", ")),
        ]
    }

    // MARK: Spectrum

    func spectrum(_ data: CaptureReportData) -> ReportBlock {
        var layers: [ChartLayer] = []
        let resolution = FrameEngine.binWidth
        let shades = ["#E8E8E8", "#D6E6F2", "#F2E2D6"]
        for (index, band) in SDKBand.allCases.enumerated() {
            let lo = Double(band.bins.lowerBound) * resolution, hi = Double(band.bins.upperBound) * resolution
            layers.append(.rects([ChartRect(x0: lo, x1: hi, fill: shades[index],
                                            title: "SDK \(band.name): bins \(band.bins.lowerBound)–\(band.bins.upperBound), "
                                                + "\(Markup.number(lo, decimals: 2))–\(Markup.number(hi, decimals: 2)) Hz")],
                                 label: "SDK \(band.name)"))
        }
        var drawn = 0
        for (c, spectrum) in data.spectra.enumerated() {
            guard let spectrum else { continue }
            // Bin 0 (the mean, removed by detrending) is left out.
            layers.append(.line(LineSeries(BrainiacHeadband.channelNames[c], xs: Array(spectrum.frequencies.dropFirst()),
                                           ys: Array(spectrum.values.dropFirst()), colour: channelColours[c])))
            drawn += 1
        }
        let welch = options.analysis?.welch ?? WelchParameters(samplingRate: BrainiacHeadband.samplingRate)
        var x = Axis("frequency", unit: "Hz", domain: 0...(BrainiacHeadband.samplingRate / 2))
        x.expand = false
        let chart = Chart(id: "\(id)-psd", cssClass: "plot-psd", title: "Power spectral density per channel (Welch)",
                          description: "Welch PSD of each channel over the whole capture, log scale, with the SDK's theta, alpha and beta bands shaded.",
                          height: 300, x: x, y: Axis("PSD", unit: "µV²/Hz", scale: .log), layers: layers)
        let note = "Welch: \(welch.segmentLength)-sample Hann segments, \(welch.overlap) overlap, mean of every segment of every decoder segment."
        if drawn == 0 { return .group("Spectrum", [.note("No spectrum: the capture is shorter than one Welch segment.")]) }
        return .group("Spectrum", [.plot(chart), .note(note)])
    }

    // MARK: Band power

    func bandPower(_ data: CaptureReportData) -> [ReportBlock] {
        guard let bands = options.analysis?.bands else {
            return [.note("Band power, frame quality and indicators are not computed with --no-analysis.")]
        }
        let rows = data.bandPower
        let windowSeconds = options.analysis?.windowSeconds ?? 10
        guard !rows.power.isEmpty else { return [.note("No band-power windows: the capture is shorter than one window.")] }
        var charts: [Chart] = []
        for c in 0..<4 {
            var layers: [ChartLayer] = []
            for (b, band) in bands.enumerated() {
                var xs: [Double] = [], ys: [Double] = []
                for row in rows.power.indices where rows.channel[row] == c && rows.band[row] == b {
                    xs.append(captureTime(segment: rows.segment[row], seconds: rows.seconds[row] + windowSeconds / 2))
                    ys.append(rows.power[row])
                }
                let reduced = PlotData.reduced(xs: xs, ys: ys, limit: 240)
                layers.append(.line(LineSeries(band.name, xs: reduced.xs, ys: reduced.ys, colour: Palette.colour(b))))
            }
            charts.append(Chart(id: "\(id)-band-power-\(BrainiacHeadband.channelNames[c])", cssClass: "plot-band-power",
                                title: "Band power, \(BrainiacHeadband.channelNames[c])",
                                description: "Absolute band power per \(Markup.number(options.analysis?.windowSeconds ?? 10)) s window over time.",
                                width: 580, height: 250, x: timeAxis(),
                                y: Axis("band power", unit: "µV²", scale: .log), layers: layers))
        }
        let window = Markup.number(options.analysis?.windowSeconds ?? 10)
        return [.group("Band power over time", [
            .plots(charts),
            .note("The band_power table's window rows, each at its window's middle (t_s + \(window)/2 s; long captures averaged to at most 240 points per line)."),
        ])]
    }

    // MARK: Quality and zones

    func quality(_ data: CaptureReportData) -> ReportBlock {
        let rows = data.quality
        guard options.analysis != nil, !rows.clearMask.isEmpty else {
            return .note("No frame quality: no frames were computed.")
        }
        var layers: [ChartLayer] = []
        let scale = ColourScale.viridis
        for c in 0..<4 {
            let times = rows.seconds.indices.map { captureTime(segment: rows.segment[$0], seconds: rows.seconds[$0]) }
            let clear = rows.clearMask.map { $0 & UInt8(1 << c) != 0 ? 100.0 : 0 }
            // At most 240 cells per lane, each the share of its frames that were clear.
            let frameSeconds = 1 / unit.divisor
            let reduced = PlotData.reduced(xs: times, ys: clear, limit: 240)
            let group = max(1, (times.count + 239) / 240)
            let colours = reduced.ys.map { scale.colour(of: $0, in: 0...100) }
            let lane = Double(c)
            var rects: [ChartRect] = []
            for run in PlotData.runs(colours) {
                // Each cell spans its frames: a frame covers the second before its time.
                let first = run.first * group, last = min(times.count - 1, (run.last + 1) * group - 1)
                let share = reduced.ys[run.first]
                rects.append(ChartRect(x0: times[first] - frameSeconds, x1: times[last], y0: lane - 0.4, y1: lane + 0.4,
                                       fill: run.value,
                                       title: "\(BrainiacHeadband.channelNames[c]): \(Markup.number(share, decimals: 0)) % clear"))
            }
            layers.append(.rects(rects, label: nil))
        }
        let chart = Chart(id: "\(id)-quality", cssClass: "plot-quality", title: "Signal quality: frames the SDK marks clear",
                          description: "Share of 1-s frames whose channel the SDK's quality rule marks clear, per channel over time.",
                          height: 200, x: timeAxis(), y: .categories("channel", BrainiacHeadband.channelNames),
                          layers: layers,
                          colourBar: ColourBar(label: "frames clear", unit: "%", domain: 0...100))
        return .group("Signal quality over time", [.plot(chart),
            .note("From the frames table's clear column (forced clear during the baseline bypass, as the SDK does).")])
    }

    func zones(_ data: CaptureReportData) -> ReportBlock {
        let rows = data.indicators
        guard options.analysis != nil, !rows.seconds.isEmpty else {
            return .note("No indicators: the baseline was disabled, failed, or not reached.")
        }
        let names = IndicatorZone.allCases.map(\.name) + ["none"]
        let interval = Double(Baseline.indicatorInterval) / BrainiacHeadband.samplingRate / unit.divisor
        let lanes = rows.zone.map { $0 < 0 ? names.count - 1 : Int($0) }
        var rects: [ChartRect] = []
        var start = 0
        while start < lanes.count {
            var end = start
            while end + 1 < lanes.count && lanes[end + 1] == lanes[start] && rows.segment[end + 1] == rows.segment[start] { end += 1 }
            let x1 = captureTime(segment: rows.segment[end], seconds: rows.seconds[end])
            let x0 = captureTime(segment: rows.segment[start], seconds: rows.seconds[start]) - interval
            let lane = Double(lanes[start])
            rects.append(ChartRect(x0: x0, x1: x1, y0: lane - 0.4, y1: lane + 0.4,
                                   fill: lanes[start] == names.count - 1 ? Palette.neutral : Palette.colour(lanes[start]),
                                   title: "\(names[lanes[start]]): \(end - start + 1) indicator\(end == start ? "" : "s")"))
            start = end + 1
        }
        let chart = Chart(id: "\(id)-zones", cssClass: "plot-zones", title: "Indicator zones over time",
                          description: "The SDK's activity zone at each indicator (every 5 s after the baseline).",
                          height: 240, x: timeAxis(), y: .categories("zone", names), layers: [.rects(rects, label: nil)])
        return .group("Indicator zones over time", [.plot(chart)])
    }

    // MARK: Gaps

    func gaps() -> ReportBlock {
        let (binWidth, binText) = binSize()
        let binCount = max(1, Int((totalSeconds / binWidth).rounded(.up)))
        var lostInGaps = [Double](repeating: 0, count: binCount), lostInResyncs = lostInGaps
        // Resyncs are drawn one by one only when there are few (at most `resyncLines`): their lines and titles are
        // kept only up to one more than that (a faulty 10-hour capture has tens of thousands).
        let resyncLines = 60
        var resyncX: [Double] = [], resyncTitles: [String] = []
        var breaks: [Double] = [], breakTitles: [String] = []
        for event in decoded.events {
            guard let index = event.sampleIndex else { continue }
            let seconds = Double(index) / BrainiacHeadband.samplingRate
            let t = (offsets[event.segment] ?? 0) + seconds
            let bin = min(binCount - 1, max(0, Int(t / binWidth)))
            switch event.kind {
            case .gap:
                lostInGaps[bin] += Double(event.lostSamples ?? 0)
            case .resync:
                lostInResyncs[bin] += Double(event.lostSamples ?? 0)
                guard resyncX.count <= resyncLines else { continue }
                resyncX.append(t / unit.divisor)
                resyncTitles.append("resync at \(Markup.number(seconds, decimals: 2)) s (segment \(event.segment)): "
                                    + "\(event.byteCount) bytes skipped, \(event.lostSamples ?? 0) samples lost")
            case .discontinuity:
                breaks.append(t / unit.divisor)
                breakTitles.append("discontinuity: segment \(event.segment) starts (\(CaptureTables.message(event)))")
            case .leadingBytes, .truncatedTail, .unsyncedTail:
                break
            }
        }
        // Stacked bars per bin: samples lost in gaps, then in resyncs on top.
        let width = binWidth / unit.divisor
        let gapBins = lostInGaps.indices.filter { lostInGaps[$0] > 0 }
        let resyncBins = lostInResyncs.indices.filter { lostInResyncs[$0] > 0 }
        var layers: [ChartLayer] = [
            .bars(BarSeries("lost in gaps", xs: gapBins.map { Double($0) * width }, widths: gapBins.map { _ in width },
                            ys: gapBins.map { lostInGaps[$0] }, colour: Palette.colour(0),
                            titles: gapBins.map { "\(Markup.number(lostInGaps[$0], decimals: 0)) samples lost in gaps" })),
            .bars(BarSeries("lost in resyncs", xs: resyncBins.map { Double($0) * width },
                            widths: resyncBins.map { _ in width },
                            ys: resyncBins.map { lostInGaps[$0] + lostInResyncs[$0] },
                            bases: resyncBins.map { lostInGaps[$0] }, colour: Palette.bad,
                            titles: resyncBins.map { "\(Markup.number(lostInResyncs[$0], decimals: 0)) samples lost in resyncs" })),
        ]
        // Each resync as a line where there are few enough to tell apart.
        if !resyncX.isEmpty && resyncX.count <= resyncLines {
            layers.append(.rules(RuleSeries("resync", xs: resyncX, colour: Palette.bad, width: 1, dashed: true,
                                            titles: resyncTitles)))
        }
        if !breaks.isEmpty {
            layers.append(.rules(RuleSeries("discontinuity (new segment)", xs: breaks, colour: "#000000", width: 1.5,
                                            dashed: true, titles: breakTitles)))
        }
        let chart = Chart(id: "\(id)-gaps", cssClass: "plot-gaps", title: "Gaps and resyncs: lost samples per \(binText)",
                          description: "Samples lost in gaps and in resyncs, summed per time bin (stacked); resyncs and discontinuities as vertical lines.",
                          height: 230, x: timeAxis(),
                          y: Axis("lost samples per \(binText)", unit: "sample", includeZero: true), layers: layers)
        var blocks: [ReportBlock] = [.plot(chart)]
        if decoded.events.isEmpty { blocks.append(.note("No gaps, resyncs or discontinuities: every packet followed the one before.")) }
        blocks.append(.note("From the gaps table (lost_samples at t_s); leading bytes and tails are counted in the facts above."))
        return .group("Gaps and resyncs", blocks)
    }

    /// A bin width giving about 120 bins, at a round number of seconds.
    func binSize() -> (Double, String) {
        let steps: [Double] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
        let width = steps.first { totalSeconds / $0 <= 120 } ?? 3600
        return (width, width < 60 ? "\(Int(width)) s" : "\(Int(width / 60)) min")
    }

    // MARK: Raw trace

    func trace(_ data: CaptureReportData) -> [ReportBlock] {
        guard let trace = data.trace, !trace.times.isEmpty else { return [.note("No samples to show.")] }
        var charts: [Chart] = []
        let what: String
        if let gap = trace.gapStartSeconds {
            what = "around the largest gap: \(trace.lostSamples) samples lost at \(Markup.number(gap, decimals: 3)) s of segment \(trace.segment)"
        } else {
            what = "the first \(Markup.number(CaptureReportCollector.startSeconds)) s (no gap)"
        }
        for c in 0..<4 {
            var layers: [ChartLayer] = []
            if let gap = trace.gapStartSeconds {
                layers.append(.rects([ChartRect(x0: gap, x1: gap + Double(trace.lostSamples) / BrainiacHeadband.samplingRate,
                                                fill: "#F6D3C4", title: "\(trace.lostSamples) samples lost")],
                                     label: c == 0 ? "gap" : nil))
            }
            layers.append(.line(LineSeries(BrainiacHeadband.channelNames[c], xs: trace.times, ys: trace.microvolts[c],
                                           colour: channelColours[c], width: 1)))
            var x = Axis("device time in segment \(trace.segment)", unit: "s")
            x.expand = false
            charts.append(Chart(id: "\(id)-trace-\(BrainiacHeadband.channelNames[c])", cssClass: "plot-trace",
                                title: "Raw signal, \(BrainiacHeadband.channelNames[c])",
                                description: "The decoded samples \(what).",
                                width: 580, height: 170, x: x, y: Axis("EEG", unit: "µV"), layers: layers))
        }
        return [.group("Raw signal \(what)", [.plots(charts)])]
    }
}
