import Reports
import Spectral
import Tables

/// `mynd-parse --report`: per recording, the PSD per channel and condition (eyes open vs closed), signal quality per
/// channel over time, and the markers on a timeline; the questionnaires with their answers counted
/// (docs/reports.md).
extension MYNDFormat: ReportingFormat {
    public func report(_ parsed: [MYNDStudy.Item], output: FormatOutput) -> ReportPage {
        let tables = output.tables(named: ["recordings", "events", "quality", "quality_summary", "answers"])
        var sections: [ReportSection] = []
        var questionnaires: [String] = []
        var setAside: [String] = []
        for item in parsed {
            switch item {
            case .recording(let analysis):
                let path = analysis.recording.sourceFile
                sections.append(MYNDReportSection(
                    number: sections.count + 1, analysis: analysis, recording: tables[0]?.rows(ofSource: path),
                    events: tables[1]?.rows(ofSource: path), quality: tables[2]?.rows(ofSource: path),
                    qualitySummary: tables[3]?.rows(ofSource: path)).section())
            case .questionnaire(let result): questionnaires.append(result.sourceFile)
            case .setAside(let anomaly): setAside.append(anomaly.sourceFile)
            }
        }
        if !questionnaires.isEmpty {
            let answers = tables[4]
            let rows = questionnaires.map { path -> [String] in
                let mine = answers?.rows(ofSource: path)
                let answered = mine?.bools("answered").filter { $0 == true }.count ?? 0
                return [path, mine?.strings("scenario").first.flatMap { $0 } ?? "NA", String(mine?.rowCount ?? 0), String(answered)]
            }
            sections.append(ReportSection(id: "questionnaires", heading: "Questionnaires", blocks: [
                .table(ReportTable(header: ["file", "scenario", "questions", "answered"], rows: rows,
                                   numericColumns: [2, 3], limit: 50, id: "questionnaire-list")),
            ]))
        }
        if !setAside.isEmpty {
            sections.append(ReportSection(id: "set-aside", heading: "Files set aside", blocks: [
                .paragraph("Not read (I_IGNORED in the anomalies table):"), .list(setAside),
            ]))
        }
        return ReportPage(title: "MYND questionnaires and recordings read by mynd-parse", sections: sections)
    }
}

/// `mynd-parse --check-protocol --report`: the completeness table as a page.
extension MYNDProtocolCheck: ReportingFormat {
    public func report(_ parsed: [Parsed], output: FormatOutput) -> ReportPage {
        guard let table = output.table("completeness") else {
            return ReportPage(title: "MYND protocol check", sections: [])
        }
        let columns = table.columnNames
        let values = columns.map { table.strings($0) }
        let rows = (0..<table.rowCount).map { row in values.map { $0[row] ?? "NA" } }
        return ReportPage(title: "MYND protocol check of \(folder)", sections: [
            ReportSection(id: "completeness", heading: "Completeness", blocks: [
                .table(ReportTable(header: columns, rows: rows, limit: 200, id: "completeness-table")),
            ]),
        ])
    }
}

struct MYNDReportSection {
    let number: Int
    let analysis: RecordingAnalysis
    let recording: Table?
    let events: Table?
    let quality: Table?
    let qualitySummary: Table?

    var id: String { "recording-\(number)" }
    var sourceFile: String { analysis.recording.sourceFile }

    func section() -> ReportSection {
        var blocks: [ReportBlock] = [.facts(facts())]
        blocks.append(.group("Spectrum per channel and condition", spectra()))
        blocks.append(.group("Signal quality per channel", signalQuality()))
        blocks.append(.group("Markers", markers()))
        return ReportSection(id: id, heading: sourceFile, blocks: blocks)
    }

    func facts() -> [(String, String)] {
        let r = analysis.recording
        let value = { (column: String) in recording?.strings(column).first.flatMap { $0 } ?? "NA" }
        return [
            ("subject", r.subjectID ?? "NA"),
            ("scenario", value("scenario")),
            ("session / run / block", "\(value("session_id")) / \(value("run_id")) / \(value("block"))"),
            ("device", r.device ?? "NA"),
            ("channels", r.channelNames.joined(separator: ", ")),
            ("samples", "\(analysis.sampleCount) at \(Markup.value(r.samplingRate)) Hz (\(PlotData.duration(Double(analysis.sampleCount) / max(1, r.samplingRate))))"),
            ("epochs", analysis.epochs.map { "\($0.condition) at \(Markup.number($0.onset, decimals: 1)) s" }.joined(separator: ", ")),
        ]
    }

    // MARK: Spectra

