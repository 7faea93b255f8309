import BrainTracker
import Foundation
import Testing
import TestSupport

/// Seth Roberts' R export as a second input format (spec §9), and his statistics on it (§8).
@Suite("Seth Roberts' R export")
struct SethRExportTests {
    static let header = "\"when\",\"condition\",\"trial\",\"foreperiod.msec\",\"problem\",\"latency.msec\",\"latency.ptile\",\"actual.answer\",\"correct\",\"include\",\"note\""

    static func analyse(_ text: String, _ options: SessionAnalysisOptions = SessionAnalysisOptions(), skip: Bool = false) throws -> RTAnalysis {
        try BrainTrackerFormat.analyze(Data(text.utf8), sourceFile: "r.csv", format: nil, options: options, skipBadLines: skip)
    }

    @Test("detected by its header, with or without the row-name column; quoted fields, CRLF, newlines in quotes")
    func parsing() throws {
        let text = [
            "\"\"," + Self.header,
            "\"5204\",\"2014-03-08 10:51:55\",\"2014-03-08 10:51  D-Ribose at bed, and \"\"breakfast\"\".\",2,1500,\"3\",560,58.3332128554699,\"3\",TRUE,TRUE,\"\"",
            "\"17\",\"2014-03-08 10:51:58\",\"2014-03-08 10:51  D-Ribose at bed, and \"\"breakfast\"\".\",2,1500,\"4\",120,NA,\"4\",TRUE,FALSE,\"too fast\"",
            "\"3\",\"2014-03-08 10:52:01\",\"2014-03-08 10:51  D-Ribose at bed, and \"\"breakfast\"\".\",3,1500,\"5\",610,NA,\"6\",FALSE,TRUE,\"\"",
            "\"9\",\"2014-03-09 08:00:01\",\"2014-03-09 08:00 a\nsecond line\",1,1500,\"2\",500,NA,\"2\",TRUE,TRUE,\"\"",
            "\"10\",\"2014-03-09 08:10:01\",\"2014-03-09 08:10  warmup\",1,1500,\"2\",500,40,\"2\",TRUE,FALSE,\"warmup\"",
        ].joined(separator: "\r\n") + "\r\n"
        #expect(BrainTrackerFormat.detectFormat(TextLines(Data(text.utf8))) == .sethR)
        let a = try Self.analyse(text)
        #expect(a.format == .sethR)
        #expect(a.trials.map(\.line) == [2, 3, 4, 5, 7])
        #expect(a.trials.map(\.rowFormat) == Array(repeating: .sethR, count: 5))
        #expect(a.trials[0].sessionID == "2014-03-08 10:51  D-Ribose at bed, and \"breakfast\".")
        #expect(a.trials[0].timeLocal == "2014-03-08T10:51:55" && a.trials[0].timeUTC == nil)
        #expect(a.trials[0].ptileStored == 58.3332128554699 && a.trials[1].ptileStored == nil)
        #expect(a.trials.map(\.target) == ["3", "4", "5", "2", "2"])
        #expect(a.trials.map(\.exclusion) == [nil, "not included", "not correct", nil, "warmup"])
        #expect(a.trials.map(\.pctApp) == [nil, nil, nil, nil, nil])
        #expect(a.sessions.count == 3)
        #expect(a.sessions[0].comment == "D-Ribose at bed, and \"breakfast\"." && a.sessions[0].startLocal == "2014-03-08T10:51:00")
        #expect(a.sessions[1].comment == "a\nsecond line")
        #expect(a.sessions.map(\.isWarmup) == [false, false, true])
        #expect(a.sessions.map(\.complete) == [false, false, false])
        #expect(a.sessions[0].scoreRecomputed == nil && a.sessions[0].utcOffsetMin == nil && a.sessions[0].startUTC == nil)
        // Analysis trials are correct & include: only the 560 ms trial in session 1.
        #expect(a.sessions[0].latencyMeanMs == 560 && a.sessions[0].nValidSeth == 1)
        // pct_wrong = 100·#(include & !correct)/#include = 100·1/2; SE = 100·√(0.25/2).
        #expect(a.sessions[0].pctWrong == 50 && a.sessions[0].pctWrongSE == 100 * (0.125).squareRoot())

        let plain = try Self.analyse(Self.header + "\n\"2014-03-08 10:51:55\",\"2014-03-08 10:51 x\",2,1500,\"3\",560,NA,\"3\",TRUE,TRUE,\"\"")
        #expect(plain.trials.count == 1 && plain.sessions[0].comment == "x")
    }

