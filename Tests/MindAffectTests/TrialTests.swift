import Foundation
import Testing
@testable import MindAffect

/// A constructed session: hub time `t` for each line; `frames` 17 ms apart from `start`.
struct Session {
    var lines: [String] = []
    mutating func add(_ name: String, _ payload: String, at time: Int) { lines.append(hubLine(name, payload, rts: time)) }
    mutating func frames(from start: Int, count: Int, states: (Int) -> [(Int, Int)]) {
        for frame in 0..<count {
            let pairs = states(frame)
            add("STIMULUSEVENT", " v[\(pairs.count)]:" + pairs.map { "{\($0.0),\($0.1)}" }.joined(), at: start + 17 * frame)
        }
    }
    func analysis(itiMs: Int = 1000) throws -> SaveFileAnalysis {
        let file = try parseLines(lines + [hubLine("DATAPACKET", " v[1x1]:[1.0,]", rts: 100_000)])
        return SaveFileAnalysis(file, options: SaveFileAnalysisOptions(itiMs: itiMs), codes: nil)
    }
}

@Suite("Trials, cues and selections (spec §2.5–2.6)")
struct TrialTests {
    /// objID 0 copies `cue`; objects 1…3 blink with different patterns.
    static func states(cue: Int) -> (Int) -> [(Int, Int)] {
        { frame in
            let s = [(frame / 1) % 2, (frame / 2) % 2, (frame / 3) % 2]
            return [(1, s[0]), (2, s[1]), (3, s[2]), (0, s[cue - 1])]
        }
    }

    @Test("segmentation, mode, cue, selection, correctness and timing (by hand)")
    func basic() throws {
        var session = Session()
        session.add("MODECHANGE", " mode:Calibration.supervised", at: 0)
        session.add("NEWTARGET", "", at: 100)
        session.frames(from: 2000, count: 12, states: Self.states(cue: 2))       // 2000…2187
        session.add("MODECHANGE", " mode:Prediction.static", at: 3000)
        session.add("NEWTARGET", "", at: 3100)
        session.frames(from: 5000, count: 10, states: Self.states(cue: 3))       // 5000…5153
        session.add("PREDICTEDTARGETPROB", " Yest:1 Perr:0.4", at: 5100)
        session.add("PREDICTEDTARGETPROB", " Yest:3 Perr:0.12", at: 5154)
        session.add("SELECTION", " id:3", at: 5156)
        let analysis = try session.analysis()
        let trials = analysis.trials
        #expect(trials.count == 2)
        #expect(trials[0].phase == "calibration" && trials[0].mode == "Calibration.supervised")
        #expect(trials[0].frameCount == 12 && trials[0].durationMs == 187 && trials[0].startMs == 2000)
        #expect(trials[0].cuedTarget == 2 && trials[0].cueAgreement == 1)
        #expect(trials[0].selected == nil && trials[0].correct == nil)
        #expect(trials[1].phase == "prediction" && trials[1].cuedTarget == 3)
        #expect(trials[1].selected == 3 && trials[1].correct == true)
        #expect(trials[1].timeToSelectionMs == 156 && trials[1].selectionAfterLastFrameMs == 3)
        #expect(trials[1].onlineYest == 3 && trials[1].onlinePerr == 0.12)
        #expect(trials[1].objectIDs == [0, 1, 2, 3])
        #expect(analysis.anomalies.filter { $0.code.hasPrefix("W-") && $0.code != "W_FS" }.isEmpty)
    }

    @Test("a gap of exactly iti_ms does not split; one ms more does")
    func threshold() throws {
        var session = Session()
        session.add("NEWTARGET", "", at: 0)
        session.add("STIMULUSEVENT", " v[1]:{1,1}", at: 1000)
        session.add("STIMULUSEVENT", " v[1]:{1,0}", at: 2000)
        session.add("NEWTARGET", "", at: 2500)
        session.add("STIMULUSEVENT", " v[1]:{1,1}", at: 3001)
        let trials = try session.analysis().trials
        #expect(trials.map(\.frameCount) == [2, 1])
        #expect(trials.allSatisfy { $0.cuedTarget == nil && $0.cueAgreement == nil })   // no objID 0: uncued
    }

