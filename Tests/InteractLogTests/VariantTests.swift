import Foundation
import InteractLog
import Testing

/// Variants and sidecar cases the spec samples do not cover, on constructed logs (spec §2, §4.1).
@Suite struct VariantTests {
    static func java18(_ events: [String], nameLabel: String = "Name              ") -> String {
        """
        \(nameLabel):Anonymous Participant
        Experiment Start  :21/05/2021 - 10:00:00
        Stroke Colour     :0,0,0,255
        Background Colour :255,255,255,255
        Stroke Width      :2.0
        Stimulus Files    :S1.png,S2.png
        Input Mask File   : 
        Drawing Pad Size  :900,700
        Trial Number      :1
        Trial Start       :21/05/2021 - 10:00:05
        Trial End         :21/05/2021 - 10:00:06


        """ + events.map { $0 + "\n" }.joined()
    }

    func codes(_ a: TrialAnalysis) -> [String] { a.log.anomalies.anomalies.map(\.code) }

    @Test func java12InitialStimulusWithSuffix() throws {
        let a = try SampleLogs.parse(Self.java18(["1;1000000000;0;0;InitialStimulusOn_S1.png", "2;1000100000;0;0;DrawingEnabled",
                                                  "3;2000000000;0;0;KeyPressed_10(Enter:1)", "4;2000100000;0;0;InitialStimulusOff_S1.png",
                                                  "5;2100000000;0;0;KeyReleased_10(Enter:1)"]),
                                     name: "Anonymous Participant (Trial 1) 2021-05-21 - 10-00-00.txt")
        #expect(a.log.variant == "java-1.2")
        #expect(a.log.header.inputMaskFile == nil)
        #expect(a.views.count == 1 && a.views[0].phase == "InitialStimulus" && a.views[0].image == "S1.png")
        #expect(a.keys.count == 1 && a.keys[0].role == "return" && a.keys[0].status == .paired)
        #expect(abs((a.views[0].duration ?? 0) - 1.0001) < 1e-12)
    }

    @Test func java10DescriptorsWithColons() throws {
        let text = Self.java18(["1;1000;0;0;DrawingEnabled", "2;2000;0;0;KeyPressed_10(Enter::1)",
                                "3;3000;0;0;KeyPressed_83(Stimulus key::1)"])
            .replacingOccurrences(of: "Stimulus Files    :S1.png,S2.png", with: "Stimulus File     :S1.png")
        let a = try SampleLogs.parse(text)
        #expect(a.log.variant == "java-1.0")
        #expect(a.keys.map(\.descriptor) == ["Enter:", "Stimulus key:"] && a.keys.map(\.role) == ["return", "show"])
    }

    @Test func java18WithoutStimulusEventsAndUnknownWidths() throws {
        let plain = try SampleLogs.parse(Self.java18(["1;1;0;0;DrawingEnabled"]))
        #expect(plain.log.variant == "java-1.2|2.0")
        let odd = try SampleLogs.parse(Self.java18(["1;1;0;0;DrawingEnabled"], nameLabel: "Name   "))
        #expect(odd.log.variant == "java-unknown" && codes(odd).contains("W_VARIANT"))
    }

    @Test func iPadPreReleaseSecondsAndUnpaddedIds() throws {
        let text = """
            Name                 :P01
            Experiment Start     :14/07/2023 - 10:00:00
            Stroke Width         :1
            Stimulus Files       :S1
            Familiarisation File :P1
            Input Mask File      :
            Drawing Pad Size     :1180.0,820.0
            Trial Number         :1
            Trial Start          :14/07/2023 - 10:00:01
            Trial End            :14/07/2023 - 10:00:03

            0;1689328801.25;0;0;DrawingEnabled
            1;1689328801.5;0;0;FamiliarisationOn_P1
            2;1689328802.75;100.123456;200.5;ButtonDown
            3;1689328803.0;150.0;200.5;ButtonReleased

            """
        let a = try SampleLogs.parse(text)
        #expect(a.log.program == .ipad && a.log.variant == "ipad-pre")
        #expect(codes(a).contains("I_PRERELEASE"))
        #expect(Array(a.log.times) == [0, 0.25, 1.5, 1.75])
        #expect(a.strokes.count == 1 && InteractLogTables.strokes(a)[column: "duration_ms"]?.values == .float64([250]))
        #expect(a.log.events[2].x == 100.123456)
        #expect(!codes(a).contains("W_ID_GAP"))
    }

    static func ipadLog(appVersion: String?, events: [String]) -> String {
        (appVersion.map { "App Version          :\($0)\n" } ?? "") + """
            Name                 :P03
            Experiment Start     :01/08/2023 - 09:00:00
            Stroke Colour        :0,0,0,255
            Background Colour    :255,255,255,255
            Stroke Width         :1
            Familiarisation Files       :P1
            Stimulus Files       :S1
            Input Mask File      :
            Drawing Pad Size     :1180.0,820.0
            Trial Number         :1
            Trial Start          :01/08/2023 - 10:00:00
            Trial End            :01/08/2023 - 10:00:09


            """ + events.map { $0 + "\n" }.joined()
    }

