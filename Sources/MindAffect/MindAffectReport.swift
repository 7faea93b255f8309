import Reports
import Tables

/// `nt-analyze --report`: per save file, each trial's cued and selected target with its correctness, the online
/// accuracy over the prediction trials, the stimulus raster of one trial and the EEG of that trial
/// (docs/reports.md).
extension MindAffectFormat: ReportingFormat {
    public func report(_ parsed: [SaveFileAnalysis], output: FormatOutput) -> ReportPage {
        let tables = output.tables(named: ["trials", "stimuli", "samples", "summary"])
        let sections = parsed.enumerated().map { index, analysis in
            let path = analysis.file.sourceFile
            return MindAffectReportSection(number: index + 1, sourceFile: path,
                                           trials: tables[0]?.rows(ofSource: path), stimuli: tables[1]?.rows(ofSource: path),
                                           samples: tables[2]?.rows(ofSource: path),
                                           summary: tables[3]?.rows(ofSource: path)).section()
        }
        return ReportPage(title: "MindAffect hub save files read by nt-analyze", sections: sections)
    }
}

struct MindAffectReportSection {
    let number: Int
    let sourceFile: String
    let trials: Table?
    let stimuli: Table?
    let samples: Table?
    let summary: Table?

    var id: String { "savefile-\(number)" }

    func section() -> ReportSection {
        var blocks: [ReportBlock] = [.facts(facts())]
        guard let trials, trials.rowCount > 0 else {
            return ReportSection(id: id, heading: sourceFile, blocks: blocks + [.note("No trials.")])
        }
        blocks.append(.group("Cued and selected targets", [.plot(targets(trials)), .note(
            "Calibration trials have a cued target only; in prediction trials the selection is green when it was the cued target, red when not.")]))
        blocks.append(.group("Online accuracy", accuracy(trials)))
        let shown = shownTrial(trials)
        blocks.append(.group("Stimulus raster of trial \(shown.label)", [raster(trials, row: shown.row)]))
        blocks.append(.group("EEG of trial \(shown.label)", eeg(trials, row: shown.row)))
        blocks.append(.group("Trials", [.table(trialTable(trials))]))
        return ReportSection(id: id, heading: sourceFile, blocks: blocks)
    }

    func facts() -> [(String, String)] {
        guard let summary, summary.rowCount > 0 else { return [] }
        let value = { (column: String) in summary.strings(column).first.flatMap { $0 } ?? "NA" }
        return [
            ("trials", value("n_trials")),
            ("EEG", "\(value("n_samples")) samples, \(value("n_channels")) channels at \(value("fs_est_hz")) Hz (nominal \(value("fs_nominal_hz")) Hz)"),
            ("stimulus events", value("n_events")),
            ("clock", "\(value("clock")), timestamps \(value("timestamp_rule"))"),
            ("code agreement", value("code_agreement")),
        ]
    }

    // MARK: Targets

    func targets(_ trials: Table) -> Chart {
        let trial = trials.doubles("trial"), cued = trials.doubles("cued_target"), selected = trials.doubles("selected")
        let correct = trials.bools("correct"), phase = trials.strings("phase")
        let objects = trials.doubles("n_objects").filter { $0.isFinite }.max() ?? 1
        let rows = Array(0..<trials.rowCount)
        let cuedRows = rows.filter { cued[$0].isFinite }
        let right = rows.filter { selected[$0].isFinite && correct[$0] == true }
        let wrong = rows.filter { selected[$0].isFinite && correct[$0] != true }
        func title(_ r: Int) -> String {
            "trial \(Markup.number(trial[r], decimals: 0)) (\(phase[r] ?? "?")): cued \(cued[r].isFinite ? Markup.number(cued[r], decimals: 0) : "NA"), "
                + "selected \(selected[r].isFinite ? Markup.number(selected[r], decimals: 0) : "none")"
        }
        var x = Axis("trial", unit: "number", padding: 0.05)
        x.expand = false
        x.integerTicks = true
        var y = Axis("target", unit: "object id", domain: -0.5...(objects - 0.5))
        y.integerTicks = true
        y.tickCount = objects <= 12 ? Int(objects) : 6
        return Chart(id: "\(id)-targets", cssClass: "plot-targets", title: "Cued and selected target per trial",
                     description: "The cued target (hollow circle) and the selected one (filled: green correct, red wrong) of each trial.",
                     x: x, y: y,
                     layers: [
                        .points(PointSeries("cued", xs: cuedRows.map { trial[$0] }, ys: cuedRows.map { cued[$0] },
                                            colour: Palette.colour(0), radius: 7, hollow: true, titles: cuedRows.map(title))),
                        .points(PointSeries("selected, correct", xs: right.map { trial[$0] }, ys: right.map { selected[$0] },
                                            colour: Palette.good, radius: 4, titles: right.map(title))),
                        .points(PointSeries("selected, wrong", xs: wrong.map { trial[$0] }, ys: wrong.map { selected[$0] },
                                            colour: Palette.bad, radius: 4, shape: .cross, titles: wrong.map(title))),
                     ])
    }

