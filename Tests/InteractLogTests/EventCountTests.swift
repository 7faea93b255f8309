import Foundation
import InteractLog
import Tables
import Testing
import TestSupport

/// The counts `TrialAnalysis` makes in one pass over the events (`views_before` of each stroke, `strokes_after`
/// of each view, the per-image summary) against the definitions of spec §5.4–5.6 computed the slow way, by
/// looking at every event again for each row, on seeded random logs: stimuli shown, hidden, repeated
/// (`duplicate_on`), hidden without being shown, strokes open across stimulus events, releases without a press.
@Suite("ilog-parse event counts against a brute-force reference")
struct EventCountTests {

    /// A Java 2.2 log of `count` random events.
    static func randomLog(seed: UInt64, count: Int) -> String {
        var random = SeededGenerator(seed: seed)
        let images = ["S1.png", "S2.png", "S3.png"]
        var lines = ["Name                 :P01", "Experiment Start     :04/07/2023 - 10:15:02",
                     "Stimulus Files       :S1.png,S2.png", "Familiarisation File :P1.png",
                     "Drawing Pad Size     :1260,600", "Trial Number         :1",
                     "Trial Start          :04/07/2023 - 10:15:09", "Trial End            :04/07/2023 - 10:16:58", ""]
        var time = 58_227_413_905_518
        for id in 1...count {
            time += Int.random(in: 1_000_000...900_000_000, using: &random)
            let phase = Bool.random(using: &random) ? "Stimulus" : "Familiarisation"
            let image = images.randomElement(using: &random)!
            let event = switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: "\(phase)On_\(image)"
            case 2: "\(phase)Off_\(image)"
            case 3, 4, 5: "ButtonDown"
            case 6, 7, 8: "ButtonReleased"
            default: "KeyPressed_38(UP:1)"
            }
            lines.append("\(id);\(time);\(Int.random(in: 0..<1260, using: &random));\(Int.random(in: 0..<600, using: &random));\(event)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `views_before` by definition: the `stim_on` events of the stroke's last stimulus before its anchor.
    static func viewsBefore(_ a: TrialAnalysis, _ stroke: Stroke) -> Int? {
        guard let phase = stroke.context.lastStimulusPhase else { return nil }
        return (0..<stroke.anchorIndex).filter { index in
            if case .stimulusOn(let p, let i) = a.log.events[index].kind { p == phase && i == stroke.context.lastStimulus } else { false }
        }.count
    }

    /// `strokes_after` by definition: strokes anchored after the view's end and before the next `stim_on`.
    static func strokesAfter(_ a: TrialAnalysis, _ view: StimulusView) -> Int {
        guard view.status != .openAtEnd, let end = view.offIndex else { return 0 }
        let next = (end + 1..<a.log.events.count).first { index in
            if case .stimulusOn = a.log.events[index].kind { true } else { false }
        } ?? Int.max
        return a.strokes.filter { $0.anchorIndex > end && $0.anchorIndex < next }.count
    }

    @Test("views_before, strokes_after and the per-image counts equal their definitions", arguments: 1...12)
    func countsMatchDefinitions(seed: Int) throws {
        let a = try SampleLogs.parse(Self.randomLog(seed: UInt64(seed), count: 40 * seed))
        #expect(a.strokes.count > 0 && a.views.count > 0)
        for stroke in a.strokes {
            #expect(stroke.context.viewsBefore == Self.viewsBefore(a, stroke), "stroke \(stroke.stroke), seed \(seed)")
        }
        for view in a.views {
            #expect(view.strokesAfter == Self.strokesAfter(a, view), "view \(view.view), seed \(seed)")
        }
        let summary = InteractLogTables.stimulusSummary(a)
        guard case .string(let phases) = summary[column: "phase"]?.values,
              case .string(let images) = summary[column: "image"]?.values,
              case .int32(let views) = summary[column: "n_views"]?.values,
              case .int32(let strokes) = summary[column: "n_strokes"]?.values else {
            Issue.record("stimulus_summary lacks its columns")
            return
        }
        for row in phases.indices {
            let shown = a.views.filter { $0.phase == phases[row] && $0.image == images[row] && $0.status != .unmatchedOff }
            #expect(Int(views[row]) == shown.count, "n_views of \(phases[row] ?? "") \(images[row] ?? ""), seed \(seed)")
            let drawn = a.strokes.filter { $0.context.lastStimulusPhase == phases[row] && $0.context.lastStimulus == images[row] }
            #expect(Int(strokes[row]) == drawn.count, "n_strokes of \(phases[row] ?? "") \(images[row] ?? ""), seed \(seed)")
        }
    }

    @Test("A stroke's stimulus context is the one at its anchor, even when it is shared with earlier strokes")
    func contextsAreThoseAtTheAnchor() throws {
        let a = try SampleLogs.parse(Self.randomLog(seed: 99, count: 600))
        for stroke in a.strokes {
            // The latest stim_on before the anchor gives last_stimulus; the latest stim event gives the phase.
            let before = (0..<stroke.anchorIndex).reversed()
            let lastOn = before.first { if case .stimulusOn = a.log.events[$0].kind { true } else { false } }
            let lastStimulusEvent = before.first { a.log.events[$0].kind.stimulus != nil }
            #expect(stroke.context.phase == lastStimulusEvent.flatMap { a.log.events[$0].kind.stimulus?.phase })
            // A repeated stim_on (duplicate_on) repeats the image shown, so the latest one names it either way.
            #expect(stroke.context.lastStimulus == lastOn.flatMap { a.log.events[$0].kind.stimulus?.image })
        }
    }
}
