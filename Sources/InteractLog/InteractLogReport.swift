import Reports
import Tables

/// `ilog-parse --report`: per log, a replay of its strokes on the pad (one panel per stimulus, numbered, coloured by
/// phase), and a timeline of stimulus views, strokes and key presses (docs/reports.md).
extension InteractLogFormat: ReportingFormat {
    public func report(_ parsed: [Parsed], output: FormatOutput) -> ReportPage {
        let tables = output.tables(named: ["trials", "strokes", "stimulus_views", "keys"])
        var sections: [ReportSection] = []
        var companions: [String] = []
        for item in parsed {
            switch item {
            case .log(let analysis):
                let path = analysis.log.sourceFile
                sections.append(InteractLogReportSection(
                    number: sections.count + 1, sourceFile: path, trial: tables[0]?.rows(ofSource: path),
                    strokes: tables[1]?.rows(ofSource: path), views: tables[2]?.rows(ofSource: path),
                    keys: tables[3]?.rows(ofSource: path)).section())
            case .companion(let path, _, _):
                companions.append(path)
            }
        }
        if !companions.isEmpty {
            sections.append(ReportSection(id: "companions", heading: "Java companion files", blocks: [
                .paragraph("Read only to cross-check their logs (I_COMPANION in the anomalies table):"), .list(companions),
            ]))
        }
        return ReportPage(title: "InteractLog drawing-experiment logs read by ilog-parse", sections: sections)
    }
}

struct InteractLogReportSection {
    let number: Int
    let sourceFile: String
    let trial: Table?
    let strokes: Table?
    let views: Table?
    let keys: Table?

    var id: String { "log-\(number)" }

    func section() -> ReportSection {
        var blocks: [ReportBlock] = [.facts(facts())]
        let phases = phaseOrder()
        blocks.append(.group("Stroke replay", replay(phases)))
        blocks.append(.group("Stimulus views, strokes and key presses", [timeline(phases)]))
        if let keys, keys.rowCount > 0 { blocks.append(.group("Key presses", [.table(keyTable(keys))])) }
        return ReportSection(id: id, heading: sourceFile, blocks: blocks)
    }

    private func first(_ column: String) -> String? { trial?.strings(column).first ?? nil }
    private func firstNumber(_ column: String) -> Double { trial?.doubles(column).first ?? .nan }
    var unit: String { first("coord_unit") ?? "coord" }

    func facts() -> [(String, String)] {
        let n = { (column: String) in Markup.number(self.firstNumber(column), decimals: 0) }
        return [
            ("participant", first("participant") ?? "NA"),
            ("trial", first("trial") ?? "NA"),
            ("program", "\(first("program") ?? "NA") (\(first("variant") ?? "NA"))"),
            ("events", "\(n("n_events")) over \(Markup.value(firstNumber("event_span_s"), significant: 4)) s"),
            ("strokes", "\(n("n_strokes")) (\(n("n_unpaired_down")) unpaired presses, \(n("n_unpaired_release")) unpaired releases)"),
            ("stimulus views", n("n_views")),
            ("key presses", n("n_key_presses")),
            ("pad", "\(Markup.value(firstNumber("pad_width_coord"))) × \(Markup.value(firstNumber("pad_height_coord"))) \(unit)"),
        ]
    }

    /// Phases in order of first appearance (views, then strokes), for one colour each.
    func phaseOrder() -> [String] {
        var order: [String] = []
        for phase in (views?.strings("phase") ?? []) + (strokes?.strings("phase") ?? []) {
            let name = phase ?? "no phase"
            if !order.contains(name) { order.append(name) }
        }
        return order
    }

    func colour(_ phase: String?, _ phases: [String]) -> String {
        Palette.colour(phases.firstIndex(of: phase ?? "no phase") ?? 0)
    }

    // MARK: Replay

