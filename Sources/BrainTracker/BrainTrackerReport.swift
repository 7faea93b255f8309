import Reports
import Tables

/// `rt-stats --report`: per input, its sessions by date: the app's session score, the mean reaction time and Seth
/// Roberts' percentile, with aborted sessions marked and comments on every point (docs/reports.md).
extension BrainTrackerFormat: ReportingFormat {
    public func report(_ parsed: [RTAnalysis], output: FormatOutput) -> ReportPage {
        let named = output.tables(named: ["sessions", "trials"])
        let sessions = named[0], trials = named[1]
        let sections = parsed.enumerated().map { index, analysis in
            BrainTrackerReportSection(number: index + 1, sourceFile: analysis.sourceFile,
                                      sessions: sessions?.rows(ofSource: analysis.sourceFile),
                                      trials: trials?.rows(ofSource: analysis.sourceFile)).section()
        }
        return ReportPage(title: "BrainTracker reaction-time files read by rt-stats", sections: sections)
    }
}

struct BrainTrackerReportSection {
    let number: Int
    let sourceFile: String
    let sessions: Table?
    let trials: Table?

    var id: String { "rt-\(number)" }

    func section() -> ReportSection {
        guard let sessions, sessions.rowCount > 0 else {
            return ReportSection(id: id, heading: sourceFile, blocks: [.paragraph("No sessions.")])
        }
        let s = Sessions(sessions)
        var blocks: [ReportBlock] = [.facts(facts(s))]
        if s.score.contains(where: { $0.isFinite }) || s.pctAppMean.contains(where: { $0.isFinite }) {
            blocks.append(.group("Session score", [.plot(scoreChart(s)), .note(
                "Complete sessions: the app's SessionScore recomputed (score_recomputed; score_stored where it is missing). "
                    + "Aborted or incomplete sessions (hollow, red): their mean percentile pct_app_mean. Hover a point for its date and comment.")]))
        } else {
            blocks.append(.note("No app session score in this file (an R export): see Seth Roberts' percentile below."))
        }
        blocks.append(.group("Mean reaction time", [.plot(latencyChart(s))]))
        if s.seth.contains(where: { $0.isFinite }) {
            blocks.append(.group("Seth Roberts' percentile", [.plot(sethChart(s)), .note(
                "seth_ptile_mean ± seth_ptile_se per session: the mid-rank percentile of each trial's latency among earlier trials at the same target (higher = faster).")]))
        }
        blocks.append(.group("Sessions", [.table(sessionTable(s))]))
        return ReportSection(id: id, heading: sourceFile, blocks: blocks)
    }

    /// The session columns the plots use, with a date per session.
    struct Sessions {
        var date: [Double], score: [Double], pctAppMean: [Double], latency: [Double], seth: [Double], sethSE: [Double]
        var complete: [Bool], warmup: [Bool], comment: [String], trials: [Double], local: Bool, startText: [String]

        init(_ table: Table) {
            let utc = table.doubles("start_utc")
            let localText = table.strings("start_local")
            local = !utc.contains(where: { $0.isFinite })
            date = zip(utc, localText).map { $0.isFinite ? $0 : (PlotData.wallClockSeconds($1) ?? .nan) }
            startText = zip(utc, localText).map { utc, local in
                local ?? (utc.isFinite ? CivilTime.iso8601(wallSeconds: utc, offsetMinutes: 0) : "NA")
            }
            let recomputed = table.doubles("score_recomputed"), stored = table.doubles("score_stored")
            score = zip(recomputed, stored).map { $0.isFinite ? $0 : $1 }
            pctAppMean = table.doubles("pct_app_mean")
            latency = table.doubles("latency_mean_ms")
            seth = table.doubles("seth_ptile_mean")
            sethSE = table.doubles("seth_ptile_se")
            complete = table.bools("complete").map { $0 ?? false }
            warmup = table.bools("is_warmup").map { $0 ?? false }
            comment = table.strings("comment").map { $0 ?? "" }
            trials = table.doubles("n_trials")
        }

        var indices: Range<Int> { date.indices }
        func describe(_ i: Int) -> String {
            let state = warmup[i] ? " (warm-up)" : complete[i] ? "" : " (aborted or incomplete)"
            return "\(startText[i])\(state)" + (comment[i].isEmpty ? "" : ": \(comment[i])")
        }
    }

    func facts(_ s: Sessions) -> [(String, String)] {
        let complete = s.indices.filter { s.complete[$0] && !s.warmup[$0] }.count
        let warmups = s.warmup.filter { $0 }.count
        let aborted = s.indices.filter { !s.complete[$0] && !s.warmup[$0] }.count
        let dates = s.date.filter { $0.isFinite }
        let range = dates.isEmpty ? "NA"
            : "\(CivilTime.iso8601(wallSeconds: dates.min()!, offsetMinutes: nil).prefix(10)) to \(CivilTime.iso8601(wallSeconds: dates.max()!, offsetMinutes: nil).prefix(10))"
        let format = trials?.strings("row_format").first.flatMap { $0 } ?? "NA"
        var facts: [(String, String)] = [
            ("sessions", "\(s.date.count): \(complete) complete, \(aborted) aborted or incomplete, \(warmups) warm-up"),
            ("trials", Markup.number(s.trials.filter { $0.isFinite }.reduce(0, +), decimals: 0)),
            ("dates", range + (s.local ? " (local time)" : " (UTC)")),
            ("row format", format),
        ]
        if let sessions {
            let matches = sessions.strings("score_match").compactMap { $0 }
            if !matches.isEmpty {
                let counts = ["exact", "close", "differs"].map { kind in "\(matches.filter { $0 == kind }.count) \(kind)" }
                facts.append(("stored vs recomputed score", counts.joined(separator: ", ")))
            }
        }
        return facts
    }