    @Test("bad R rows: not logical, wrong field count; missing column and unterminated quote stay fatal")
    func malformed() throws {
        let bad = Self.header + "\n\"2014-03-08 10:51:55\",\"c\",2,1500,\"3\",560,NA,\"3\",yes,TRUE,\"\"\n\"2014-03-08 10:51:56\",\"c\",2,1500,\"3\",560,NA\n\"2014-03-08 10:51:57\",\"c\",2,1500,\"3\",580,NA,\"3\",TRUE,TRUE,\"\""
        #expect(throws: BrainTrackerError.notLogical(file: "r.csv", line: 2, column: "correct", found: "yes")) { try Self.analyse(bad) }
        let skipped = try Self.analyse(bad, skip: true)
        #expect(skipped.trials.map(\.line) == [4])
        #expect(skipped.anomalies.map(\.code) == ["E_BAD_LINE", "E_BAD_LINE"] && skipped.anomalies.map(\.line) == [2, 3])
        #expect(throws: BrainTrackerError.missingColumn(file: "r.csv", column: "include")) {
            try Self.analyse("\"when\",\"condition\",\"problem\",\"latency.msec\",\"correct\"\n")
        }
        #expect(throws: BrainTrackerError.unterminatedQuote(file: "r.csv", line: 2)) {
            try Self.analyse(Self.header + "\n\"2014-03-08 10:51:55\",\"c,2,1500\n3,560,NA,3,TRUE,TRUE,", skip: true)
        }
        let headerOnly = try Self.analyse(Self.header + "\n")
        #expect(headerOnly.trials.isEmpty && headerOnly.anomalies.map(\.code) == ["W_NO_RECORDS"])
        #expect(throws: BrainTrackerError.self) {
            try BrainTrackerFormat.analyze(Data((Self.header + "\n").utf8), sourceFile: "r.csv", format: .brt, options: SessionAnalysisOptions(), skipBadLines: false)
        }
    }

    @Test("final-mode percentiles, difficulty-corrected means and SEs agree with an independent Python version of newmath.ptile")
    func finalModeAgainstPython() throws {
        // A constructed export: 12 sessions × 36 trials over labels 2…8, some too fast/slow, wrong and excluded.
        var lines = ["\"\"," + Self.header]
        var seed: UInt64 = 12345
        func next() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
        var rowName = 1
        for session in 0..<12 {
            let condition = "2014-03-\(String(format: "%02d", session + 1)) 09:00 \(session % 3) condition \(session)"
            for trial in 0..<36 {
                let label = 2 + Int(next() * 7)
                var latency = Int(350 + Double(label) * 20 + next() * 300)
                if next() < 0.03 { latency = 120 } else if next() < 0.02 { latency = 3200 }
                let correct = next() > 0.05
                let include = next() > 0.05
                lines.append("\"\(rowName)\",\"2014-03-\(String(format: "%02d", session + 1)) 09:\(String(format: "%02d", trial)):00\",\"\(condition)\",\(trial),1500,\"\(label)\",\(latency),NA,\"\(label)\",\(correct ? "TRUE" : "FALSE"),\(include ? "TRUE" : "FALSE"),\"\"")
                rowName += 1
            }
        }
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("r.csv").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var options = SessionAnalysisOptions()
        options.sethWindow = 30
        let a = try BrainTrackerFormat.analyze(Data(contentsOf: URL(fileURLWithPath: path)), sourceFile: "r.csv", format: nil, options: options, skipBadLines: false)
        let script = """
        import sys, numpy as np, pandas as pd
        d = pd.read_csv(sys.argv[1])
        W = 30
        d['valid'] = d['correct'] & d['include'] & (d['latency.msec'] > 150) & (d['latency.msec'] < 3000)
        v = d[d['valid']]
        n = min(W, v.groupby('problem').size().min())
        comp = {p: g['latency.msec'].to_numpy()[-n:] for p, g in v.groupby('problem')}
        def ptile(p, x):
            c = comp[p]
            a = (c > x).sum() + 0.5 * (c == x).sum()
            return 100 * (1 / (2 * n) + a * (1 - 1 / n) / n)
        d['pt'] = [ptile(p, x) if ok else np.nan for p, x, ok in zip(d['problem'], d['latency.msec'], d['valid'])]
        means = v.groupby('problem')['latency.msec'].mean()
        eff = means - means.mean()
        for c, g in d.groupby('condition', sort=False):
            gv = g[g['valid']]
            inc = g[g['include']]
            p = (~inc['correct']).mean()
            corrected = (gv['latency.msec'] - gv['problem'].map(eff)).mean()
            print(repr(float(gv['pt'].mean())), repr(float(gv['pt'].std(ddof=1) / np.sqrt(len(gv)))), repr(float(corrected)), repr(float(100 * p)), repr(float(100 * np.sqrt(p * (1 - p) / len(inc)))))
        print(' '.join(repr(float(x)) for x in d['pt'].fillna(-1)))
        """
        let output = try TestSupport.python(script, [path]).split(separator: "\n")
        #expect(output.count == 13)
        for (index, line) in output.prefix(12).enumerated() {
            let f = line.split(separator: " ").map { Double($0)! }
            let s = a.sessions[index]
            #expect(abs(s.sethPtileMean! - f[0]) < 1e-9)
            #expect(abs(s.sethPtileSE! - f[1]) < 1e-9)
            #expect(abs(s.latencyCorrectedMeanMs! - f[2]) < 1e-9)
            #expect(abs(s.pctWrong! - f[3]) < 1e-9)
            #expect(abs(s.pctWrongSE! - f[4]) < 1e-9)
        }
        let expected = output[12].split(separator: " ").map { Double($0)! }
        #expect(expected.count == a.trials.count)
        for (trial, value) in zip(a.trials, expected) {
            if value < 0 { #expect(trial.ptileSeth == nil) } else { #expect(abs(trial.ptileSeth! - value) < 1e-9) }
        }
    }
}