    func replay(_ phases: [String]) -> [ReportBlock] {
        guard let strokes, strokes.rowCount > 0 else { return [.note("No strokes.")] }
        let x0 = strokes.doubles("x_start_coord"), y0 = strokes.doubles("y_start_coord")
        let x1 = strokes.doubles("x_end_coord"), y1 = strokes.doubles("y_end_coord")
        let numbers = strokes.strings("stroke"), phase = strokes.strings("phase")
        let stimulus = strokes.strings("last_stimulus"), stimulusPhase = strokes.strings("last_stimulus_phase")
        // The pad, or the strokes' extent where the header gives none.
        var width = firstNumber("pad_width_coord"), height = firstNumber("pad_height_coord")
        if !(width > 0) { width = (x0 + x1).filter { $0.isFinite }.max() ?? 1 }
        if !(height > 0) { height = (y0 + y1).filter { $0.isFinite }.max() ?? 1 }
        // One panel per stimulus, in order of first stroke.
        var groups: [(name: String, rows: [Int])] = []
        for row in 0..<strokes.rowCount {
            let name = stimulus[row].map { image in stimulusPhase[row].map { "\($0): \(image)" } ?? image }
                ?? "before any stimulus"
            if let index = groups.firstIndex(where: { $0.name == name }) { groups[index].rows.append(row) }
            else { groups.append((name, [row])) }
        }
        let panelWidth = 420.0
        let plotHeight = min(360, max(120, (panelWidth - 90) * height / width))
        var charts: [Chart] = []
        for (index, group) in groups.enumerated() {
            var layers: [ChartLayer] = [.texts([ChartText(x: width / 2, y: height / 2, group.name, colour: "#C8C8C8",
                                                          size: 22)])]
            var labels: [ChartText] = []
            for row in group.rows {
                let colour = colour(phase[row], phases)
                let label = "stroke \(numbers[row] ?? "?")"
                if x0[row].isFinite && x1[row].isFinite {
                    layers.append(.line(LineSeries(label, xs: [x0[row], x1[row]], ys: [y0[row], y1[row]], colour: colour,
                                                   width: 2.5, inLegend: false)))
                }
                let (sx, sy) = x0[row].isFinite ? (x0[row], y0[row]) : (x1[row], y1[row])
                if sx.isFinite && sy.isFinite {
                    layers.append(.points(PointSeries(nil, xs: [sx], ys: [sy], colour: colour, radius: 3.5,
                                                      hollow: !(x0[row].isFinite && x1[row].isFinite),
                                                      titles: ["\(label) (\(phase[row] ?? "no phase"))"])))
                    labels.append(ChartText(x: sx, y: sy, numbers[row] ?? "?", anchor: .start, colour: "#222222",
                                            size: 11, dx: 5, dy: -5))
                }
            }
            layers.append(.texts(labels))
            var x = Axis("x", unit: unit, domain: 0...width)
            x.expand = false
            var y = Axis("y (down)", unit: unit, domain: 0...height)
            y.expand = false
            y.reversed = true
            let legend = Set(group.rows.map { phase[$0] ?? "no phase" })
            charts.append(Chart(id: "\(id)-replay-\(index + 1)", cssClass: "plot-stroke-replay",
                                title: "Strokes after \(group.name)",
                                description: "Each stroke from press to release on the pad, numbered at its start.",
                                width: panelWidth, height: plotHeight + 100, x: x, y: y, layers: layers,
                                legend: phases.filter(legend.contains).map { LegendEntry($0, colour: colour($0, phases), swatch: .line) }))
        }
        return [.plots(charts), .note("Straight from press to release (the log has no points in between); a hollow dot is a press or release without its pair. Coloured by the stroke's phase; the stimulus shown last before the stroke is written in grey.")]
    }

    // MARK: Timeline