    func spectra() -> [ReportBlock] {
        let spectra = analysis.conditionSpectra
        guard !spectra.isEmpty else { return [.note("No condition epochs, so no spectra.")] }
        var conditions: [String] = []
        for entry in spectra where !conditions.contains(entry.condition) { conditions.append(entry.condition) }
        var charts: [Chart] = []
        let limit = min(60, analysis.recording.samplingRate / 2)
        for (c, channel) in analysis.recording.channelNames.enumerated() {
            var layers: [ChartLayer] = [.rects([ChartRect(x0: 8, x1: 12, fill: "#E8E8E8", title: "alpha 8–12 Hz")],
                                               label: "alpha 8–12 Hz")]
            for (k, condition) in conditions.enumerated() {
                guard let entry = spectra.first(where: { $0.channel == channel && $0.condition == condition }) else { continue }
                let bins = entry.spectrum.frequencies.indices.filter { $0 > 0 && entry.spectrum.frequencies[$0] <= limit }
                layers.append(.line(LineSeries(condition, xs: bins.map { entry.spectrum.frequencies[$0] },
                                               ys: bins.map { entry.spectrum.values[$0] }, colour: Palette.colour(k))))
            }
            var x = Axis("frequency", unit: "Hz", domain: 0...limit)
            x.expand = false
            let label = ChannelLabel.tenTwenty(channel).map { "\(channel) (\($0))" } ?? channel
            charts.append(Chart(id: "\(id)-psd-\(c + 1)", cssClass: "plot-psd", title: "PSD, \(label)",
                                description: "Welch PSD of the channel per condition, the epochs of a condition pooled.",
                                width: 580, height: 260, x: x, y: Axis("PSD", unit: "µV²/Hz", scale: .log), layers: layers))
        }
        return [.plots(charts), .note("Welch over each condition's epochs (2-s Hann segments, 50 % overlap), pooled by segments: the spectra behind the band_power table's condition rows.")]
    }

    // MARK: Quality

    func signalQuality() -> [ReportBlock] {
        guard let quality, quality.rowCount > 0 else { return [.note("No quality windows.")] }
        let channel = quality.strings("channel"), t = quality.doubles("t_s"), variance = quality.doubles("variance_uv2")
        var layers: [ChartLayer] = []
        for (c, name) in analysis.recording.channelNames.enumerated() {
            let rows = (0..<quality.rowCount).filter { channel[$0] == name }
            let reduced = PlotData.reduced(xs: rows.map { t[$0] }, ys: rows.map { variance[$0] }, limit: 400)
            layers.append(.line(LineSeries(name, xs: reduced.xs, ys: reduced.ys, colour: Palette.colour(c))))
        }
        let chart = Chart(id: "\(id)-quality", cssClass: "plot-quality", title: "Signal variance per channel",
                          description: "The quality table's variance per window and channel (the app's quality measure).",
                          x: Axis("time", unit: "s"), y: Axis("variance", unit: "µV²", scale: .log), layers: layers)
        var blocks: [ReportBlock] = [.plot(chart)]
        if let qualitySummary, qualitySummary.rowCount > 0 {
            let columns = ["channel", "channel_1020", "n_windows", "var_median_uv2", "q_median", "share_a_ge_100"]
            let values = columns.map { qualitySummary.doubles($0) }
            let text = columns.map { qualitySummary.strings($0) }
            let rows = (0..<qualitySummary.rowCount).map { row in
                [text[0][row] ?? "NA", text[1][row] ?? "NA", text[2][row] ?? "NA",
                 Markup.value(values[3][row]), Markup.value(values[4][row]), PlotData.percent(values[5][row])]
            }
            blocks.append(.table(ReportTable(caption: "Quality per channel (quality_summary)",
                                             header: ["channel", "10-20", "windows", "median variance (µV²)", "median quality", "windows with average ≥ 100"],
                                             rows: rows, numericColumns: [2, 3, 4, 5], id: "\(id)-quality-summary")))
        }
        return blocks
    }

    // MARK: Markers

    func markers() -> [ReportBlock] {
        guard let events, events.rowCount > 0 else { return [.note("No markers.")] }
        let onset = events.doubles("onset_s"), duration = events.doubles("duration_s")
        let phase = events.strings("phase"), condition = events.strings("condition"), type = events.strings("trial_type")
        let marker = events.strings("marker")
        var lanes: [String] = []
        var conditions: [String] = []
        for row in 0..<events.rowCount {
            let lane = phase[row] ?? "other"
            if !lanes.contains(lane) { lanes.append(lane) }
            let name = condition[row] ?? "no condition"
            if !conditions.contains(name) { conditions.append(name) }
        }
        let rects = (0..<events.rowCount).compactMap { row -> ChartRect? in
            guard onset[row].isFinite else { return nil }
            let lane = Double(lanes.firstIndex(of: phase[row] ?? "other")!)
            let end = onset[row] + (duration[row].isFinite ? duration[row] : 0)
            let name = condition[row] ?? "no condition"
            return ChartRect(x0: onset[row], x1: end, y0: lane - 0.35, y1: lane + 0.35,
                             fill: Palette.colour(conditions.firstIndex(of: name)!),
                             title: "\(type[row] ?? "?") (marker \(marker[row] ?? "?")): \(Markup.number(onset[row], decimals: 3))–\(Markup.number(end, decimals: 3)) s")
        }
        var x = Axis("time", unit: "s", domain: 0...max(0.001, Double(analysis.sampleCount) / max(1, analysis.recording.samplingRate)))
        x.expand = false
        let chart = Chart(id: "\(id)-markers", cssClass: "plot-markers", title: "Markers",
                          description: "Each marker's event from its onset for its duration, by phase, coloured by condition.",
                          height: 90 + 26 * Double(lanes.count), x: x, y: .categories("phase", lanes),
                          layers: [.rects(rects, label: nil)],
                          legend: conditions.enumerated().map { LegendEntry($1, colour: Palette.colour($0)) })
        return [.plot(chart)]
    }
}