    @Test("warnings: W_NEWTARGET, W_TRIAL_MODE, W_MULTI_SEL, W_CUE (tie and low agreement), W_ITI")
    func warnings() throws {
        var session = Session()
        // Trial 0: no NEWTARGET, a mode change inside, two selections.
        session.frames(from: 1000, count: 4, states: Self.states(cue: 1))
        session.add("MODECHANGE", " mode:Prediction.static", at: 1020)
        session.frames(from: 1040, count: 4, states: Self.states(cue: 1))
        session.add("SELECTION", " id:1", at: 1200)
        session.add("SELECTION", " id:2", at: 1300)
        // Trial 1: objects 1 and 2 identical to objID 0 (a tie).
        session.add("NEWTARGET", "", at: 2000)
        session.frames(from: 2500, count: 4) { frame in [(1, frame % 2), (2, frame % 2), (0, frame % 2)] }
        // Trial 2: objID 0 agrees with nothing (agreement 0.5).
        session.add("NEWTARGET", "", at: 4000)
        session.frames(from: 4500, count: 4) { frame in [(1, frame % 2), (0, frame / 2 % 2)] }
        let analysis = try session.analysis(itiMs: 300)
        let codes = analysis.anomalies.map(\.code).filter { $0 != "W_FS" }
        #expect(codes.filter { $0 == "W_NEWTARGET" }.count == 1)
        #expect(codes.contains("W_TRIAL_MODE") && codes.contains("W_MULTI_SEL"))
        #expect(codes.filter { $0 == "W_CUE" }.count == 2)
        #expect(!codes.contains("W_ITI"))
        let trials = analysis.trials
        #expect(trials.count == 3)
        #expect(trials[0].selected == 1 && trials[0].cuedTarget == 1)
        #expect(trials[1].cuedTarget == nil && trials[1].cueAgreement == 1)
        #expect(trials[2].cuedTarget == nil && trials[2].cueAgreement == 0.5)
        // Gaps between trials ≈ 1,400 ms: iti_ms 1000 is above half of that.
        #expect(try session.analysis(itiMs: 1000).anomalies.contains { $0.code == "W_ITI" })
    }

    @Test("latched stimulus rows and the sample matrix (by hand)")
    func latching() throws {
        var session = Session()
        session.add("STIMULUSEVENT", " v[2]:{1,1}{2,0}", at: 1000)
        session.add("STIMULUSEVENT", " v[1]:{2,1}", at: 1017)
        session.add("STIMULUSEVENT", " v[1]:{3,1}", at: 1034)
        let analysis = try session.analysis()
        let stimuli = analysis.stimuli
        #expect(stimuli.objectIDs == [1, 2, 3])
        #expect(stimuli.states == [1, 0, 0, 1, 1, 0, 1, 1, 1])
        let ys = stimuli.sampleStates(sampleMs: [990, 1000, 1010, 1020, 1030, 1040])
        // Events land on samples 1, 2 and 4 (the last sample at or before each); sample 0 precedes every event.
        #expect(ys == [0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1])
    }
}

@Suite("Trial epochs for a later decoder")
struct TrialEpochTests {
    @Test("window, onset and masked stimuli (by hand)")
    func epochs() throws {
        // 100 Hz samples at 990, 1000, …, 1190 (a first packet of 1, then one of 20; sample k holds k), one trial of frames at
        // 1050 and 1067, a 20 ms window either side.
        let values = (1...20).map { "[\($0).0,]" }.joined()
        let lines = [
            hubLine("DATAPACKET", " v[1x1]:[0.0,]", rts: 990),
            hubLine("STIMULUSEVENT", " v[1]:{1,1}", rts: 1050),
            hubLine("STIMULUSEVENT", " v[1]:{1,0}", rts: 1067),
            hubLine("DATAPACKET", " v[1x20]:" + values, rts: 1190),
        ]
        let analysis = SaveFileAnalysis(try parseLines(lines), codes: nil)
        #expect(analysis.timeline.sampleMs == (0...20).map { 990 + 10 * Double($0) })
        let epoch = try #require(analysis.trialEpochs(beforeMs: 20, afterMs: 20).first)
        #expect(epoch.samples == 4..<10)           // 1030 … 1080 ms
        #expect(epoch.onsetSample == 6)            // the last sample at or before 1050
        #expect(epoch.eeg == [4, 5, 6, 7, 8, 9])
        // Frame 1 (state 1) lands on sample 6, frame 2 (state 0) on sample 7; zero outside.
        #expect(epoch.stimuli == [0, 0, 1, 0, 0, 0])
    }
}