    /// One date axis for the three plots: every session's date, widened by 3 % each side.
    func dateAxis(_ s: Sessions) -> Axis {
        var axis = Axis.date("session start", unit: s.local ? "local date" : "UTC date")
        let dates = s.date.filter { $0.isFinite }
        if let lo = dates.min(), let hi = dates.max() {
            let pad = max(hi - lo, 86_400) * 0.03
            axis.domain = (lo - pad)...(hi + pad)
        }
        return axis
    }

    /// Complete sessions as filled points joined by a line; aborted ones hollow red; warm-ups grey crosses.
    func layers(_ s: Sessions, values: [Double], abortedValues: [Double]? = nil) -> [ChartLayer] {
        let complete = s.indices.filter { s.complete[$0] && !s.warmup[$0] && values[$0].isFinite && s.date[$0].isFinite }
        let aborted = s.indices.filter { !s.complete[$0] && !s.warmup[$0] && s.date[$0].isFinite
            && (abortedValues ?? values)[$0].isFinite }
        let warmups = s.indices.filter { s.warmup[$0] && values[$0].isFinite && s.date[$0].isFinite }
        var layers: [ChartLayer] = [
            .line(LineSeries(nil, xs: complete.map { s.date[$0] }, ys: complete.map { values[$0] }, colour: "#9DB7D5",
                             width: 1)),
            .points(PointSeries("complete session", xs: complete.map { s.date[$0] }, ys: complete.map { values[$0] },
                                colour: Palette.colour(0), titles: complete.map { s.describe($0) })),
        ]
        if !aborted.isEmpty {
            layers.append(.points(PointSeries("aborted or incomplete", xs: aborted.map { s.date[$0] },
                                              ys: aborted.map { (abortedValues ?? values)[$0] }, colour: Palette.bad,
                                              radius: 4, hollow: true, titles: aborted.map { s.describe($0) })))
        }
        if !warmups.isEmpty {
            layers.append(.points(PointSeries("warm-up", xs: warmups.map { s.date[$0] }, ys: warmups.map { values[$0] },
                                              colour: Palette.neutral, shape: .cross, titles: warmups.map { s.describe($0) })))
        }
        return layers
    }

    func scoreChart(_ s: Sessions) -> Chart {
        Chart(id: "\(id)-score", cssClass: "plot-score", title: "Session score by date",
              description: "The app's SessionScore (mean percentile of the session's trials) per session.",
              x: dateAxis(s), y: Axis("session score", unit: "1", domain: 0...1),
              layers: layers(s, values: s.score, abortedValues: s.pctAppMean))
    }

    func latencyChart(_ s: Sessions) -> Chart {
        Chart(id: "\(id)-latency", cssClass: "plot-latency", title: "Mean reaction time by date",
              description: "latency_mean_ms per session.",
              x: dateAxis(s), y: Axis("mean reaction time", unit: "ms"), layers: layers(s, values: s.latency))
    }

    func sethChart(_ s: Sessions) -> Chart {
        let shown = s.indices.filter { s.seth[$0].isFinite && s.date[$0].isFinite && s.sethSE[$0].isFinite }
        let bars = ChartLayer.rects(shown.map { i in
            ChartRect(x0: s.date[i], x1: s.date[i], y0: s.seth[i] - s.sethSE[i], y1: s.seth[i] + s.sethSE[i],
                      fill: "#7A9CC6")
        }, label: "± standard error")
        return Chart(id: "\(id)-seth", cssClass: "plot-seth", title: "Seth Roberts' percentile by date",
                     description: "Mean mid-rank percentile per session with its standard error.",
                     x: dateAxis(s), y: Axis("percentile", unit: "%", domain: 0...100),
                     layers: [bars] + layers(s, values: s.seth))
    }

    func sessionTable(_ s: Sessions) -> ReportTable {
        let rows = s.indices.map { i in
            [s.startText[i], s.comment[i], Markup.number(s.trials[i], decimals: 0),
             s.warmup[i] ? "warm-up" : s.complete[i] ? "yes" : "no",
             s.score[i].isFinite ? Markup.number(s.score[i], decimals: 4) : "NA",
             s.latency[i].isFinite ? Markup.number(s.latency[i], decimals: 1) : "NA",
             s.seth[i].isFinite ? Markup.number(s.seth[i], decimals: 1) : "NA"]
        }
        return ReportTable(header: ["start", "comment", "trials", "complete", "score", "mean RT (ms)", "Seth percentile (%)"],
                           rows: rows, numericColumns: [2, 4, 5, 6], limit: 40,
                           rowClasses: s.indices.map { !s.complete[$0] && !s.warmup[$0] ? "warning" : nil },
                           id: "\(id)-sessions")
    }
}
