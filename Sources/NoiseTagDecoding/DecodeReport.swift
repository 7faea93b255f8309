import Reports
import Tables

/// `nt-analyze decode --report`: per save file the decoding curve (error rate and estimated error rate against the
/// integration length) and the impulse responses in µV (docs/reports.md).
extension DecodeFormat: ReportingFormat {
    public func report(_ parsed: [DecodedFile], output: FormatOutput) -> ReportPage {
        let sections = parsed.enumerated().map { index, decoded in DecodeReportSection(number: index + 1, decoded: decoded).section() }
        return ReportPage(title: "MindAffect save files decoded by nt-analyze decode", sections: sections)
    }
}

struct DecodeReportSection {
    let number: Int
    let decoded: DecodedFile

    var id: String { "decoded-\(number)" }

    func section() -> ReportSection {
        let r = decoded.recording, result = decoded.result, curve = result.curve
        let facts: [(String, String)] = [
            ("trials", "\(r.trialCount) of \(r.trialCount + r.droppedTrials.count) (\(r.droppedTrials.count) too short)"),
            ("window", "\(r.windowSamples) samples at \(Markup.number(r.fs, decimals: 1)) Hz, from \(Markup.number(Double(r.windowOffset) / r.fs, decimals: 2)) s"),
            ("model", "\(result.model.eventTypes.map(\.rawValue).joined(separator: ", ")), tau \(result.model.tau) samples, rank \(result.model.spatialFilters.count)"),
            ("audc_score", Markup.value(result.audcScore)),
            ("error rate at full length", curve.errorRate.last.map { Markup.value($0) } ?? "NA"),
        ]
        var blocks: [ReportBlock] = [.facts(facts)]
        blocks.append(.group("Decoding curve", [.plot(curveChart()), .note(
            "Cross-validated: each trial decoded by the model fitted on the other folds. Time from the trial's first frame; the window starts before it.")]))
        blocks.append(.group("Impulse responses", [.plot(responseChart())]))
        return ReportSection(id: id, heading: r.sourceFile, blocks: blocks)
    }

    func curveChart() -> Chart {
        let r = decoded.recording, curve = decoded.result.curve
        let xs = curve.lengths.map { Double($0 + r.windowOffset) / r.fs }
        return Chart(id: "\(id)-curve", cssClass: "plot-decoding-curve", title: "Error rate against integration length",
                     description: "Share of trials decoded wrong, and the mean estimated error probability, against the time integrated.",
                     x: Axis("time after the first frame", unit: "s"), y: Axis("error rate", unit: "1", domain: 0...1),
                     layers: [.line(LineSeries("error rate", xs: xs, ys: curve.errorRate, colour: Palette.colour(0))),
                              .line(LineSeries("estimated error rate", xs: xs, ys: curve.estimatedErrorRate, colour: Palette.colour(1)))])
    }

    func responseChart() -> Chart {
        let r = decoded.recording, model = decoded.result.model
        let events = EventCoding(states: r.y, trials: r.trialCount, samples: r.windowSamples, outputs: r.outputCount, types: model.eventTypes)
        let scaling = ResponseScaling(model: model, component: 0, recording: r, events: events)
        let factor = scaling.patternMicrovolts[scaling.peakChannel] * scaling.amplitude
        let lags = (0..<model.tau).map { Double($0) * 1000 / r.fs }
        let layers: [ChartLayer] = model.eventTypes.indices.map { k in
            .line(LineSeries(model.eventTypes[k].rawValue, xs: lags, ys: model.impulseResponses[0][k].map { $0 * factor }, colour: Palette.colour(k)))
        }
        return Chart(id: "\(id)-responses", cssClass: "plot-impulse-response", title: "Impulse responses at channel \(scaling.peakChannel + 1)",
                     description: "The model's response to each event type at the channel where its pattern is largest.",
                     x: Axis("time after the event", unit: "ms"), y: Axis("response", unit: "µV"), layers: layers)
    }
}
