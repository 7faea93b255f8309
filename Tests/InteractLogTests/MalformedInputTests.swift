import Foundation
import InteractLog
import Testing

/// Bad input (spec §7): file-level failures, line errors with and without `--skip-bad-lines`, warnings.
@Suite struct MalformedInputTests {
    static let javaHeader = """
        Name                 :P01
        Experiment Start     :04/07/2023 - 10:15:02
        Stroke Colour        :0,0,0,255
        Background Colour    :255,255,255,255
        Stroke Width         :2.0
        Stimulus Files       :S1.png,S2.png
        Familiarisation File :P1.png
        Input Mask File      :
        Drawing Pad Size     :1260,600
        Trial Number         :1
        Trial Start          :04/07/2023 - 10:15:09
        Trial End            :04/07/2023 - 10:15:10


        """
    static let name = "P01 (Trial 1) 2023-07-04 - 10-15-02.txt"

    /// A Java 2.2 log with these event lines (header lines 1–13, events from line 14).
    static func java(_ events: [String]) -> String { javaHeader + events.map { $0 + "\n" }.joined() }

    func codes(_ a: TrialAnalysis) -> [String] { a.log.anomalies.anomalies.map(\.code) }

    func error(_ text: String, skip: Bool = false) -> InteractLogError? {
        do { _ = try ParsedLog.parse(Data(text.utf8), sourceFile: Self.name, skipBadLines: skip); return nil }
        catch { return error }
    }

