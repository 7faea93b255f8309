import Foundation
import HDF5
import Testing
import Tables
import TestSupport
@testable import MYND

@Suite("The real recording (spec §3, §5, §6)",
       .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
struct RecordingTests {
    static func readReal() throws -> MYNDRecording {
        let url = try #require(MYNDTestFiles.recording)
        return try MYNDRecording.read(try HDF5File.open(path: url.path), sourceFile: url.path)
    }

    @Test("Every /Recording and /Paradigm attribute, typed; channels; row 0 dropped")
    func attributes() throws {
        let recording = try Self.readReal()
        let stored = Dictionary(uniqueKeysWithValues: recording.attributes.map { ("\($0.group)@\($0.name)", $0.text) })
        #expect(stored == [
            "/Recording@Run": "1", "/Recording@Session": "2", "/Recording@Version": "3",
            "/Recording@channelCount": "4",
            "/Recording@channelNames": "[\"Left Ear\", \"Left Front\", \"Right Front\", \"Right Ear\"]",
            "/Recording@day": "1", "/Recording@device": "muse", "/Recording@fittingTime": "60.232591875",
            "/Recording@locale": "en", "/Recording@recordingEndTime": "05/02/2020, 5:44:34 PM GMT+02:00",
            "/Recording@recordingStartTime": "05/02/2020, 5:42:09 PM GMT+02:00",
            "/Recording@recordingTime": "144.75159907341003", "/Recording@runID": "1",
            "/Recording@samplingRate": "256", "/Recording@sessionID": "2",
            "/Recording@sessionStartTime": "05/02/2020, 5:39:14 PM GMT+02:00",
            "/Recording@subjectID": MYNDTestFiles.uuid,
            "/Paradigm@BaseTime": "-3", "/Paradigm@ConditionCount": "2", "/Paradigm@Paradigm": "rest",
            "/Paradigm@TrialTime": "60",
        ])
        #expect(recording.attributes.first { $0.name == "Session" }?.value == .ints([2]))
        #expect(recording.attributes.first { $0.name == "day" }?.value == .strings(["1"]))
        #expect(recording.subjectID == MYNDTestFiles.uuid)
        #expect(recording.day == 1 && recording.sessionID == 2 && recording.runID == 1 && recording.version == 3)
        #expect(recording.device == "muse" && recording.samplingRate == 256 && recording.locale == "en")
        #expect(recording.fittingTime == 60.232591875 && recording.recordingTime == 144.75159907341003)
        #expect(recording.channelNames == ["Left Ear", "Left Front", "Right Front", "Right Ear"])
        #expect(recording.channelNames.map(ChannelLabel.tenTwenty) == ["TP9", "AF7", "AF8", "TP10"])
        #expect(recording.droppedRowZero)
        #expect(recording.sampleCount == 37068)
        #expect(recording.timestamps.first == 1_588_434_129_712_318)
        #expect(recording.paradigm == Paradigm(name: "rest", baseTime: -3, trialTime: 60, conditionCount: 2,
                                               conditionLabels: ["EyesOpen", "EyesClosed"],
                                               conditionMarkers: [320, 420], baseMarkers: [310, 410]))
        #expect(recording.anomalies.isEmpty)
        // recordingStartTime 17:42:09 GMT+02:00 under mdy is the first TimeStamp's second.
        let start = try #require(recording.recordingStart?.utcSeconds(order: .mdy))
        #expect(abs(start - recording.firstTimestampUTC!) < 1)
        // Channel means quoted by the spec: 848/849/859/845.
        let means = recording.channels.map { ($0.reduce(0, +) / Double($0.count)).rounded() }
        #expect(means == [848, 849, 859, 845])
    }

    @Test("Markers: the spec's sequence, onsets at 256 Hz, durations to the next marker, trial types")
    func events() throws {
        let recording = try Self.readReal()
        let analysis = RecordingAnalysis(recording, options: RecordingAnalysisOptions())
        let events = analysis.events
        #expect(events.map(\.sample) == [0, 660, 1931, 2724, 18084, 19104, 19884, 35268, 36312])
        #expect(events.map(\.marker) == [910, 910, 310, 320, 330, 410, 420, 430, 910])
        #expect(events.map(\.trialType) == ["welcome/prompt", "welcome/fixation", "EyesOpen/prompt", "EyesOpen/task",
                                            "EyesOpen/pause", "EyesClosed/prompt", "EyesClosed/task",
                                            "EyesClosed/pause", "goodbye/prompt"])
        #expect(events.map(\.trialInBlock) == [1, 1, 2, 2, 2, 3, 3, 3, 4])
        #expect(events[3].onset == 10.640625 && events[3].duration == 60 && events[3].condition == "EyesOpen")
        #expect(events[6].onset == 77.671875)
        #expect(abs(events[6].duration - 60.09375) < 1e-12)
        #expect(events[8].onset == 141.84375 && events[8].duration == 2.953125 && events[8].condition == nil)
        #expect(events[8].phase == "prompt")
        #expect(analysis.anomalies.isEmpty)
        let epochs = analysis.epochs
        #expect(epochs.map(\.condition) == ["EyesOpen", "EyesClosed"])
        #expect(epochs.map(\.onset) == [10.640625, 77.671875])
        #expect(epochs.map { $0.endSample - $0.startSample } == [15360, 15360])
        #expect(epochs.map(\.baselineOnset) == [7.640625, 74.671875])
        #expect(epochs.allSatisfy { $0.complete })
    }

    @Test("Signal quality: spec medians and shares, and every window against a Python re-implementation")
    func quality() throws {
        let url = try #require(MYNDTestFiles.recording), recording = try Self.readReal()
        let analysis = RecordingAnalysis(recording, options: RecordingAnalysisOptions())
        let summary = analysis.qualitySummary
        #expect(summary.map(\.windows) == [289, 289, 289, 289])
        let medians = summary.map { (($0.varianceMedian ?? 0) * 10).rounded() / 10 }
        #expect(medians == [49.1, 11.9, 14.6, 46.8])
        let shares = summary.map { (($0.shareAbove100 ?? 0) * 100).rounded() / 100 }
        #expect(shares == [0.74, 0.95, 0.91, 0.74])
        let script = """
        import sys, h5py, numpy as np
        X = h5py.File(sys.argv[1], 'r')['Recording/Data'][1:]
        for c in range(X.shape[1]):
            x = X[:, c]; L = 128; A = [50.0, 50.0]; s = x[0]
            for k in range(len(x) // L):
                w = A[0] / 100; seg = np.empty(L)
                for i in range(L):
                    t = k * L + i
                    if t > 0: s = (1 - w) * s + w * x[t]
                    seg[i] = s
                v = seg.var(); q = 0 if v == 0 else (110 if v < 150 else 150 / v * 100)
                a = (4 * A[1] + q) / 5; A = [A[1], a]
                print(repr(float(v)), repr(float(q)), repr(float(a)))
        """
        let lines = try TestSupport.python(script, [url.path]).split(separator: "\n")
        let ours = analysis.quality.flatMap { $0 }
        #expect(lines.count == ours.count)
        var worst = 0.0
        for (line, window) in zip(lines, ours) {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 3 else { Issue.record("unreadable Python line \(line)"); return }
            worst = max(worst, abs(numbers[0] - window.variance) / max(1, numbers[0]),
                        abs(numbers[1] - window.quality), abs(numbers[2] - window.average))
        }
        #expect(worst < 1e-9)
    }

    @Test("Band power per epoch and condition against scipy.signal.welch and the spec's table")
    func bandPower() throws {
        let url = try #require(MYNDTestFiles.recording), recording = try Self.readReal()
        let rows = RecordingAnalysis(recording, options: RecordingAnalysisOptions()).bandPower
        #expect(rows.count == 2 * 4 * 5 * 2)
        let alpha = rows.filter { $0.shared.band.name == "alpha" && $0.shared.scope == .condition }
        #expect(alpha.map(\.condition) == Array(repeating: "EyesOpen", count: 4) + Array(repeating: "EyesClosed", count: 4))
        #expect(alpha.map(\.channel1020) == ["TP9", "AF7", "AF8", "TP10", "TP9", "AF7", "AF8", "TP10"])
        let specPower = [6.26, 0.84, 0.98, 6.94, 7.95, 2.20, 1.80, 11.48]
        let specRelative = [0.058, 0.051, 0.069, 0.069, 0.128, 0.104, 0.076, 0.194]
        let specApp = [-1.061, -2.009, -1.989, -0.975, -0.967, -1.503, -1.582, -0.841]
        for (index, row) in alpha.enumerated() {
            #expect(abs(row.shared.power - specPower[index]) / specPower[index] < 0.01)
            #expect(abs(row.shared.relativePower! - specRelative[index]) < 0.0006)
            #expect(abs(row.appAlpha! - specApp[index]) < 0.005)
            #expect(row.shared.segmentCount == 59)
        }
        // Every band, channel and epoch against scipy.
        let script = """
        import sys, h5py, numpy as np, scipy.signal as ss
        f = h5py.File(sys.argv[1], 'r'); X = f['Recording/Data'][1:]; fs = 256
        bands = [(1, 4), (4, 8), (8, 12), (12, 30), (30, 45)]
        for onset in (2724, 19884):
            e = X[onset:onset + 60 * fs]; e = e - e.mean(axis=0)
            fr, p = ss.welch(e, fs=fs, nperseg=512, axis=0); df = fr[1]
            total = p[(fr >= 1) & (fr <= 45)].sum(axis=0) * df
            for c in range(4):
                for lo, hi in bands:
                    power = p[(fr >= lo) & (fr <= hi), c].sum() * df
                    print(repr(float(power)), repr(float(power / total[c])))
        """
        let lines = try TestSupport.python(script, [url.path]).split(separator: "\n")
        let epochRows = rows.filter { $0.shared.scope == .epoch }
        #expect(lines.count == epochRows.count)
        for (line, row) in zip(lines, epochRows) {
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 2 else { Issue.record("unreadable Python line \(line)"); return }
            #expect(abs(numbers[0] - row.shared.power) / numbers[0] < 1e-9)
            #expect(abs(numbers[1] - row.shared.relativePower!) < 1e-12)
        }
    }
}