    func accuracy(_ trials: Table) -> [ReportBlock] {
        let trial = trials.doubles("trial"), selected = trials.doubles("selected"), correct = trials.bools("correct")
        let rows = (0..<trials.rowCount).filter { selected[$0].isFinite }
        guard !rows.isEmpty else { return [.note("No trial ended in a selection (no prediction trials).")] }
        var hits = 0.0
        var running: [Double] = []
        for (k, row) in rows.enumerated() {
            if correct[row] == true { hits += 1 }
            running.append(100 * hits / Double(k + 1))
        }
        var x = Axis("trial", unit: "number", padding: 0.05)
        x.expand = false
        x.integerTicks = true
        let chart = Chart(id: "\(id)-accuracy", cssClass: "plot-accuracy", title: "Online accuracy",
                          description: "Share of the selections so far that were the cued target.",
                          height: 220, x: x, y: Axis("selections correct so far", unit: "%", domain: 0...100),
                          layers: [.line(LineSeries("running accuracy", xs: rows.map { trial[$0] }, ys: running,
                                                    colour: Palette.colour(0))),
                                   .points(PointSeries(nil, xs: rows.map { trial[$0] }, ys: running, colour: Palette.colour(0),
                                                       titles: zip(rows, running).map { "trial \(Markup.number(trial[$0], decimals: 0)): \(Markup.number($1, decimals: 1)) %" }))])
        return [.plot(chart), .paragraph("\(Int(hits)) of \(rows.count) selections correct (\(PlotData.percent(hits / Double(rows.count)))).")]
    }

    // MARK: One trial

    /// The trial shown in detail: the first prediction trial with a selection, else the first trial.
    func shownTrial(_ trials: Table) -> (row: Int, label: String) {
        let selected = trials.doubles("selected"), trial = trials.doubles("trial")
        let row = (0..<trials.rowCount).first { selected[$0].isFinite } ?? 0
        return (row, Markup.number(trial[row], decimals: 0))
    }

    func window(_ trials: Table, row: Int) -> (start: Double, end: Double) {
        let start = trials.doubles("t_start_ms")[row], duration = trials.doubles("duration_ms")[row]
        return (start, start + (duration.isFinite ? duration : 0))
    }

    func raster(_ trials: Table, row: Int) -> ReportBlock {
        guard let stimuli, stimuli.rowCount > 0 else { return .note("No stimulus events.") }
        let (start, end) = window(trials, row: row)
        let times = stimuli.doubles("t_ms")
        let inTrial = times.indices.filter { times[$0] >= start && times[$0] <= end }
        let objectColumns = stimuli.columnNames.filter { $0.hasPrefix("obj") }
        guard !inTrial.isEmpty, !objectColumns.isEmpty else { return .note("No stimulus events in this trial.") }
        let cued = trials.doubles("cued_target")[row]
        var lanes: [String] = []
        var layers: [ChartLayer] = []
        for (lane, column) in objectColumns.enumerated() {
            let states = stimuli.doubles(column)
            let object = Int(column.dropFirst(3)) ?? lane
            lanes.append(Double(object) == cued ? "obj \(object) (cued)" : "obj \(object)")
            var rects: [ChartRect] = []
            // Each state holds until the next event (the last one for one frame, 1/60 s).
            let on = inTrial.map { states[$0] > 0 }
            for run in PlotData.runs(on) where run.value {
                let t0 = (times[inTrial[run.first]] - start) / 1000
                let next = run.last + 1 < inTrial.count ? times[inTrial[run.last + 1]] : times[inTrial[run.last]] + 1000 / 60
                rects.append(ChartRect(x0: t0, x1: (next - start) / 1000, y0: Double(lane) - 0.4, y1: Double(lane) + 0.4,
                                       fill: Double(object) == cued ? Palette.bad : Palette.colour(0)))
            }
            layers.append(.rects(rects, label: nil))
        }
        var x = Axis("time since the trial's first frame", unit: "s", domain: 0...max(0.001, (end - start) / 1000))
        x.expand = false
        let chart = Chart(id: "\(id)-raster", cssClass: "plot-stimulus-raster", title: "Stimulus raster",
                          description: "When each object was on (state > 0) during the trial; the cued object in red.",
                          height: 80 + 22 * Double(lanes.count), x: x, y: .categories("object", lanes), layers: layers)
        return .plot(chart)
    }

    func eeg(_ trials: Table, row: Int) -> [ReportBlock] {
        guard let samples, samples.rowCount > 0 else { return [.note("No EEG samples.")] }
        let (start, end) = window(trials, row: row)
        let times = samples.doubles("t_ms")
        let inTrial = times.indices.filter { times[$0] >= start && times[$0] <= end }
        guard !inTrial.isEmpty else { return [.note("No EEG samples during this trial.")] }
        let channels = samples.columnNames.filter { $0.hasPrefix("ch") && $0.hasSuffix("_uv") }
        var charts: [Chart] = []
        for (index, channel) in channels.enumerated() {
            let values = samples.doubles(channel)
            var x = Axis("time since the trial's first frame", unit: "s", domain: 0...max(0.001, (end - start) / 1000))
            x.expand = false
            charts.append(Chart(id: "\(id)-eeg-\(channel)", cssClass: "plot-trial-eeg", title: "EEG, \(channel)",
                                description: "The samples of the trial as written in the samples table.",
                                width: 580, height: 170, x: x, y: Axis("EEG", unit: samples.unit(channel)),
                                layers: [.line(LineSeries(channel, xs: inTrial.map { (times[$0] - start) / 1000 },
                                                          ys: inTrial.map { values[$0] }, colour: Palette.colour(index),
                                                          width: 1, inLegend: false))]))
        }
        return [.plots(charts)]
    }

    func trialTable(_ trials: Table) -> ReportTable {
        let columns = ["trial", "phase", "t_start_s", "duration_ms", "cued_target", "selected", "correct", "online_perr"]
        let values = columns.map { trials.strings($0) }
        let correct = trials.bools("correct")
        return ReportTable(header: ["trial", "phase", "start (s)", "duration (ms)", "cued", "selected", "correct", "online p(error)"],
                           rows: (0..<trials.rowCount).map { row in values.map { $0[row] ?? "NA" } },
                           numericColumns: [0, 2, 3, 4, 5, 7], limit: 40,
                           rowClasses: (0..<trials.rowCount).map { correct[$0] == false ? "warning" : nil }, id: "\(id)-trials")
    }
}
