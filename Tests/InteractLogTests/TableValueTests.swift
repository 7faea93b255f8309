import Foundation
import InteractLog
import Tables
import Testing

/// Table values checked against numbers computed by hand from the sample lines (spec §5).
@Suite struct TableValueTests {
    func column(_ table: Table, _ name: String) throws -> ColumnValues { try #require(table[column: name]).values }

    func doubles(_ table: Table, _ name: String) throws -> [Double] {
        guard case .float64(let values) = try column(table, name) else { Issue.record("\(name) is not float64"); return [] }
        return values
    }

    func ints(_ table: Table, _ name: String) throws -> [Int] {
        switch try column(table, name) {
        case .int32(let values): return values.map { $0 == .min ? -1 : Int($0) }
        case .int64(let values): return values.map { $0 == .min ? -1 : Int($0) }
        default: Issue.record("\(name) is not an integer column"); return []
        }
    }

    func strings(_ table: Table, _ name: String) throws -> [String?] {
        guard case .string(let values) = try column(table, name) else { Issue.record("\(name) is not a string"); return [] }
        return values
    }

    func bools(_ table: Table, _ name: String) throws -> [Int8] {
        guard case .bool(let values) = try column(table, name) else { Issue.record("\(name) is not bool"); return [] }
        return values
    }

    func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    /// Spec §7.3: the README header and the two README rows.
    static let readmeLog = """
        Name                 :Anonymous Participant
        Experiment Start     :04/07/2023 - 17:29:30
        Stroke Colour        :0,0,0,255
        Background Colour    :255,255,255,255
        Stroke Width         :2.0
        Stimulus Files       :S1.png,S2.png,S3.png,S4.png,S5.png,S6.png,S7.png,S8.png
        Familiarisation File :P1.png
        Input Mask File      :
        Drawing Pad Size     :1260,600
        Trial Number         :1
        Trial Start          :04/07/2023 - 17:29:34
        Trial End            :04/07/2023 - 17:29:41

        6;24912044833416;373;175;ButtonDown
        7;24913597758916;326;366;ButtonReleased

        """

    @Test func realREADMEHeaderAndRows() throws {
        let a = try SampleLogs.parse(Self.readmeLog, name: "Anonymous Participant (Trial 1) 2023-07-04 - 17-29-30.txt")
        let trials = InteractLogTables.trials(a)
        #expect(trials.rowCount == 1)
        #expect(try strings(trials, "variant") == ["java-2.2"])
        guard case .localTimestamp(let start) = try column(trials, "experiment_start_local") else { Issue.record("type"); return }
        #expect(CellFormatting.localTimestamp(start[0]) == "2023-07-04T17:29:30")
        #expect(try strings(trials, "stroke_colour") == ["#000000FF"])
        #expect(try doubles(trials, "stroke_width_coord") == [2.0])
        #expect(try strings(trials, "stimulus_files") == ["S1.png;S2.png;S3.png;S4.png;S5.png;S6.png;S7.png;S8.png"])
        #expect(try strings(trials, "familiarisation_file") == ["P1.png"])
        #expect(try strings(trials, "input_mask_file") == [nil])
        #expect(try doubles(trials, "pad_width_coord") == [1260] && doubles(trials, "pad_height_coord") == [600])
        #expect(try strings(trials, "coord_unit") == ["px"])
        #expect(try ints(trials, "trial") == [1])
        #expect(try doubles(trials, "header_duration_s") == [7])
        let strokes = InteractLogTables.strokes(a)
        #expect(strokes.rowCount == 1)
        // (24913597758916 − 24912044833416) ns = 1552925500 ns; hypot(47, 191) = √38690.
        #expect(near(try doubles(strokes, "duration_ms")[0], 1552.9255))
        #expect(near(try doubles(strokes, "length_coord")[0], 38690.0.squareRoot()))
        #expect(near(try doubles(strokes, "length_coord")[0], 196.698, 5e-4))
        #expect(try doubles(strokes, "x_start_coord") == [373] && doubles(strokes, "y_end_coord") == [366])
    }

    @Test func companionCrossCheck() throws {
        var a = try SampleLogs.parse(Self.readmeLog, name: "Anonymous Participant (Trial 1) 2023-07-04 - 17-29-30.txt")
        let header = Self.readmeLog.components(separatedBy: "\n\n")[0] + "\n\n"
        JavaCompanionFiles.crossCheck(&a, strokesFile: header + "1;24912044833416;24913597758916;373;175;326;366\n",
                                      keysFile: nil)
        #expect(!a.log.anomalies.anomalies.contains { $0.code == "W_COMPANION_MISMATCH" })
        JavaCompanionFiles.crossCheck(&a, strokesFile: header + "1;24912044833416;24913597758916;373;175;326;367\n",
                                      keysFile: header + "2;38;1;UP;Up;1;2;1\n")
        #expect(a.log.anomalies.anomalies.filter { $0.code == "W_COMPANION_MISMATCH" }.count == 2)
    }

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func javaStrokesViewsKeysAndEventsByHand() throws {
        let a = try SampleLogs.analysis(SampleLogs.java22Trial1)
        let strokes = InteractLogTables.strokes(a)
        // Stroke 1: lines 17/18, 58239644405506;480;170 → 58241052606016;760;168; first event 58227413905518.
        #expect(try ints(strokes, "down_line")[0] == 17 && ints(strokes, "up_line")[0] == 18)
        #expect(try ints(strokes, "down_id")[0] == 4 && ints(strokes, "up_id")[0] == 5)
        #expect(near(try doubles(strokes, "start_s")[0], 12.230499988))
        #expect(near(try doubles(strokes, "end_s")[0], 13.638700498))
        #expect(near(try doubles(strokes, "duration_ms")[0], 1408.20051))
        #expect(near(try doubles(strokes, "length_coord")[0], 78404.0.squareRoot()))
        #expect(try strings(strokes, "phase")[0] == "Familiarisation")
        #expect(try strings(strokes, "last_stimulus")[0] == "P1.png")
        #expect(try ints(strokes, "views_before")[0] == 1)
        // FamiliarisationOff at 58237416305777.
        #expect(near(try doubles(strokes, "since_last_off_s")[0], 2.228099729))
        #expect(try bools(strokes, "stimulus_visible")[0] == 0)
        // Stroke 2 starts 58241519806138: pause = (58241519806138 − 58241052606016) ns.
        #expect(near(try doubles(strokes, "pause_before_s")[1], 0.467200122))
        // Stroke 4 (line 27) follows the first S1 view: last_stimulus S1.png, its 1st view, Off at 58255325443969.
        #expect(try strings(strokes, "last_stimulus")[3] == "S1.png" && ints(strokes, "views_before")[3] == 1)
        #expect(near(try doubles(strokes, "since_last_off_s")[3], (58257158005787 - 58255325443969) / 1e9))
        #expect(try doubles(strokes, "force_mean")[0].isNaN)

        let views = InteractLogTables.stimulusViews(a)
        // View 2: StimulusOn_S1.png line 24 (58248817399833) → Off line 26 (58255325443969).
        #expect(try strings(views, "image")[1] == "S1.png" && ints(views, "on_line")[1] == 24 && ints(views, "off_line")[1] == 26)
        #expect(near(try doubles(views, "duration_s")[1], (58255325443969 - 58248817399833) / 1e9))
        #expect(try strings(views, "closed_by")[1] == "off" && ints(views, "view_of_image")[1] == 1)
        #expect(try ints(views, "view_of_image")[2] == 2)
        // Five strokes (lines 27–36) follow the first S1 view before the next On.
        #expect(try ints(views, "strokes_after")[1] == 5)

        let keys = InteractLogTables.keys(a)
        #expect(try strings(keys, "descr")[0] == "UP" && strings(keys, "role")[0] == "show")
        #expect(try ints(keys, "press_line")[0] == 23 && ints(keys, "release_line")[0] == 25)
        #expect(near(try doubles(keys, "hold_s")[0], (58255324905479 - 58248816605955) / 1e9))
        #expect(try strings(keys, "role")[2] == "next")
        #expect(try strings(keys, "status").last == "unpaired_press" && bools(keys, "ends_trial").last == 1)

        let events = InteractLogTables.events(a)
        #expect(events.rowCount == 60)
        #expect(try strings(events, "ts_raw")[0] == "58227413905518")
        #expect(try strings(events, "type")[0] == "stim_on" && strings(events, "phase")[0] == "Familiarisation")
        #expect(try doubles(events, "x_coord")[0].isNaN && doubles(events, "x_coord")[3] == 480)
        #expect(near(try doubles(events, "dt_s")[1], (58237416305777 - 58227413905518) / 1e9))
        #expect(try ints(events, "key_code")[9] == 38 && ints(events, "key_location")[9] == 1)

        let summary = InteractLogTables.stimulusSummary(a)
        #expect(try strings(summary, "image") == ["P1.png", "S1.png", "S2.png"])
        #expect(try ints(summary, "n_views") == [1, 2, 3])
        #expect(try ints(summary, "position") == [1, 1, 2])
    }

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func iPadStrokesWithPencilAndViewsByHand() throws {
        let a = try SampleLogs.analysis(SampleLogs.ipad11)
        #expect(a.sidecar?.status == "joined")
        let strokes = InteractLogTables.strokes(a)
        // Stroke 1: 003;1697547893517.195312;402.2;180.2 → 004;1697547894699.104980;780.9;183.2.
        #expect(near(try doubles(strokes, "duration_ms")[0], 1697547894699.104980 - 1697547893517.195312, 1e-6))
        #expect(near(try doubles(strokes, "start_s")[0], (1697547893517.195312 - 1697547878597.120850) / 1000, 1e-9))
        #expect(near(try doubles(strokes, "length_coord")[0], (378.7 * 378.7 + 3.0 * 3.0).squareRoot(), 1e-9))
        #expect(try strings(strokes, "coord_unit")[0] == "pt")
        // actions[5] is the pencilDrawing after up id 4; actions[3] the pen-down sample.
        #expect(try doubles(strokes, "force_mean")[0] == 0.8472542142291604)
        #expect(try doubles(strokes, "azimuth_mean_rad")[0] == 2.6480739726458085)
        #expect(try doubles(strokes, "altitude_mean_rad")[0] == 1.0798343726083512)
        #expect(try doubles(strokes, "pencil_x_mean_coord")[0] == 593.5696840340529)
        #expect(try doubles(strokes, "force_down")[0] == 0.8778785102705932)
        #expect(try doubles(strokes, "altitude_down_rad")[0] == 1.101134833726486)
        #expect(try doubles(strokes, "force_mean").allSatisfy { !$0.isNaN })

        let views = InteractLogTables.stimulusViews(a)
        #expect(views.rowCount == 5)
        #expect(near(try doubles(views, "t_on_s")[0], (1697547878615.214600 - 1697547878597.120850) / 1000, 1e-9))
        #expect(near(try doubles(views, "duration_s")[0], (1697547891003.528076 - 1697547878615.214600) / 1000, 1e-9))
        #expect(try ints(views, "view_of_image") == [1, 1, 2, 1, 3])

        let trials = InteractLogTables.trials(a)
        guard case .timestamp(let first) = try column(trials, "first_event_utc") else { Issue.record("type"); return }
        #expect(CellFormatting.timestamp(first[0]) == "2023-10-17T13:04:38.597Z")
        #expect(try ints(trials, "utc_offset_min") == [60])
        #expect(try strings(trials, "run_key") == ["6610E5B7-1005-4295-9B04-BD9A46F1454F"])
        #expect(try strings(trials, "phase_images") == ["Familiarisation:P1;Stimulus:S1;Stimulus:S2"])
        #expect(try strings(trials, "sidecar") == ["joined"])
        #expect(InteractLogTables.keys(a).rowCount == 0)

        let events = InteractLogTables.events(a)
        #expect(try strings(events, "ts_raw")[0] == "1697547878597.120850")
        #expect(try ints(events, "id")[4] == 4 && ints(events, "id")[5] == 6)
        #expect(try strings(events, "flags").allSatisfy { $0 == nil })
    }

    @Test(.enabled(if: SampleLogs.present, "SampleData/interactlog is absent"))
    func everyTableStartsWithSourceFileAndTheSpecColumns() throws {
        let a = try SampleLogs.analysis(SampleLogs.java22Trial2)
        let tables = InteractLogTables.tables(a)
        #expect(tables.map(\.name) == InteractLogTables.names)
        for table in tables { #expect(table.columnNames.first == "source_file", "\(table.name)") }
        #expect(tables[0].columnNames == ["source_file", "folder", "program", "variant", "app_version", "app_version_glued",
                                          "encoding", "line_ending", "participant", "participant_from_name", "trial",
                                          "trial_from_name", "run_key", "experiment_start_local", "trial_start_local",
                                          "trial_end_local", "header_duration_s", "stroke_colour", "background_colour",
                                          "stroke_width_coord", "pad_width_coord", "pad_height_coord", "coord_unit",
                                          "stimulus_files", "familiarisation_file", "input_mask_file", "phase_images",
                                          "n_events", "event_span_s", "first_event_utc", "utc_offset_min", "n_strokes",
                                          "n_unpaired_down", "n_unpaired_release", "n_duplicate_release", "n_views",
                                          "n_key_presses", "sidecar", "n_errors", "n_warnings"])
        #expect(tables[2].columnNames == ["source_file", "line", "seq", "id", "ts_raw", "t_s", "dt_s", "t_utc", "x_coord",
                                          "y_coord", "coord_unit", "event", "type", "phase", "image", "key_code",
                                          "key_descr", "key_location", "flags"])
        let events = tables[2]
        let flags = try strings(events, "flags")
        #expect(flags.filter { $0 == "duplicate_release" }.count == 7)
        let keys = tables[6]
        #expect(try strings(keys, "descr")[1] == "<U+FFFF>")
        let empty = InteractLogTables.emptyTables()
        #expect(empty.map(\.name) == InteractLogTables.names && empty.allSatisfy { $0.rowCount == 0 })
        #expect(zip(empty, tables).allSatisfy { $0.columnNames == $1.columnNames })
    }
}
