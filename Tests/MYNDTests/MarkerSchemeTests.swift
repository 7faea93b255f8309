import Foundation
import Testing
@testable import MYND

@Suite("Marker scheme (spec §5)")
struct MarkerSchemeTests {
    static let music = Paradigm(name: "music", baseTime: -3, trialTime: 30, conditionCount: 2,
                                conditionLabels: ["MusicImagery", "Counting"], conditionMarkers: [320, 420],
                                baseMarkers: [310, 410])

    /// Markers at every 100th sample from `codes`, in a block of `count` samples.
    static func block(_ codes: [Int], count: Int) -> [Int] {
        var markers = [Int](repeating: 0, count: count)
        for (index, code) in codes.enumerated() { markers[index * 100] = code }
        return markers
    }

    @Test("A music block: 33 markers, trials of the same condition in a row counted apart, phases from offsets")
    func musicBlock() {
        let trial = { (base: Int) in [0, 5, 10, 20, 30].map { base + $0 } }
        let codes = [910, 910] + trial(300) + trial(300) + trial(400) + trial(300) + trial(400) + trial(400) + [910]
        #expect(codes.count == 33)
        let (events, anomalies) = MarkerEvent.events(markers: Self.block(codes, count: 4000), rate: 128,
                                                     paradigm: Self.music, scenario: "music", sourceFile: "r.hdf")
        #expect(anomalies.isEmpty)
        #expect(events.count == 33)
        #expect(Array(events.map(\.trialType)[2...6]) == ["MusicImagery/ready", "MusicImagery/ready_fixation",
                                                          "MusicImagery/prompt", "MusicImagery/task", "MusicImagery/pause"])
        #expect(events.map(\.trialInBlock) == [1, 1] + (2...7).flatMap { Array(repeating: $0, count: 5) } + [8])
        #expect(events[0].onset == 0 && events[1].onset == 100.0 / 128)
        #expect(events.last?.duration == Double(4000 - 3200) / 128)
        let epochs = ConditionEpoch.epochs(events, paradigm: Self.music, rate: 128, sampleCount: 4000)
        #expect(epochs.map(\.condition) == ["MusicImagery", "MusicImagery", "Counting", "MusicImagery", "Counting", "Counting"])
        #expect(epochs.allSatisfy { !$0.complete })  // 30 s at 128 Hz is longer than the block
        #expect(epochs.first?.endSample == 500 + 3840)
    }

    @Test("Unknown codes, a missing goodbye, a wrong count, no markers at all")
    func oddities() {
        let rest = Paradigm(name: "rest", baseTime: -3, trialTime: 60, conditionCount: 2,
                            conditionLabels: ["EyesOpen", "EyesClosed"], conditionMarkers: [320, 420], baseMarkers: [310, 410])
        let (events, anomalies) = MarkerEvent.events(markers: Self.block([910, 510, 520, 377, 42], count: 600), rate: 256,
                                                     paradigm: rest, scenario: "rest", sourceFile: "r.hdf")
        #expect(events.map(\.trialType) == ["welcome/prompt", "base500/prompt", "base500/task", "EyesOpen/other", "base0/other"])
        #expect(events.map(\.condition) == [nil, nil, nil, "EyesOpen", nil])
        #expect(anomalies.map(\.code) == ["W_UNKNOWN_MARKER", "W_UNKNOWN_MARKER", "W_NO_GOODBYE", "W_MARKER_COUNT"])
        let (none, noneAnomalies) = MarkerEvent.events(markers: [0, 0, 0], rate: 256, paradigm: rest, scenario: "rest",
                                                       sourceFile: "r.hdf")
        #expect(none.isEmpty)
        #expect(noneAnomalies.map(\.code) == ["W_NO_MARKERS"])
    }

    @Test("Signal quality by hand: a flat signal scores 0, a small variance 110, a large one 150/v·100")
    func qualityByHand() {
        // Window 1 (w = 0.5): x = 0,2,0,2 → s = 0,1,0.5,1.25; mean 0.6875, variance 0.23046875 → q = 110.
        let windows = SignalQuality.windows([0, 2, 0, 2, 5, 5, 5, 5], rate: 8)
        #expect(windows.count == 2)
        #expect(windows[0].variance == 0.23046875)
        #expect(windows[0].quality == 110)
        #expect(windows[0].average == (4 * 50 + 110) / 5.0)
        #expect(windows[0].rawVariance == 1)
        // Window 2 still uses w = A_0/100 = 0.5: s = 3.125, 4.0625, 4.53125, 4.765625.
        let s = [3.125, 4.0625, 4.53125, 4.765625]
        let mean = s.reduce(0, +) / 4
        #expect(abs(windows[1].variance - s.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 4) < 1e-15)
        let flat = SignalQuality.windows([3, 3, 3, 3], rate: 8)
        #expect(flat.first?.quality == 0)
        let loud = SignalQuality.windows([0, 100, 0, 100], rate: 8)
        // s = 0, 50, 25, 62.5: variance 576.171875 → 150/v·100.
        #expect(loud.first?.variance == 576.171875)
        #expect(loud.first?.quality == 150 / 576.171875 * 100)
    }

    @Test("A German-region questionnaire: 24-hour time, dots, GMT+2; day-first read without a recording (guessed)")
    func germanQuestionnaire() throws {
        let text = """
        {"title": "motivation", "day": 2, "sessionID": 4, "runID": 7, "subjectID": "\(MYNDTestFiles.uuid)",
         "locale": "de", "sessionStartTime": "03.05.2020, 09:15:00 GMT+2", "howDoYouFeelToday": "4"}
        """
        var study = MYNDStudy()
        try study.ingest(path: "q_motivation_2_4_7_\(MYNDTestFiles.uuid).json", data: Data(text.utf8))
        let (tables, anomalies) = try study.tables(definitions: nil, dateOrder: nil)
        #expect(anomalies.map(\.code) == ["W_DATE_ORDER_GUESSED"])
        guard case .timestamp(let utc)? = tables[0][column: "session_start_utc"]?.values else { Issue.record(); return }
        #expect(utc == [1_588_490_100])  // 2020-05-03T07:15:00Z
        let (given, none) = try study.tables(definitions: nil, dateOrder: .dmy)
        #expect(none.isEmpty)
        guard case .timestamp(let same)? = given[0][column: "session_start_utc"]?.values else { Issue.record(); return }
        #expect(same == utc)
    }
}