    @Test func iPad10xConsecutiveIdsAndNoStrokes() throws {
        let strokes = try SampleLogs.parse(Self.ipadLog(appVersion: "1.0.1", events: [
            "000;1690880400000.000000;0;0;DrawingEnabled", "001;1690880401000.000000;10.0;10.0;ButtonDown",
            "002;1690880402000.000000;20.0;10.0;ButtonReleased", "003;1690880403000.000000;0;0;StimulusOn_S1"]))
        #expect(strokes.log.variant == "ipad-1.0.x")
        let none = try SampleLogs.parse(Self.ipadLog(appVersion: "1.1", events: ["000;1690880400000.000000;0;0;DrawingEnabled"]))
        #expect(none.log.variant == "ipad-1.0.x|1.1")
        // 1 Aug 2023 10:00 local, first event 09:00 UTC: one hour east.
        #expect(strokes.utcOffsetMinutes == 60)
    }

    @Test func iPadImplausibleTimestampsLeaveTimesMissing() throws {
        let a = try SampleLogs.parse(Self.ipadLog(appVersion: "1.1", events: [
            "000;12345.000000;0;0;DrawingEnabled", "001;12346.000000;0;0;StimulusOn_S1"]))
        let allMissing = a.log.times.allSatisfy { $0 == nil }
        #expect(codes(a).contains("W_TS_IMPLAUSIBLE") && allMissing)
        #expect(a.utcOffsetMinutes == nil)
    }

    static let sidecarLog = ipadLog(appVersion: "1.1", events: [
        "000;1690880400000.500000;0;0;DrawingEnabled", "001;1690880401000.250000;100.0;100.0;ButtonDown",
        "002;1690880401600.750000;200.0;100.0;ButtonReleased", "004;1690880402000.000000;0;0;StimulusOn_S1"])

    static func sidecar(altitudeMean: String = "0.75", downFlag: String = "true") -> Data {
        let sample = #"{"timestamp":1690880401.0,"point":[100,100],"force":0.9,"azimuth":1.5,"altitude":1.0}"#
        let up = #"{"timestamp":1690880401.6,"point":[200,100],"force":0.1,"azimuth":1.5,"altitude":1.0}"#
        let pencil = #"{"timestamp":1690880401.61,"point":[150.5,101.25],"force":0.5,"azimuth":1.25,"altitude":\#(altitudeMean)}"#
        return Data(("""
            {"id":"RUN","trialStart":712573200.0,"actions":[
            {"timestamp":1690880400000.5,"action":{"drawingEnabled":{}}},
            {"timestamp":1690880401000.25,"action":{"drawing":{"_0":\(downFlag),"_1":\(sample)}}},
            {"timestamp":1690880401600.75,"action":{"drawing":{"_0":false,"_1":\(up)}}},
            {"timestamp":1690880401610.0,"action":{"pencilDrawing":{"_0":\(pencil)}}},
            {"timestamp":1690880402000.0,"action":{"stimulusDisplay":{"isShow":true,"phaseName":"Stimulus","fileName":"S1"}}}
            ]}
            """).utf8)
    }

    func joined(_ json: Data) throws -> TrialAnalysis {
        TrialAnalysis(try ParsedLog.parse(Data(Self.sidecarLog.utf8), sourceFile: "RUN/P03 (Trial 1) 2023-08-01 - 09-00-00.txt",
                                          skipBadLines: false), sidecarJSON: json)
    }

    @Test func sidecarJoinsPencilMeansAndPenDown() throws {
        let a = try joined(Self.sidecar())
        #expect(a.sidecar?.status == "joined" && !codes(a).contains("W_SIDECAR_MISMATCH"))
        let pencil = try #require(a.sidecar?.pencil[1])
        #expect(pencil.forceMean == 0.5 && pencil.azimuthMean == 1.25 && pencil.altitudeMean == 0.75)
        #expect(pencil.xMean == 150.5 && pencil.yMean == 101.25)
        #expect(pencil.forceDown == 0.9 && pencil.azimuthDown == 1.5 && pencil.altitudeDown == 1.0)
        // trialStart 712573200 s after 2001-01-01 = 2023-08-01T09:00:00Z; the folder matches the id.
        #expect(a.sidecar?.trialStartUTC == 1_690_880_400 && a.utcOffsetMinutes == 60 && a.runKey == "RUN")
    }

    @Test func sidecarAltitudeBugAndMismatch() throws {
        let bug = try joined(Self.sidecar(altitudeMean: "1.25"))
        #expect(codes(bug).contains("W_ALTITUDE_BUG") && bug.sidecar?.pencil[1]?.altitudeMean == nil)
        #expect(bug.sidecar?.pencil[1]?.azimuthMean == 1.25)
        let mismatch = try joined(Self.sidecar(downFlag: "false"))
        #expect(mismatch.sidecar?.status == "mismatch" && mismatch.sidecar?.pencil.isEmpty == true)
        let row = try #require(mismatch.log.anomalies.anomalies.first { $0.code == "W_SIDECAR_MISMATCH" })
        #expect(row.location == "actions[1]" && row.line == 16)
        let garbage = try joined(Data("{not json".utf8))
        #expect(garbage.sidecar?.status == "mismatch")
        let table = InteractLogTables.strokes(mismatch)
        guard case .float64(let force) = table[column: "force_mean"]?.values else { Issue.record("type"); return }
        let allNaN = force.allSatisfy(\.isNaN)
        #expect(allNaN)
    }
}
