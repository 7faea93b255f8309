import Tables
import BrainTracker
import Foundation
import Testing

/// Session grouping (§5.3), identity (§5.1), the app's percentile and score (§7) and Seth's statistics (§8),
/// each against values worked out by hand from the spec.
@Suite("sessions, scores and statistics")
struct ScoringTests {
    static func analyse(_ text: String, _ options: SessionAnalysisOptions = SessionAnalysisOptions()) throws -> RTAnalysis {
        let file = try ResultsFile.parse(TextLines(Data(text.utf8)), sourceFile: "t.csv", skipBadLines: false)
        return ResultsFileAnalysis.analyze(file, options: options)
    }

    @Test("ID stamps: day of year, 12/13 digits, week-based year, offsets (§5.1)")
    func stamps() {
        func offset(_ id: String, _ anchor: Double, round: Bool = false) -> Int? {
            if case .offset(let minutes, _) = SessionIDStamp(id: id)?.decode(anchor: anchor, roundToQuarterHour: round) { return minutes }
            return nil
        }
        let t = { (y: Int, m: Int, d: Int, h: Int, mi: Int, s: Int) in CivilTime.seconds(year: y, month: m, day: d, hour: h, minute: mi, second: s) }
        #expect(offset("IDafter lunch|2014123461451", t(2014, 12, 12, 22, 51, 53)) == -480)
        #expect(offset("ID2New|2014092680948", t(2014, 9, 25, 16, 48, 34)) == -420)
        #expect(offset("IDscout meeting|2014123421922", t(2014, 12, 9, 3, 22, 58), round: true) == -480)
        // 12 digits: day 41 = Feb 10; +05:30 (India).
        #expect(offset("IDx|201402410900", t(2014, 2, 10, 3, 30, 10)) == 330)
        // Week-based year: 2014-12-29 local is in week 1 of 2015, written 2015 12 363.
        #expect(offset("IDx|2015123630800", t(2014, 12, 29, 16, 0, 0)) == -480)
        // Week-based year the other way: 2016-01-01 (Fri) belongs to week 53 of 2015, written 2015 01 01.
        #expect(offset("IDx|201501010100", t(2016, 1, 1, 9, 0, 0)) == -480)
        // The comment may contain '|': the stamp is after the last one.
        #expect(SessionIDStamp(id: "IDa|b|2014123461451")?.comment == "a|b")
        #expect(SessionIDStamp(id: "ID080113m") == nil)
        if case .unparsed = SessionIDStamp(id: "IDx|2014१२३")!.decode(anchor: 0, roundToQuarterHour: false) {} else { Issue.record("expected unparsed") }
        #expect(SessionIDStamp.isOdd(offsetMinutes: -487) && SessionIDStamp.isOdd(offsetMinutes: 900) && !SessionIDStamp.isOdd(offsetMinutes: 345))
    }

