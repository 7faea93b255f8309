import Foundation
import InteractLog
import Testing

/// Spec §8: every constructed sample gives the expected counts.
@Suite(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
struct SpecSampleTests {
    func views(_ analysis: TrialAnalysis, _ image: String) -> Int {
        analysis.views.filter { $0.image == image && $0.status != .unmatchedOff }.count
    }

    @Test func java22TimedFamiliarisationAndHoldKeyViews() throws {
        let a = try SampleLogs.analysis(SampleLogs.java22Trial1)
        #expect(a.log.variant == "java-2.2")
        #expect(a.log.program == .java)
        #expect(a.log.lineEnding == .lf)
        #expect(a.log.events.count == 60)
        #expect(a.count(.paired) == 18 && a.strokes.count == 18)
        #expect(views(a, "P1.png") == 1 && views(a, "S1.png") == 2 && views(a, "S2.png") == 3)
        #expect(a.keys.count == 6)
        // The 0.14 s RIGHT view of S2 (lines 50 and 52).
        let right = try #require(a.views.first { $0.image == "S2.png" })
        #expect(abs((right.duration ?? 0) - (58289578723427 - 58289435300889) / 1e9) < 1e-12)
        // Strokes in phase Familiarisation: the three before the first UP.
        #expect(a.strokes.prefix(3).allSatisfy { $0.context.phase == "Familiarisation" })
    }

    @Test func java22OrphanReleaseDuplicatesAndCtrlEnter() throws {
        let a = try SampleLogs.analysis(SampleLogs.java22Trial2)
        #expect(a.log.events.count == 51)
        #expect(a.count(.paired) == 11 && a.count(.unpairedRelease) == 1 && a.strokes.count == 12)
        let orphan = try #require(a.strokes.first { $0.status == .unpairedRelease })
        #expect(a.log.events[orphan.upIndex ?? 0].line == 27)
        #expect(a.duplicateReleases == 7)
        #expect(a.keys.count == 7 && a.keys.filter(\.endsTrial).count == 2)
        #expect(a.keys.contains { $0.descriptor == "\u{FFFF}" && $0.code == 16 && $0.location == 2 })
        #expect(a.keys.last?.descriptor == "RETURN" && a.keys.last?.location == 1)
    }

    @Test func java22CRLFWithMaskAndToggling() throws {
        let a = try SampleLogs.analysis(SampleLogs.java22CRLF)
        #expect(a.log.lineEnding == .crlf)
        #expect(a.log.header.name == "P02" && a.log.header.inputMaskFile == "allWhite-1200x600.png")
        #expect(a.log.events.count == 56)
        #expect(a.strokes.count == 14 && a.strokes.filter(\.context.stimulusVisible).count == 1)
        #expect(a.views.count == 5 && views(a, "S3.png") == 0)
        #expect(a.keys.count == 9)
    }

    @Test func java20EighteenCharacterLabels() throws {
        let a = try SampleLogs.analysis(SampleLogs.java20)
        #expect(a.log.variant == "java-2.0")
        #expect(a.log.header.nameLabelWidth == 18 && a.log.header.lines.count == 11)
        #expect(a.log.events.count == 40 && a.strokes.count == 10 && a.views.count == 4)
        #expect(a.keys.count == 7 && a.keys.filter { $0.status == .unpairedRelease }.count == 2)
        #expect(a.keys.last?.descriptor == "\u{1B}" && a.keys.last?.role == "end")
    }

    @Test func java10BareStimulusEvents() throws {
        let a = try SampleLogs.analysis(SampleLogs.java10)
        #expect(a.log.variant == "java-1.0")
        #expect(a.log.events.count == 22 && a.strokes.count == 6)
        #expect(a.views.count == 2 && views(a, "S1.png") == 2)
        #expect(a.keys.first?.role == "show")
    }

    @Test func ipad11SkippedIdsAndBST() throws {
        let a = try SampleLogs.analysis(SampleLogs.ipad11)
        #expect(a.log.variant == "ipad-1.1" && a.log.program == .ipad)
        #expect(a.log.events.count == 43 && a.strokes.count == 16)
        #expect(a.views.count == 5 && views(a, "S1") == 3)
        #expect(a.utcOffsetMinutes == 60)
        #expect(!a.log.anomalies.anomalies.contains { $0.code == "W_ID_GAP" })
        #expect(a.log.header.phases.map(\.phase) == ["Familiarisation", "Stimulus"])
    }

    @Test func ipadGluedAppVersion() throws {
        let a = try SampleLogs.analysis(SampleLogs.ipadGlued)
        #expect(a.log.variant == "ipad-1.0.1-glued" && a.log.header.appVersionGlued)
        #expect(a.log.header.padWidth == 1194 && a.log.header.padHeight == 790)
        #expect(a.log.events.count == 35 && a.strokes.count == 12 && a.views.count == 5)
    }

    @Test func ipad10ConsecutiveIds() throws {
        let a = try SampleLogs.analysis(SampleLogs.ipad10)
        #expect(a.log.variant == "ipad-1.0")
        #expect(a.log.events.count == 27 && a.strokes.count == 10 && a.views.count == 3)
    }

    @Test func ipad11CancelledTouchAndCopyPhase() throws {
        let a = try SampleLogs.analysis(SampleLogs.ipadCopy)
        #expect(a.log.variant == "ipad-1.1")
        #expect(a.log.events.count == 35)
        #expect(a.count(.paired) == 13 && a.count(.unpairedDown) == 1)
        let copy = try #require(a.views.last)
        #expect(copy.phase == "Copy" && copy.image == "Copy_1" && copy.status == .openAtEnd)
        #expect(a.utcOffsetMinutes == 0)
        #expect(a.keys.isEmpty)
    }

    @Test func everySampleParsesWithoutErrors() throws {
        try #require(!SampleLogs.all.isEmpty)
        for name in SampleLogs.all {
            let a = try SampleLogs.analysis(name)
            #expect(a.log.anomalies.count(.error) == 0, "\(name)")
            #expect(!a.log.anomalies.anomalies.contains { $0.code == "W_SPAN_MISMATCH" || $0.code == "W_VARIANT" }, "\(name)")
        }
    }
}
