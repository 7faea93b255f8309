import Tables
import BrainTracker
import Foundation
import Testing
import TestSupport

/// The two real files of the BRT repository (spec §10.3, §7.3).
@Suite("real BrainTracker files",
       .enabled(if: TestSupport.hasRealData("braintracker"), "../shared/realdata/braintracker is absent"))
struct RealFileTests {
    static func analyse(_ name: String,
                        options: SessionAnalysisOptions = SessionAnalysisOptions()) throws -> (TextLines, ResultsFile, RTAnalysis) {
        let url = try #require(TestSupport.realData("braintracker/\(name)"))
        let data = try Data(contentsOf: url)
        let text = TextLines(data)
        let file = try ResultsFile.parse(text, sourceFile: name, skipBadLines: false)
        return (text, file, ResultsFileAnalysis.analyze(file, options: options))
    }

    static func utc(_ text: String) -> Double {
        let p = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        return CivilTime.seconds(year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4], second: p[5])
    }

    @Test("BrainTrackerResultsFile.csv: 1,921 CR lines, 1,861 trial rows, 59 session rows, 65 sessions")
    func counts() throws {
        let (text, file, analysis) = try Self.analyse("BrainTrackerResultsFile.csv")
        #expect(text.lines.count == 1921)
        #expect(text.terminatorCounts == ["CR": 1920])
        #expect(file.hasHeader)
        #expect(file.rows.filter(\.isSessionRow).count == 59)
        #expect(analysis.trials.count == 1861)
        #expect(analysis.trials.last?.line == 1920)       // the unterminated last line is kept (it is a session row)
        #expect(file.rows.last?.line == 1921)
        #expect(analysis.sessions.count == 65)
        let complete = analysis.sessions.filter(\.complete)
        #expect(complete.count == 59)
        #expect(complete.filter { $0.nTrials == 32 }.count == 57)
        #expect(complete.filter { $0.nTrials == 3 }.map(\.sessionID) == ["ID2New|2014092680948", "ID26new|2014092691027"])
        #expect(analysis.sessions.filter { !$0.complete }.map(\.nTrials) == [4, 3, 13, 1, 6, 4])
        #expect(Set(analysis.trials.map(\.target)) == ["1", "2", "3", "4", "5", "6"])
        let codes = analysis.anomalies.reduce(into: [String: Int]()) { $0[$1.code, default: 0] += 1 }
        #expect(codes["W_ABORTED_SESSION"] == 6)
        #expect(codes["W_RUN_SPLIT"] == 1)
        #expect(codes["W_N_DIFFERS"] == 2)
        let split = analysis.anomalies.first { $0.code == "W_RUN_SPLIT" }
        #expect(split?.line == 1487)
        #expect(split?.message == "4 trial rows before a 9.6 h gap form an aborted session")
        // Row formats: hand IDs until 2014-09-23, current format from 2014-09-25.
        #expect(Set(analysis.trials.filter { $0.line < 1755 }.map(\.rowFormat)) == [.legacyHandID])
        #expect(Set(analysis.trials.filter { $0.line > 1755 }.map(\.rowFormat)) == [.current])
    }

    @Test("session identity: comments, starts and UTC offsets decoded from the ID stamps (§5.1)")
    func identity() throws {
        let (_, _, analysis) = try Self.analyse("BrainTrackerResultsFile.csv")
        func session(_ id: String) -> SessionRecord? { analysis.sessions.first { $0.sessionID == id } }
        let lunch = try #require(session("IDafter lunch|2014123461451"))
        #expect(lunch.utcOffsetMin == -480)
        #expect(lunch.offsetSource == "session_row")
        #expect(lunch.comment == "after lunch")
        #expect(lunch.startUTC == Self.utc("2014-12-12T22:51:53"))
        #expect(lunch.startLocal == "2014-12-12T14:51:53-08:00")
        #expect(session("ID2New|2014092680948")?.utcOffsetMin == -420)
        #expect(session("ID26new|2014092691027")?.utcOffsetMin == -420)
        let scout = try #require(session("IDscout meeting|2014123421922"))
        #expect(scout.utcOffsetMin == -480)
        #expect(scout.offsetSource == "first_trial")
        #expect(scout.comment == "scout meeting")
        #expect(scout.startLocal == "2014-12-08T19:22:58-08:00")   // local date differs from the UTC date
        let first = try #require(analysis.trials.first { $0.sessionID == "IDafter lunch|2014123461451" })
        #expect(first.timeLocal == "2014-12-12T14:52:03-08:00")
        // Hand-made IDs carry no zone; their comment is the session row's field E.
        let august = analysis.sessions[0]
        #expect(august.sessionID == "ID080113m" && august.utcOffsetMin == nil && august.offsetSource == nil)
        #expect(august.comment == "morning coffee")
        #expect(august.startUTC == Self.utc("2014-08-01T13:52:55"))   // first trial: the session row holds the end
        #expect(analysis.sessions.compactMap(\.utcOffsetMin).allSatisfy { $0 == -420 || $0 == -480 })
        #expect(!analysis.anomalies.contains { $0.code == "W_ID_STAMP_UNPARSED" || $0.code == "W_OFFSET_ODD" })
    }

    @Test("stored SessionScores reproduced where the history is complete (§7.3)")
    func scores() throws {
        let (_, _, analysis) = try Self.analyse("BrainTrackerResultsFile.csv")
        let complete = analysis.sessions.filter(\.complete)
        let allHistoryExact = complete.filter {
            $0.startUTC! >= Self.utc("2014-09-11T20:50:00") && $0.startUTC! < Self.utc("2014-09-18T14:00:00")
        }
        #expect(allHistoryExact.count == 8)
        for session in allHistoryExact {
            #expect(session.scoreRule == .allHistory)
            #expect(session.scoreMatch == "exact", "\(session.sessionID ?? "") \(session.scoreDelta ?? .nan)")
        }
        let window = complete.filter { $0.startUTC! >= Self.utc("2014-09-18T17:00:00") }
        #expect(window.count == 10)
        for session in window {
            #expect(session.scoreRule == .window100)
            #expect(abs(session.scoreDelta!) <= 0.0013, "\(session.sessionID ?? "")")
        }
        let exactDays = window.filter { $0.scoreMatch == "exact" }.map { CivilTime.iso8601(wallSeconds: $0.startUTC!, offsetMinutes: nil).prefix(10) }
        #expect(exactDays == ["2014-09-22", "2014-09-25", "2014-09-26", "2014-11-22", "2014-12-11", "2014-12-12"])
        // August to 2014-09-11 12:09: the device database held trials missing from the CSV.
        let early = complete.filter { $0.startUTC! < Self.utc("2014-09-11T13:00:00") }
        #expect(early.count == 41)
        #expect(early.allSatisfy { $0.scoreMatch != "exact" })
        // Aborted sessions are never scored, but their trials count in the histories.
        #expect(analysis.sessions.filter { !$0.complete }.allSatisfy { $0.scoreRecomputed == nil && $0.pctAppMean != nil })
    }

    @Test("BrainTrackerResultsFile (thru9-4).csv: 1,123 lines, 34 session rows")
    func earlierCopy() throws {
        let (text, file, analysis) = try Self.analyse("BrainTrackerResultsFile (thru9-4).csv")
        #expect(text.lines.count == 1123)
        #expect(file.rows.filter(\.isSessionRow).count == 34)
        #expect(analysis.sessions.filter(\.complete).count == 34)
        #expect(analysis.trials.count == 1123 - 1 - 34)
        #expect(file.rows.last?.line == 1123)
    }

    @Test("session mean, median, SD, trimmed mean and log mean agree with pandas/scipy on the real file")
    func statisticsAgainstPandas() throws {
        let (_, _, analysis) = try Self.analyse("BrainTrackerResultsFile.csv")
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("trials.csv").path
        let csv = "session,latency\n" + analysis.trials.map { "\($0.sessionSeq),\($0.latencyMs.description)" }.joined(separator: "\n") + "\n"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let script = """
        import sys, numpy as np, pandas as pd
        from scipy import stats
        d = pd.read_csv(sys.argv[1])
        for s, g in d.groupby('session'):
            x = g['latency'].to_numpy()
            sd = x.std(ddof=1) if len(x) > 1 else float('nan')
            print(s, *[repr(float(v)) for v in (x.mean(), np.median(x), sd, stats.trim_mean(x, 0.1), np.log(x).mean())])
        """
        let output = try TestSupport.python(script, [path])
        let lines = output.split(separator: "\n")
        #expect(lines.count == analysis.sessions.count)
        for line in lines {
            let f = line.split(separator: " ").map { Double($0) ?? .nan }
            let session = analysis.sessions[Int(f[0]) - 1]
            func close(_ a: Double?, _ b: Double) -> Bool { b.isNaN ? a == nil : abs((a ?? .nan) - b) <= 1e-9 * max(1, abs(b)) }
            #expect(close(session.latencyMeanMs, f[1]))
            #expect(close(session.latencyMedianMs, f[2]))
            #expect(close(session.latencySDMs, f[3]))
            #expect(close(session.latencyTrimmedMeanMs, f[4]))
            #expect(close(session.latencyLogMean, f[5]))   // every latency is in (150, 3000) ms here
        }
    }
}