    @Test("grouping: empty-ID session rows split at gaps, detached and lone session rows, aborted runs (§5.3)")
    func grouping() throws {
        let a = try Self.analyse("""
        SessionID,date,string,latency (mSec),comment
        ID091503m,2014-09-15 03:28:00 +0000,1,400,morning coffee
        ID091503m,2014-09-15 03:28:03 +0000,2,410,morning coffee
        ID091503m,2014-09-15 13:07:00 +0000,1,420,morning coffee
        ID091503m,2014-09-15 13:07:03 +0000,3,430,morning coffee
        ,2014-09-15 13:07:05 +0000,Session,0.5,morning coffee
        IDa|2014123461451,2014-12-12 22:52:03 +0000,1,400,IDa|2014123461451
        IDb|2014123461455,2014-12-12 22:55:03 +0000,1,400,IDb|2014123461455
        IDa|2014123461451,2014-12-12 22:51:53 +0000,Session,0.5,a
        IDc|2014123461458,2014-12-12 22:58:03 +0000,Session,0.5,c
        """)
        #expect(a.sessions.map(\.nTrials) == [2, 2, 1, 1, 0])
        #expect(a.sessions.map(\.complete) == [false, true, true, false, true])
        #expect(a.sessions.map(\.sessionLine) == [nil, 6, 9, nil, 10])
        #expect(a.sessions[1].startUTC == CivilTime.seconds(year: 2014, month: 9, day: 15, hour: 13, minute: 7, second: 0))
        #expect(a.sessions[0].comment == "morning coffee")
        #expect(a.sessions[3].comment == "b" && a.sessions[3].offsetSource == "first_trial")
        #expect(a.trials.map(\.sessionSeq) == [1, 1, 2, 2, 3, 4])
        #expect(a.trials.map(\.trialIndex) == [1, 2, 1, 2, 1, 1])
        let codes = a.anomalies.map(\.code)
        for code in ["W_RUN_SPLIT", "W_SESSION_ROW_DETACHED", "W_SESSION_WITHOUT_TRIALS", "W_ABORTED_SESSION"] { #expect(codes.contains(code), "\(code)") }
        #expect(a.anomalies.filter { $0.code == "W_ABORTED_SESSION" }.map(\.line) == [2, 8])
        // A larger --gap-minutes keeps the run whole.
        var options = SessionAnalysisOptions()
        options.gapMinutes = 600
        let whole = try Self.analyse("date,x\nID1,2014-09-15 03:28:00 +0000,1,400,c\nID1,2014-09-15 13:07:00 +0000,1,400,c\n,2014-09-15 13:08:00 +0000,Session,0.5,c", options)
        #expect(whole.sessions.map(\.nTrials) == [2])
    }

    @Test("app percentile: strict inequality, current trial in the denominator, per target (§7.1)")
    func appPercentile() {
        // Target "1": 400, 300, 400, 500 → p = 0/1, 1/2, 0/3 (ties are not slower), 0/4; target "2": 350 → 0.
        let r = AppPercentile.compute(labels: ["1", "1", "1", "2", "1"], latencies: [400, 300, 400, 350, 500])
        #expect(r.map(\.allHistory) == [0, 0.5, 0, 0, 0])
        #expect(r.map(\.allHistoryN) == [1, 2, 3, 1, 4])
        let fast = AppPercentile.compute(labels: ["1", "1", "1"], latencies: [500, 400, 300])
        let twoThirds: Double = 2.0 / 3
        #expect(fast.map(\.allHistory) == [0, 0.5, twoThirds])
        // Window: only the last 3 (here) count; the first trial at 1000 drops out.
        let w = AppPercentile.compute(labels: ["1", "1", "1", "1"], latencies: [1000, 300, 310, 200], window: 3)
        let third: Double = 1.0 / 3
        #expect(w.map(\.window) == [0, 0.5, third, twoThirds])
        #expect(w.map(\.windowN) == [1, 2, 3, 3])
        #expect(w.map(\.allHistory) == [0, 0.5, third, 0.75])
        // 100-trial window, as in the app.
        let long = AppPercentile.compute(labels: Array(repeating: "3", count: 102), latencies: [9999] + Array(repeating: 300, count: 100) + [250])
        #expect(long.last?.window == 99.0 / 100 && long.last?.allHistory == 101.0 / 102)
    }

    @Test("SessionScore = Σp / N with N = 32 or auto; rule chosen by the cutover (§7.2)")
    func sessionScore() throws {
        // Session 1 (before the cutover): targets 1,1,1 at 500,400,300 → p = 0, 1/2, 2/3; Σ = 7/6.
        let text = """
        date,string,latency (mSec),comment
        IDa|2014092580900,2014-09-15 16:00:01 +0000,1,500,IDa|2014092580900
        IDa|2014092580900,2014-09-15 16:00:04 +0000,1,400,IDa|2014092580900
        IDa|2014092580900,2014-09-15 16:00:07 +0000,1,300,IDa|2014092580900
        IDa|2014092580900,2014-09-15 16:00:00 +0000,Session,0.036458,a
        """
        let a = try Self.analyse(text)
        let s = a.sessions[0]
        #expect(s.scoreRule == .allHistory && s.nExpected == 32)
        #expect(abs(s.scoreRecomputed! - 7.0 / 6 / 32) < 1e-15)
        #expect(s.scoreMatch == "exact")              // 0.0364583… printed with %f
        #expect(abs(s.pctAppMean! - 7.0 / 18) < 1e-15)
        #expect(a.anomalies.map(\.code) == ["W_N_DIFFERS"])
        var auto = SessionAnalysisOptions()
        auto.trialsPerSession = nil
        let b = try Self.analyse(text, auto)
        #expect(abs(b.sessions[0].scoreRecomputed! - 7.0 / 18) < 1e-15 && b.sessions[0].nExpected == 3)
        #expect(b.sessions[0].scoreMatch == "differs")
        #expect(b.anomalies.map(\.code) == ["I_SCORE_DIFFERS"])
        #expect(b.anomalies[0].severity == .info)
        #expect(AppPercentile.match(delta: 4e-7) == "exact" && AppPercentile.match(delta: -0.0013) == "close" && AppPercentile.match(delta: 0.01) == "differs")
        var window = SessionAnalysisOptions()
        window.scoreRule = .window100
        #expect(try Self.analyse(text, window).sessions[0].scoreRule == .window100)
    }

    @Test("legacy units: seconds and ms÷10 repaired by the session median before 2014-04-27 (§6)")
    func legacyUnits() throws {
        let a = try Self.analyse("""
        date,string,time,comment
        2014-04-08 10:00:00 +0000,3,0.41,empty comment here
        2014-04-08 10:00:03 +0000,2,0.39,empty comment here
        2014-04-08 10:00:03 +0000,Session,0.5,c
        2014-04-23 10:00:00 +0000,3,41.2,c
        2014-04-23 10:00:03 +0000,Session,0.5,c
        2014-05-01 10:00:00 +0000,3,41.2,c
        2014-05-01 10:00:03 +0000,Session,0.5,c
        """)
        #expect(a.trials.map(\.latencyMs) == [410, 390, 412, 41.2])
        #expect(a.trials.map(\.rowFormat) == [.legacy4, .legacy4, .legacy4, .legacy4])
        #expect(a.anomalies.filter { $0.code == "W_LEGACY_UNIT" }.count == 2)
        #expect(a.anomalies.filter { $0.code == "W_LATENCY_IMPLAUSIBLE" }.map(\.line) == [7])
        #expect(a.sessions[0].comment == "c" && a.sessions[0].startUTC == CivilTime.seconds(year: 2014, month: 4, day: 8, hour: 10))
    }

    @Test("Seth's mid-rank percentile: n = min(window, smallest label count), NA below 5 (§8)")
    func sethPercentile() {
        // Label A history 100,200,300,400,500,600; label B 10 values → n = min(400, 6) = 6.
        let set = SethComparisonSet(histories: ["A": [100, 200, 300, 400, 500, 600], "B": Array(stride(from: 1.0, through: 10, by: 1))], window: 400)
        #expect(set.n == 6)
        // v = 300 at A: 3 values above, 1 equal → a = 3.5; ptile = 100·(1/12 + 3.5·(5/6)/6).
        #expect(abs(set.percentile(label: "A", latency: 300, minimumN: 5)! - 100 * (1.0 / 12 + 3.5 * (5.0 / 6) / 6)) < 1e-12)
        // B compares with its last 6 values: 5…10; v = 0.5 → a = 6 → the maximum 100 − 50/n.
        #expect(abs(set.percentile(label: "B", latency: 0.5, minimumN: 5)! - (100 - 50.0 / 6)) < 1e-12)
        #expect(abs(set.percentile(label: "B", latency: 99, minimumN: 5)! - 50.0 / 6) < 1e-12)
        #expect(set.percentile(label: "C", latency: 300, minimumN: 5) == nil)
        #expect(set.percentile(label: "A", latency: 300, minimumN: 7) == nil)
        #expect(SethComparisonSet(histories: ["A": [1, 2, 3, 4]], window: 400).percentile(label: "A", latency: 2, minimumN: 5) == nil)
        // Window 400 at most.
        #expect(SethComparisonSet(histories: ["A": Array(repeating: 1, count: 900)], window: 400).n == 400)
        // Prospective: the first session has no history; the second is scored against the first only.
        let inputs = (0..<10).map { SethScoring.Input(session: $0 < 5 ? 1 : 2, label: "A", latency: Double(100 * ($0 + 1)), valid: true, warmup: false) }
        let p = SethScoring.score(inputs, mode: .prospective, window: 400, minimumN: 5)
        #expect(p[0..<5].allSatisfy { $0 == nil })
        #expect(abs(p[5]! - 100 * (1.0 / 10 + 0 * (4.0 / 5) / 5)) < 1e-12)   // 600 is slower than all of 100…500
        let final = SethScoring.score(inputs, mode: .final, window: 400, minimumN: 5)
        #expect(final.allSatisfy { $0 != nil })
    }

    @Test("descriptive statistics by hand: median of a middle pair, SD n−1, trimmed mean ⌊f·n⌋ per tail")
    func descriptive() {
        let x: [Double] = [1, 2, 3, 4, 100]
        #expect(DescriptiveStatistics.mean(x) == 22)
        #expect(DescriptiveStatistics.median([4, 1, 3, 2]) == 2.5)
        #expect(DescriptiveStatistics.standardDeviation([2, 4, 4, 4, 5, 5, 7, 9]) == (32.0 / 7).squareRoot())
        #expect(DescriptiveStatistics.trimmedMean(x, fraction: 0.2) == 3)     // drops 1 and 100
        #expect(DescriptiveStatistics.trimmedMean(x, fraction: 0.1) == 22)    // ⌊0.5⌋ = 0 dropped
        #expect(DescriptiveStatistics.standardDeviation([1]) == nil && DescriptiveStatistics.mean([]) == nil)
        let (logMean, _) = DescriptiveStatistics.logMean([1, M_E * M_E])
        #expect(abs(logMean! - 1) < 1e-15)
    }

    @Test("Seth validity and per-session Seth statistics on constructed sessions")
    func sethSessionStatistics() throws {
        var lines = ["date,string,latency (mSec),comment"]
        var second = 0
        func add(_ id: String, _ label: String, _ ms: Double) {
            lines.append("\(id),2014-12-12 10:\(String(format: "%02d", second / 60)):\(String(format: "%02d", second % 60)) +0000,\(label),\(ms),\(id)")
            second += 3
        }
        for ms in [300.0, 320, 340, 360, 380, 400] { add("IDa|2014123460200", "1", ms) }
        for ms in [100.0, 330, 350, 3000] { add("IDb|2014123460210", "1", ms) }
        let a = try Self.analyse(lines.joined(separator: "\r"))
        #expect(a.trials.map(\.validSeth) == [true, true, true, true, true, true, false, true, true, false])
        #expect(a.trials.prefix(6).allSatisfy { $0.ptileSeth == nil })
        // 330 against 300…400: 4 above → a = 4; n = 6.
        let ptile: Double = try #require(a.trials[7].ptileSeth)
        #expect(abs(ptile - 100 * (1.0 / 12 + 4 * (5.0 / 6) / 6)) < 1e-12)
        #expect(a.sessions[1].nValidSeth == 2 && a.sessions[1].latencyMeanMs == (100 + 330 + 350 + 3000) / 4)
        #expect(a.sessions[1].latencyCorrectedMeanMs == 340)   // one label: no difficulty effect
        #expect(abs(a.sessions[1].latencyLogMean! - (log(330) + log(350)) / 2) < 1e-12)
        #expect(a.sessions[1].pctWrong == nil)
    }

    @Test("prospective percentiles with rolling windows equal a naive rebuild of the set for every session")
    func prospectiveMatchesNaive() {
        var seed: UInt64 = 99
        func next() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
        let inputs = (0..<3000).map { i in
            SethScoring.Input(session: i / 25, label: String(Int(next() * 4)), latency: Double(Int(200 + next() * 300)),
                              valid: next() > 0.1, warmup: (i / 25) % 7 == 3)
        }
        for window in [10, 400] {
            let fast = SethScoring.score(inputs, mode: .prospective, window: window, minimumN: 5)
            var histories: [String: [Double]] = [:]
            var naive = [Double?](repeating: nil, count: inputs.count)
            for session in 0..<(3000 / 25) {
                let set = SethComparisonSet(histories: histories, window: window)
                for i in (session * 25)..<(session * 25 + 25) where inputs[i].valid {
                    naive[i] = set.percentile(label: inputs[i].label, latency: inputs[i].latency, minimumN: 5)
                }
                for i in (session * 25)..<(session * 25 + 25) where inputs[i].valid && !inputs[i].warmup {
                    histories[inputs[i].label, default: []].append(inputs[i].latency)
                }
            }
            #expect(fast == naive, "window \(window)")
            #expect(fast.compactMap { $0 }.count > 2000)
        }
    }
}