    func timeline(_ phases: [String]) -> ReportBlock {
        var lanes: [String] = []
        var layers: [ChartLayer] = []
        let span = firstNumber("event_span_s")
        if let views, views.rowCount > 0 {
            let phase = views.strings("phase"), image = views.strings("image")
            let on = views.doubles("t_on_s"), off = views.doubles("t_off_s")
            var rects: [ChartRect] = []
            for row in 0..<views.rowCount {
                let name = "\(phase[row] ?? "?"): \(image[row] ?? "?")"
                if !lanes.contains(name) { lanes.append(name) }
                let lane = Double(lanes.firstIndex(of: name)!)
                let start = on[row].isFinite ? on[row] : 0
                let end = off[row].isFinite ? off[row] : (span.isFinite ? span : start)
                rects.append(ChartRect(x0: start, x1: end, y0: lane - 0.35, y1: lane + 0.35, fill: colour(phase[row], phases),
                                       title: "\(name): \(Markup.number(start, decimals: 3))–\(Markup.number(end, decimals: 3)) s"
                                           + (off[row].isFinite ? "" : " (still shown at the end)")))
            }
            layers.append(.rects(rects, label: nil))
        }
        if let strokes, strokes.rowCount > 0 {
            lanes.append("strokes")
            let lane = Double(lanes.count - 1)
            let start = strokes.doubles("start_s"), end = strokes.doubles("end_s"), phase = strokes.strings("phase")
            let numbers = strokes.strings("stroke")
            layers.append(.rects((0..<strokes.rowCount).compactMap { row in
                let a = start[row].isFinite ? start[row] : end[row], b = end[row].isFinite ? end[row] : start[row]
                guard a.isFinite else { return nil }
                return ChartRect(x0: a, x1: b, y0: lane - 0.35, y1: lane + 0.35, fill: colour(phase[row], phases),
                                 title: "stroke \(numbers[row] ?? "?"): \(Markup.number(a, decimals: 3))–\(Markup.number(b, decimals: 3)) s")
            }, label: nil))
        }
        if let keys, keys.rowCount > 0 {
            lanes.append("keys")
            let lane = Double(lanes.count - 1)
            let press = keys.doubles("t_press_s"), release = keys.doubles("t_release_s")
            let descr = keys.strings("descr"), role = keys.strings("role")
            let rows = (0..<keys.rowCount).filter { press[$0].isFinite || release[$0].isFinite }
            layers.append(.points(PointSeries("key press", xs: rows.map { press[$0].isFinite ? press[$0] : release[$0] },
                                              ys: rows.map { _ in lane }, colour: "#000000", radius: 4, shape: .diamond,
                                              titles: rows.map { "\(descr[$0] ?? "?") (\(role[$0] ?? "?")) at \(Markup.number(press[$0].isFinite ? press[$0] : release[$0], decimals: 3)) s" },
                                              inLegend: false)))
        }
        guard !lanes.isEmpty else { return .note("No stimulus views, strokes or key presses.") }
        var x = Axis("time since the first event", unit: "s", domain: span.isFinite && span > 0 ? 0...(span * 1.02) : nil)
        x.expand = false
        let chart = Chart(id: "\(id)-timeline", cssClass: "plot-timeline", title: "Timeline",
                          description: "When each stimulus was shown, each stroke drawn and each key pressed.",
                          height: 90 + 24 * Double(lanes.count), x: x, y: .categories("row", lanes), layers: layers,
                          legend: phases.map { LegendEntry($0, colour: colour($0, phases)) })
        return .plot(chart)
    }

    func keyTable(_ keys: Table) -> ReportTable {
        let press = keys.doubles("t_press_s"), hold = keys.doubles("hold_s")
        let descr = keys.strings("descr"), role = keys.strings("role"), ends = keys.bools("ends_trial")
        let rows = (0..<keys.rowCount).map { row in
            [press[row].isFinite ? Markup.number(press[row], decimals: 3) : "NA", descr[row] ?? "NA", role[row] ?? "NA",
             hold[row].isFinite ? Markup.number(hold[row], decimals: 3) : "NA", ends[row] == true ? "yes" : ""]
        }
        return ReportTable(header: ["press (s)", "key", "role", "held (s)", "ends the trial"], rows: rows,
                           numericColumns: [0, 3], limit: 30, id: "\(id)-keys")
    }
}