    @Test func emptyBlankBinaryAndForeignFilesFail() throws {
        #expect(error("")?.message == "\(Self.name): E_EMPTY expected an InteractLog header, found an empty or blank file")
        #expect(error(" \n\r\n\t\n") == .empty(file: Self.name))
        #expect(error("Name:x\n\n1;2\0;0;0;X\n", skip: true)?.message == "\(Self.name):3: E_BINARY expected text, found a NUL byte")
        #expect(error("Hello:world\nName:x\n")?.message
                == "\(Self.name):1: E_NOT_INTERACTLOG expected a 'Name' or 'App Version' header line, found 'Hello:world'")
        #expect(error("\n1;2;0;0;DrawingEnabled\n")?.message.contains("E_NOT_INTERACTLOG") == true)
        // Even --skip-bad-lines does not rescue these.
        #expect(error("", skip: true) == .empty(file: Self.name))
    }

    @Test func specExampleLinesAreErrorsWithLineNumbers() throws {
        let fields = Self.java(["1;24912044800000;0;0;DrawingEnabled", "13;24912044833416;373;ButtonDown"])
        #expect(error(fields)?.message == "\(Self.name):15: E_FIELDS expected 5 ';'-separated fields, found 4")
        let ts = Self.java(["14;2491204x833416;0;0;DrawingEnabled"])
        #expect(error(ts)?.message == "\(Self.name):14: E_TS expected an integer nanosecond timestamp, found '2491204x833416'")
        let id = Self.java(["x1;2491204833416;0;0;DrawingEnabled"])
        #expect(error(id)?.message == "\(Self.name):14: E_ID expected an integer id, found 'x1'")
        let header = Self.javaHeader.replacingOccurrences(of: "Name                 :P01", with: "Name                 :P01\nName P01")
        #expect(error(header + "1;1;0;0;DrawingEnabled\n")?.message
                == "\(Self.name):2: E_HEADER_LINE expected 'Label:value' in the header, found 'Name P01'")
        let ipad = """
            App Version          :1.1
            Name                 :P07

            000;1697547893500.000000;0;0;DrawingEnabled
            015;1697547893517.064941;402.8;;ButtonDown

            """
        #expect(error(ipad)?.message == "\(Self.name):5: E_XY expected numeric x;y, found '402.8;'")
    }

    @Test func skipBadLinesKeepsTheRestAndRecordsErrors() throws {
        let text = Self.java(["1;24912044800000;0;0;DrawingEnabled", "13;24912044833416;373;ButtonDown",
                              "3;24912044900000;10;10;ButtonDown", "4;24912045900000;20;10;ButtonReleased"])
        let a = try SampleLogs.parse(text, name: Self.name, skipBadLines: true)
        #expect(a.log.events.count == 3 && a.strokes.count == 1)
        let bad = try #require(a.log.anomalies.anomalies.first { $0.code == "E_FIELDS" })
        #expect(bad.severity == .error && bad.line == 15 && bad.raw == "13;24912044833416;373;ButtonDown")
        #expect(InteractLogTables.trials(a)[column: "n_errors"]?.values == .int32([1]))
        // The line left out makes the id jump from 1 to 3.
        #expect(codes(a).contains("W_ID_GAP"))
    }

    @Test func keySyntaxAndUnknownEventsAreKept() throws {
        let a = try SampleLogs.parse(Self.java(["16;24912044900000;0;0;KeyPressed_38UP:1", "17;24912045000000;0;0;Blink_3"]))
        #expect(a.log.events.count == 2)
        #expect(a.log.events[0].kind.type == "key_pressed" && a.log.events[0].kind.key?.code == 38)
        #expect(a.log.events[0].kind.key?.descriptor == nil && a.log.events[0].kind.key?.location == nil)
        #expect(a.log.events[1].kind == .other)
        #expect(codes(a).contains("W_KEY_SYNTAX") && codes(a).contains("W_UNKNOWN_EVENT"))
        #expect(a.keys.count == 1)
    }

    @Test func headerOnlyIsAWarningWithEmptyTables() throws {
        let a = try SampleLogs.parse(Self.javaHeader)
        #expect(codes(a).contains("W_NO_EVENTS"))
        let tables = InteractLogTables.tables(a)
        #expect(tables.first { $0.name == "trials" }?.rowCount == 1)
        #expect(tables.first { $0.name == "trials" }?[column: "n_events"]?.values == .int32([0]))
        for name in ["events", "strokes", "stimulus_views", "keys"] {
            #expect(tables.first { $0.name == name }?.rowCount == 0, "\(name)")
        }
    }

    @Test func encodingBOMLineEndingsAndBlankLines() throws {
        var bytes = Array("Name                 :Jos".utf8) + [0xE9] + Array("\nTrial Number         :1\n\n1;1;0;0;DrawingEnabled\n".utf8)
        var a = TrialAnalysis(try ParsedLog.parse(Data(bytes), sourceFile: "w.txt", skipBadLines: false))
        #expect(a.log.encoding == .windows1252 && a.log.header.name == "José" && codes(a).contains("W_ENCODING_FALLBACK"))
        bytes = [0xEF, 0xBB, 0xBF] + Array(Self.java(["1;1;0;0;DrawingEnabled"]).utf8)
        a = TrialAnalysis(try ParsedLog.parse(Data(bytes), sourceFile: "b.txt", skipBadLines: false))
        #expect(codes(a).contains("I_BOM") && a.log.header.name == "P01" && a.log.events.count == 1)
        let mixed = Self.java(["1;1;0;0;DrawingEnabled"]).replacingOccurrences(of: "P01\n", with: "P01\r\n") + "\n2;2;0;0;DrawingEnabled"
        a = try SampleLogs.parse(mixed)
        #expect(a.log.lineEnding == .mixed && codes(a).contains("W_MIXED_EOL"))
        #expect(codes(a).contains("W_NO_FINAL_NEWLINE") && codes(a).contains("I_BLANK_LINE") && a.log.events.count == 2)
    }

    @Test func idGapsOrderAndBackwardsTime() throws {
        let a = try SampleLogs.parse(Self.java(["1;1000;0;0;DrawingEnabled", "2;900;0;0;DrawingEnabled",
                                                "5;2000;0;0;DrawingEnabled", "4;3000;0;0;DrawingEnabled"]))
        #expect(a.log.events[1].flags == ["ts_backwards"] && a.log.events[2].flags == ["id_gap"])
        #expect(codes(a).filter { $0 == "W_TS_BACKWARDS" }.count == 1 && codes(a).contains("W_ID_ORDER"))
    }

    @Test func viewsDuplicateOnUnmatchedOffAndMismatch() throws {
        let a = try SampleLogs.parse(Self.java([
            "1;1000000000;0;0;StimulusOff_S1.png",      // unmatched
            "2;2000000000;0;0;StimulusOn_S1.png",
            "3;2500000000;0;0;StimulusOn_S1.png",       // duplicate_on
            "4;3000000000;0;0;StimulusOn_S2.png",       // closes S1 by next_on
            "5;4000000000;0;0;StimulusOff_S1.png",      // off_mismatch
            "6;4500000000;10;10;ButtonDown",
            "7;5000000000;0;0;StimulusOn_S1.png",
            "8;5500000000;20;10;ButtonReleased",         // stroke spans a stimulus onset
            "9;6000000000;30;10;ButtonDown",             // open at the end: unpaired_down
        ]))
        #expect(a.views.map(\.status.rawValue) == ["unmatched_off", "closed", "closed", "open_at_end"])
        #expect(a.views.map { $0.closedBy?.rawValue } == [nil, "next_on", "off_mismatch", "end_of_file"])
        #expect(a.views.map(\.viewOfImage) == [nil, 1, 1, 2])
        #expect(a.log.events[2].flags == ["duplicate_on"])
        #expect(abs((a.views[1].duration ?? 0) - 1.0) < 1e-12)
        for code in ["W_UNMATCHED_OFF", "W_DUPLICATE_ON", "W_OFF_MISMATCH", "W_STROKE_SPANS_STIMULUS", "W_UNPAIRED_DOWN",
                     "I_VIEW_OPEN_AT_END"] {
            #expect(codes(a).contains(code), "\(code)")
        }
        #expect(a.strokes.map(\.status) == [.paired, .unpairedDown])
        #expect(a.strokes[0].eventsWithin == 1 && a.strokes[0].context.lastStimulus == "S2.png")
        #expect(a.strokes[0].context.stimulusVisible == false && a.strokes[1].context.stimulusVisible == true)
        // The stroke (anchored after the mismatched Off, before the next On) counts for view 3.
        #expect(a.views[2].strokesAfter == 1)
    }

    @Test func outsidePadIsFlaggedAndKept() throws {
        let a = try SampleLogs.parse(Self.java(["1;1000;100;100;ButtonDown", "2;2000;-5;700;ButtonReleased"]))
        #expect(a.log.events[1].flags == ["outside_pad"] && a.strokes.count == 1 && a.strokes[0].status == .paired)
    }

    @Test func headerValueProblemsAndNameChecks() throws {
        let text = Self.javaHeader
            .replacingOccurrences(of: "Stroke Colour        :0,0,0,255", with: "Stroke Colour        :0,0,0")
            .replacingOccurrences(of: "Trial Number         :1", with: "Trial Number         :2\nTrial Number         :3\nShoe Size :44")
            .replacingOccurrences(of: "Trial End            :04/07/2023 - 10:15:10\n", with: "")
            + "1;1;0;0;DrawingEnabled\n"
        let a = try SampleLogs.parse(text, name: "P09 (Trial 1) 2023-07-04 - 10-15-03.txt")
        for code in ["W_HEADER_VALUE", "W_HEADER_DUP", "I_UNKNOWN_LABEL", "W_HEADER_MISSING", "W_NAME_MISMATCH",
                     "W_TRIAL_MISMATCH", "W_STAMP_MISMATCH"] {
            #expect(codes(a).contains(code), "\(code)")
        }
        #expect(a.log.header.strokeColour == nil && a.log.header.trialNumber == 2)
        #expect(a.log.header.lines.contains { $0.label == "Shoe Size" && $0.value == "44" })
    }

    @Test func spanMismatchAgainstTheHeader() throws {
        // Header says 1 s; the events span 10 s.
        let a = try SampleLogs.parse(Self.java(["1;0;0;0;DrawingEnabled", "2;10000000000;0;0;DrawingEnabled"]))
        #expect(codes(a).contains("W_SPAN_MISMATCH"))
    }

    @Test func duplicateTrialsAcrossRuns() throws {
        let one = try SampleLogs.parse(Self.java(["1;0;0;0;DrawingEnabled"]))
        let other = Self.javaHeader.replacingOccurrences(of: "04/07/2023 - 10:15:02", with: "05/07/2023 - 10:15:02")
        let two = try SampleLogs.parse(other + "1;0;0;0;DrawingEnabled\n", name: "P01 (Trial 1) 2023-07-05 - 10-15-02.txt")
        var analyses = [one, two]
        TrialAnalysis.checkDuplicateTrials(&analyses)
        #expect(!codes(analyses[0]).contains("W_DUPLICATE_TRIAL") && codes(analyses[1]).contains("W_DUPLICATE_TRIAL"))
    }

    @Test func companionFileNamesAreRecognised() {
        #expect(FileNameIdentity.isCompanion(path: "d/P01 (Trial 1) 2023-07-04 - 10-15-02_strokes.txt"))
        #expect(FileNameIdentity.isCompanion(path: "P01 (Trial 1) 2023-07-04 - 10-15-02_keys.txt"))
        #expect(!FileNameIdentity.isCompanion(path: "P01 (Trial 1) 2023-07-04 - 10-15-02.txt"))
        #expect(JavaCompanionFiles.looksLikeCompanion(Data((Self.javaHeader + "1;58239644405506;58241052606016;480;170;760;168\n").utf8)))
        #expect(JavaCompanionFiles.looksLikeCompanion(Data((Self.javaHeader + "2;38;1;UP;Up;58248816605955;58255324905479;6508299524\n").utf8)))
        #expect(!JavaCompanionFiles.looksLikeCompanion(Data(Self.java(["1;58239644405506;480;170;ButtonDown"]).utf8)))
        let identity = FileNameIdentity.parse(path: "x/Bob (the) (Trial 12) 2023-07-04 - 10-15-02.txt")
        #expect(identity?.participant == "Bob (the)" && identity?.trial == 12 && identity?.stamp == "2023-07-04 - 10-15-02")
    }
}
