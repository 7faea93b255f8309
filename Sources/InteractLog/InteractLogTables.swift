import Foundation
import Tables

/// The output tables of `ilog-parse` (spec §5), one batch per log; every table starts with `source_file`.
public enum InteractLogTables {
    /// Every table, in output order.
    public static let names = ["trials", "header", "events", "strokes", "stimulus_views", "stimulus_summary", "keys",
                               "anomalies"]

    /// The HDF5 `unit` of coordinate columns, whose unit is in the row's `coord_unit`.
    static let coordUnit = "px|pt, see coord_unit"

    /// An int32 column; values outside its range (from absurd input) are missing rather than a trap.
    static func int32(_ name: String, _ values: [Int?], unit: String = "", description: String? = nil) -> Column {
        .int32(name, values.map { value in value.flatMap { $0 > Int(Int32.min) && $0 <= Int(Int32.max) ? $0 : nil } },
               unit: unit, description: description)
    }

    /// Every table with its columns and no rows (so that each exists even when no log succeeded).
    public static func emptyTables() -> [Table] {
        let log = ParsedLog(sourceFile: "", encoding: .utf8, lineEnding: .lf, header: LogHeader(), program: .java,
                            variant: "", events: LogEvents(program: .java, capacity: 0), timeOrigin: nil,
                            anomalies: AnomalyRecorder(sourceFile: ""))
        return tables(TrialAnalysis(log)).map(\.withoutRows)
    }

    /// The columns stored as fixed-width HDF5 strings (``Tables/Table/storingFixedWidth(_:)``) in the per-event
    /// tables, which hold most of a run's rows, by table: those whose longest value over the whole run is known
    /// before the first row is written.
    ///
    /// - every per-event table: `source_file` (the run's longest log path) and `coord_unit`;
    /// - `events`: `type` and `flags` (their longest possible values); `event`, `phase`, `image` and `key_descr`
    ///   (every event's name is one of its log's distinct names, so the longest is found from those), `ts_raw`
    ///   (``LogEvents/longestTimestampText``), and `t_utc` when every iPad time lies in the years 1–9999
    ///   (``Tables/CellFormatting/timestampRange``; Java logs have none).
    ///
    /// A column whose longest value is over ``Tables/Table/longestFixedWidth`` bytes stays variable-length.
    public static func fixedWidths(_ analyses: [TrialAnalysis]) -> [String: [String: Int]] {
        let shared = ["source_file": analyses.map(\.log.sourceFile.utf8.count).max() ?? 0,
                      "coord_unit": LogProgram.allCases.map(\.coordinateUnit.utf8.count).max() ?? 0]
        var longest = ["event": 0, "phase": 0, "image": 0, "key_descr": 0, "ts_raw": 0, "t_utc": 0]
        func note(_ column: String, _ text: String?) {
            if let text { longest[column] = max(longest[column] ?? 0, text.utf8.count) }
        }
        var timesInRange = true
        for analysis in analyses {
            let events = analysis.log.events
            for name in events.names {
                note("event", name.printable)
                note("phase", name.kind.stimulus?.phase)
                note("image", name.kind.stimulus?.image ?? nil)
                note("key_descr", name.kind.key?.descriptor.map(LogText.printable))
            }
            longest["ts_raw"] = max(longest["ts_raw"] ?? 0, events.longestTimestampText)
            if events.program == .ipad && timesInRange {
                timesInRange = events.indices.allSatisfy { index in
                    events.milliseconds(at: index).map { CellFormatting.spellsTimestampAtFixedWidth($0 / 1000) } ?? true
                }
            }
        }
        longest["t_utc"] = timesInRange ? CellFormatting.longestTimestampInRange : .max
        var events = shared.merging(["type": EventKind.EventType.allCases.map(\.rawValue.utf8.count).max() ?? 0,
                                     "flags": EventFlags.longestText]) { first, _ in first }
        for (column, width) in longest where width <= Table.longestFixedWidth { events[column] = width }
        return Dictionary(uniqueKeysWithValues: fixedWidthTables.map { ($0, $0 == "events" ? events : shared) })
    }

    /// The per-event tables (``fixedWidths(_:)``).
    public static let fixedWidthTables = ["header", "events", "strokes", "stimulus_views", "keys"]

    /// All tables of one analysed log, in the order of ``names``.
    public static func tables(_ analysis: TrialAnalysis) -> [Table] {
        names.indices.map { table($0, analysis, rows: 0..<(rowCount($0, analysis) ?? 0)) }
    }

    /// The number of rows table `index` of ``names`` has for one log; `nil` for the tables made whole
    /// (`trials`, `stimulus_summary`: a row per log, per image).
    public static func rowCount(_ index: Int, _ a: TrialAnalysis) -> Int? {
        switch names[index] {
        case "header": a.log.header.lines.count
        case "events": a.log.events.count
        case "strokes": a.strokes.count
        case "stimulus_views": a.viewRecords.count
        case "keys": a.keyRecords.count
        case "anomalies": a.log.anomalies.anomalies.count
        default: nil
        }
    }

    /// Rows `rows` of table `index` of ``names`` for one log (`trials` and `stimulus_summary` come whole).
    public static func table(_ index: Int, _ a: TrialAnalysis, rows: Range<Int>) -> Table {
        switch names[index] {
        case "trials": trials(a)
        case "header": header(a, rows: rows)
        case "events": events(a, rows: rows)
        case "strokes": strokes(a, rows: rows)
        case "stimulus_views": stimulusViews(a, rows: rows)
        case "keys": keys(a, rows: rows)
        case "anomalies": Table.anomalies(Array(a.log.anomalies.anomalies[rows]))
        default: stimulusSummary(a)
        }
    }

    /// `trials`: one row per log (spec §5.1).
    public static func trials(_ a: TrialAnalysis) -> Table {
        let log = a.log, header = log.header
        let unit = log.program.coordinateUnit
        let phaseImages = header.phases.flatMap { phase in phase.images.map { "\(phase.phase):\($0)" } }
        let views = a.viewRecords.reduce(0) { $0 + ($1.status != .unmatchedOff ? 1 : 0) }
        let presses = log.events.indices.reduce(0) { if case .keyPressed = log.events.kind(at: $1) { $0 + 1 } else { $0 } }
        return Table("trials", [
            .string("source_file", [log.sourceFile], description: "the input path as given"),
            .string("folder", [TrialAnalysis.parentFolder(log.sourceFile)], description: "the folder holding the log"),
            .string("program", [log.program.rawValue], description: "java (Java InteractLog) or ipad (InteractExperiment)"),
            .string("variant", [log.variant], description: "spec §2 variant code, detected from the file"),
            .string("app_version", [header.appVersion],
                    description: "the first App Version line verbatim (iPad; NA when absent)"),
            .bool("app_version_glued", [header.appVersionGlued], description: "App Version repeated after Trial End"),
            .string("encoding", [log.encoding.rawValue], description: "utf-8, or windows-1252 when the file is not valid UTF-8"),
            .string("line_ending", [log.lineEnding.rawValue], description: "lf, crlf, mixed or none"),
            .string("participant", [header.name], description: "the header's Name (authoritative)"),
            .string("participant_from_name", [a.identity?.participant], description: "the participant in the file name"),
            int32("trial", [header.trialNumber], description: "the header's Trial Number"),
            int32("trial_from_name", [a.identity?.trial], description: "the trial number in the file name"),
            .string("run_key", [a.runKey], description: "participant|stamp, or the iPad run UUID"),
            .localTimestamp("experiment_start_local", [header.experimentStart], description: "the header's Experiment Start"),
            .localTimestamp("trial_start_local", [header.trialStart], description: "the header's Trial Start"),
            .localTimestamp("trial_end_local", [header.trialEnd], description: "the header's Trial End"),
            .float("header_duration_s", [a.headerDuration], unit: "s", description: "Trial End − Trial Start of the header"),
            .string("stroke_colour", [header.strokeColour], description: "#RRGGBBAA"),
            .string("background_colour", [header.backgroundColour], description: "#RRGGBBAA"),
            .float("stroke_width_coord", [header.strokeWidth], unit: coordUnit, description: "the header's Stroke Width"),
            .float("pad_width_coord", [header.padWidth], unit: coordUnit,
                   description: "width of the drawing pad (header Drawing Pad Size)"),
            .float("pad_height_coord", [header.padHeight], unit: coordUnit,
                   description: "height of the drawing pad (header Drawing Pad Size)"),
            .string("coord_unit", [unit], description: "unit of the _coord columns: px (Java) or pt (iPad)"),
            .string("stimulus_files", [header.stimulusFiles.isEmpty ? nil : header.stimulusFiles.joined(separator: ";")],
                    description: "the Stimulus File(s) list, ;-joined"),
            .string("familiarisation_file", [header.familiarisationFile],
                    description: "the Familiarisation File(s), ;-joined (NA when empty)"),
            .string("input_mask_file", [header.inputMaskFile], description: "the header's Input Mask File (NA when empty)"),
            .string("phase_images", [phaseImages.isEmpty ? nil : phaseImages.joined(separator: ";")],
                    description: "phase:image pairs in presentation order"),
            int32("n_events", [log.events.count], description: "event lines parsed"),
            .float("event_span_s", [a.eventSpan], unit: "s", description: "t_s of the last event"),
            .timestamp("first_event_utc", [a.firstEventUTC], description: "iPad: the first event's epoch time"),
            int32("utc_offset_min", [a.utcOffsetMinutes], unit: "min",
                  description: "iPad: trial_start_local − UTC of the trial start, rounded to 15 min"),
            int32("n_strokes", [a.count(.paired)], description: "paired strokes"),
            int32("n_unpaired_down", [a.count(.unpairedDown)], description: "strokes with a press and no release"),
            int32("n_unpaired_release", [a.count(.unpairedRelease)], description: "releases without an open press"),
            int32("n_duplicate_release", [a.duplicateReleases],
                  description: "duplicate ButtonReleased events (flagged, not paired)"),
            int32("n_views", [views], description: "stimulus views that have an On"),
            int32("n_key_presses", [presses], description: "key_pressed events"),
            .string("sidecar", [log.program == .ipad ? (a.sidecar?.status ?? "absent") : nil],
                    description: "iPad InteractLog.json: joined, mismatch or absent"),
            int32("n_errors", [log.anomalies.count(.error)], description: "anomalies of the log with severity error"),
            int32("n_warnings", [log.anomalies.count(.warning)], description: "anomalies of the log with severity warning"),
        ])
    }

    /// `header`: every header line, lossless (spec §5.2).
    public static func header(_ a: TrialAnalysis, rows: Range<Int>? = nil) -> Table {
        let lines = a.log.header.lines[rows ?? a.log.header.lines.indices]
        return Table("header", [
            .string("source_file", lines.map { _ in a.log.sourceFile }, description: "the input path as given"),
            int32("line", lines.map(\.line), description: "1-based line in the file"),
            .string("label", lines.map { LogText.printable($0.label) }, description: "the text before the first ':', trimmed"),
            .string("value", lines.map { LogText.printable($0.value) }, description: "the text after the first ':', trimmed"),
            int32("label_width", lines.map(\.labelWidth), unit: "characters",
                  description: "characters before the ':', padding included"),
        ])
    }

    /// `events`: one row per event line (spec §5.3); `rows` of them.
    public static func events(_ a: TrialAnalysis, rows: Range<Int>? = nil) -> Table {
        let log = a.log, events = log.events
        let rows = rows ?? events.indices
        let n = rows.count
        let times = log.times
        let dt: [Double?] = rows.map { index in
            guard index > 0, let now = times[index], let before = times[index - 1] else { return nil }
            return now - before
        }
        let timed = !events.isEmpty && times[0] != nil
        let utc: [Double?] = log.program == .ipad && timed
            ? rows.map { events.milliseconds(at: $0).map { $0 / 1000 } } : Array(repeating: nil, count: n)
        let unit = log.program.coordinateUnit
        let names = rows.map(events.name(at:))
        let isButton = names.map(\.kind.isButton)
        return Table("events", [
            .string("source_file", Array(repeating: log.sourceFile, count: n), description: "the input path as given"),
            int32("line", rows.map(events.line(at:)), description: "1-based line in the file"),
            int32("seq", rows.map { $0 + 1 }, description: "1, 2, … in the log"),
            .int64("id", rows.map(events.id(at:)), description: "the event id as a number"),
            .string("ts_raw", rows.map(events.timestampText(at:)), description: "the timestamp as written: Java ns, iPad epoch ms"),
            .float("t_s", rows.map { times[$0] }, unit: "s", description: "time since the first event line"),
            .float("dt_s", dt, unit: "s", description: "time since the previous event"),
            .timestamp("t_utc", utc, description: "iPad: the event's epoch time"),
            .float("x_coord", zip(rows, isButton).map { $1 ? events.x(at: $0) : nil }, unit: coordUnit,
                   description: "x of a button event (NA for other events)"),
            .float("y_coord", zip(rows, isButton).map { $1 ? events.y(at: $0) : nil }, unit: coordUnit,
                   description: "y of a button event (NA for other events)"),
            .string("coord_unit", Array(repeating: unit, count: n),
                    description: "unit of the _coord columns: px (Java) or pt (iPad)"),
            .string("event", names.map(\.printable),
                    description: "the event field as written (control characters as <U+XXXX>)"),
            .string("type", names.map(\.kind.type),
                    description: "event kind: drawing_enabled, button_down/_released, key_pressed/_released, stim_on, stim_off, other"),
            .string("phase", names.map { $0.kind.stimulus?.phase }, description: "phase of a stimulus event"),
            .string("image", names.map { $0.kind.stimulus?.image }, description: "image of a stimulus event"),
            int32("key_code", names.map { $0.kind.key?.code }, description: "Java key code of a key event"),
            .string("key_descr", names.map { $0.kind.key?.descriptor.map(LogText.printable) },
                    description: "key descriptor of a key event (UP, RETURN, <U+FFFF>…)"),
            int32("key_location", names.map { $0.kind.key?.location },
                   description: "0 unknown, 1 standard, 2 left, 3 right, 4 numpad"),
            .string("flags", rows.map { events.flags(at: $0).isEmpty ? nil : events.flags(at: $0).names.joined(separator: ";") },
                    description: "duplicate_release, duplicate_on, outside_pad, id_gap, ts_backwards, ;-joined"),
        ])
    }

    /// `strokes`: paired and unpaired button rows with their stimulus context and, joined, pencil values (§5.4);
    /// `rows` of them.
    public static func strokes(_ a: TrialAnalysis, rows: Range<Int>? = nil) -> Table {
        let strokes = (rows ?? a.strokes.indices).map { a.strokes[$0] }
        return Table("strokes", strokeEndpointColumns(a, strokes, previous: (rows?.first).flatMap { $0 > 0 ? a.strokes[$0 - 1] : nil })
                     + strokeContextColumns(a, strokes) + strokePencilColumns(a, strokes))
    }

    /// The `strokes` columns from `source_file` to `pause_before_s`: the press and release, their lines, ids,
    /// times and points. `previous` is the stroke before the first (for its pause).
    private static func strokeEndpointColumns(_ a: TrialAnalysis, _ strokes: [Stroke], previous: Stroke?) -> [Column] {
        let log = a.log, events = log.events
        func time(_ index: Int?) -> Double? { index.flatMap(log.time(at:)) }
        func line(_ index: Int?) -> Int? { index.map(events.line(at:)) }
        func id(_ index: Int?) -> Int? { index.map(events.id(at:)) }
        let starts = strokes.map { time($0.downIndex) }
        let ends = strokes.map { time($0.upIndex) }
        let previousEnd = previous.flatMap { time($0.upIndex) }
        let pauses: [Double?] = strokes.indices.map { index in
            guard let start = starts[index], let end = index > 0 ? ends[index - 1] : previousEnd else { return nil }
            return start - end
        }
        let unit = log.program.coordinateUnit
        return [
            .string("source_file", strokes.map { _ in log.sourceFile }, description: "the input path as given"),
            int32("stroke", strokes.map(\.stroke), description: "1, 2, … by first line"),
            .string("status", strokes.map(\.status.rawValue), description: "paired, unpaired_down or unpaired_release"),
            int32("down_line", strokes.map { line($0.downIndex) }, description: "line of the ButtonDown"),
            int32("up_line", strokes.map { line($0.upIndex) }, description: "line of the ButtonReleased"),
            .int64("down_id", strokes.map { id($0.downIndex) }, description: "event id of the ButtonDown"),
            .int64("up_id", strokes.map { id($0.upIndex) }, description: "event id of the ButtonReleased"),
            .float("start_s", starts, unit: "s", description: "press time on the t_s scale"),
            .float("end_s", ends, unit: "s", description: "release time on the t_s scale"),
            .float("duration_ms", strokeDurations(a, strokes), unit: "ms",
                   description: "release − press from the raw timestamps (Java ns ÷ 1e6, iPad ms)"),
            .float("x_start_coord", strokes.map { $0.downIndex.map(events.x(at:)) }, unit: coordUnit,
                   description: "x of the press"),
            .float("y_start_coord", strokes.map { $0.downIndex.map(events.y(at:)) }, unit: coordUnit,
                   description: "y of the press"),
            .float("x_end_coord", strokes.map { $0.upIndex.map(events.x(at:)) }, unit: coordUnit,
                   description: "x of the release"),
            .float("y_end_coord", strokes.map { $0.upIndex.map(events.y(at:)) }, unit: coordUnit,
                   description: "y of the release"),
            .float("length_coord", strokeLengths(a, strokes), unit: coordUnit, description: "straight-line distance between the end points"),
            .string("coord_unit", strokes.map { _ in unit }, description: "unit of the _coord columns: px (Java) or pt (iPad)"),
            .float("pause_before_s", pauses, unit: "s", description: "start_s − the previous row's end_s"),
        ]
    }

    /// Release − press of each paired stroke in ms, from the raw timestamps.
    private static func strokeDurations(_ a: TrialAnalysis, _ strokes: [Stroke]) -> [Double?] {
        strokes.map { stroke in
            guard let down = stroke.downIndex, let up = stroke.upIndex else { return nil }
            return a.log.milliseconds(from: down, to: up)
        }
    }

    /// The straight-line distance between each paired stroke's end points.
    private static func strokeLengths(_ a: TrialAnalysis, _ strokes: [Stroke]) -> [Double?] {
        let events = a.log.events
        return strokes.map { stroke in
            guard let down = stroke.downIndex, let up = stroke.upIndex else { return nil }
            let dx = events.x(at: up) - events.x(at: down), dy = events.y(at: up) - events.y(at: down)
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// The `strokes` columns from `phase` to `events_within`: the stimulus context at the anchor.
    private static func strokeContextColumns(_ a: TrialAnalysis, _ strokes: [Stroke]) -> [Column] {
        let log = a.log
        let sinceOff: [Double?] = strokes.map { stroke in
            guard let off = stroke.context.lastOffIndex, let anchor = log.time(at: stroke.anchorIndex),
                  let offTime = log.time(at: off) else { return nil }
            return anchor - offTime
        }
        return [
            .string("phase", strokes.map(\.context.phase),
                    description: "phase of the latest stim_on/stim_off before the anchor (the press, or the release if unpaired)"),
            .string("last_stimulus", strokes.map(\.context.lastStimulus),
                    description: "image of the latest stim_on before the anchor"),
            .string("last_stimulus_phase", strokes.map(\.context.lastStimulusPhase), description: "phase of last_stimulus"),
            int32("views_before", strokes.map(\.context.viewsBefore), description: "On count of last_stimulus before the anchor"),
            .float("since_last_off_s", sinceOff, unit: "s", description: "anchor − the latest stim_off"),
            .bool("stimulus_visible", strokes.map(\.context.stimulusVisible),
                  description: "a stimulus view is open at the anchor"),
            int32("events_within", strokes.map(\.eventsWithin), description: "non-mouse events between press and release"),
        ]
    }

    /// The `strokes` columns from `force_mean` on: the iPad sidecar's pencil values joined by stroke.
    private static func strokePencilColumns(_ a: TrialAnalysis, _ strokes: [Stroke]) -> [Column] {
        let pencil = strokes.map { a.sidecar?.pencil[$0.stroke] }
        return [
            .float("force_mean", pencil.map { $0?.forceMean }, unit: "1",
                   description: "iPad sidecar: mean Pencil force over the stroke's move samples"),
            .float("azimuth_mean_rad", pencil.map { $0?.azimuthMean }, unit: "rad",
                   description: "iPad sidecar: mean Pencil azimuth over the stroke's move samples"),
            .float("altitude_mean_rad", pencil.map { $0?.altitudeMean }, unit: "rad",
                   description: "iPad sidecar: mean Pencil altitude over the stroke's move samples"),
            .float("pencil_x_mean_coord", pencil.map { $0?.xMean }, unit: coordUnit,
                   description: "iPad sidecar: mean Pencil x over the stroke's move samples"),
            .float("pencil_y_mean_coord", pencil.map { $0?.yMean }, unit: coordUnit,
                   description: "iPad sidecar: mean Pencil y over the stroke's move samples"),
            .float("force_down", pencil.map { $0?.forceDown }, unit: "1", description: "force / sin(altitude) at pen-down, as the app stores it"),
            .float("azimuth_down_rad", pencil.map { $0?.azimuthDown }, unit: "rad",
                   description: "iPad sidecar: Pencil azimuth at pen-down"),
            .float("altitude_down_rad", pencil.map { $0?.altitudeDown }, unit: "rad",
                   description: "iPad sidecar: Pencil altitude at pen-down"),
        ]
    }

    /// `stimulus_views`: viewing intervals (spec §5.5).
    public static func stimulusViews(_ a: TrialAnalysis, rows: Range<Int>? = nil) -> Table {
        let all = a.views, events = a.log.events
        let views = (rows ?? all.indices).map { all[$0] }
        return Table("stimulus_views", [
            .string("source_file", views.map { _ in a.log.sourceFile }, description: "the input path as given"),
            int32("view", views.map(\.view), description: "1, 2, … over every row, unmatched Offs included"),
            .string("phase", views.map(\.phase), description: "phase of the stimulus"),
            .string("image", views.map(\.image), description: "image shown"),
            .string("status", views.map(\.status.rawValue), description: "closed, open_at_end or unmatched_off"),
            .string("closed_by", views.map { $0.closedBy?.rawValue }, description: "off, off_mismatch, next_on or end_of_file"),
            int32("on_line", views.map { $0.onIndex.map(events.line(at:)) }, description: "line of the On event"),
            int32("off_line", views.map { $0.offIndex.map(events.line(at:)) },
                  description: "line of the Off event (NA if none)"),
            .float("t_on_s", views.map(\.onTime), unit: "s", description: "On time on the t_s scale"),
            .float("t_off_s", views.map(\.offTime), unit: "s",
                   description: "Off time on the t_s scale (the last event's for open_at_end)"),
            .float("duration_s", views.map(\.duration), unit: "s", description: "t_off_s − t_on_s"),
            int32("view_of_image", views.map(\.viewOfImage), description: "1…k per phase and image (NA for unmatched Offs)"),
            int32("strokes_after", views.map(\.strokesAfter),
                  description: "strokes anchored after the view's Off and before the next stim_on (0 if open at the end)"),
        ])
    }

    /// `stimulus_summary`: per phase and image, listed ones first in header order (spec §5.6). Views and strokes
    /// are gathered per phase and image in one pass each.
    public static func stimulusSummary(_ a: TrialAnalysis) -> Table {
        struct Row { var phase: String; var image: String?; var listed: Bool; var position: Int? }
        typealias Key = TrialAnalysis.StimulusKey
        var rows: [Row] = []
        var known: Set<Key> = []
        for phase in a.log.header.phases {
            for (position, image) in phase.images.enumerated() {
                rows.append(Row(phase: phase.phase, image: image, listed: true, position: position + 1))
                known.insert(Key(phase: phase.phase, image: image))
            }
        }
        let views = a.views
        struct Viewing { var count = 0; var durations = 0; var total = 0.0; var firstOn: Double?? }
        var viewings: [Key: Viewing] = [:]
        for view in views {
            let key = Key(phase: view.phase, image: view.image)
            if known.insert(key).inserted {
                rows.append(Row(phase: view.phase, image: view.image, listed: false, position: nil))
            }
            guard view.status != .unmatchedOff else { continue }
            var viewing = viewings[key, default: Viewing()]
            viewing.count += 1
            if viewing.firstOn == nil { viewing.firstOn = .some(view.onTime) }
            if let duration = view.duration {
                viewing.total += duration
                viewing.durations += 1
            }
            viewings[key] = viewing
        }
        var strokesPerContext = [Int](repeating: 0, count: a.strokes.contexts.count)
        for record in a.strokes.records { strokesPerContext[Int(record.context)] += 1 }
        var strokesPerKey: [Key: Int] = [:]
        for (index, context) in a.strokes.contexts.enumerated() where strokesPerContext[index] > 0 {
            guard let phase = context.lastStimulusPhase else { continue }
            strokesPerKey[Key(phase: phase, image: context.lastStimulus), default: 0] += strokesPerContext[index]
        }
        let perRow = rows.map { viewings[Key(phase: $0.phase, image: $0.image)] ?? Viewing() }
        return Table("stimulus_summary", [
            .string("source_file", rows.map { _ in a.log.sourceFile }, description: "the input path as given"),
            .string("phase", rows.map(\.phase), description: "phase of the image"),
            .string("image", rows.map(\.image), description: "image file name"),
            .bool("listed", rows.map(\.listed), description: "listed in the header"),
            int32("position", rows.map(\.position), description: "1-based position in the header's list"),
            int32("n_views", perRow.map(\.count), description: "views of the image in the phase"),
            .float("total_view_s", perRow.map(\.total), unit: "s", description: "sum of the views' duration_s"),
            .float("mean_view_s", perRow.map { $0.durations == 0 ? nil : $0.total / Double($0.durations) }, unit: "s",
                   description: "mean of the views' duration_s (NA without views)"),
            .float("first_on_s", perRow.map { $0.firstOn ?? nil }, unit: "s", description: "t_on_s of the first view"),
            int32("n_strokes", rows.map { strokesPerKey[Key(phase: $0.phase, image: $0.image)] ?? 0 },
                  description: "strokes whose last_stimulus is this image"),
        ])
    }

    /// `keys`: press/release pairs (spec §5.7).
    public static func keys(_ a: TrialAnalysis, rows: Range<Int>? = nil) -> Table {
        let all = a.keys, log = a.log
        let keys = (rows ?? all.indices).map { all[$0] }
        func time(_ index: Int?) -> Double? { index.flatMap(log.time(at:)) }
        let holds: [Double?] = keys.map { key in
            guard let press = key.pressIndex, let release = key.releaseIndex,
                  let ms = log.milliseconds(from: press, to: release) else { return nil }
            return ms / 1000
        }
        return Table("keys", [
            .string("source_file", keys.map { _ in log.sourceFile }, description: "the input path as given"),
            int32("key", keys.map(\.key), description: "1, 2, … in file order"),
            .string("status", keys.map(\.status.rawValue), description: "paired, unpaired_press or unpaired_release"),
            int32("code", keys.map(\.code), description: "Java key code"),
            .string("descr", keys.map { $0.descriptor.map(LogText.printable) },
                    description: "key descriptor of the press (UP, RETURN, <U+001B>…)"),
            .string("descr_release", keys.map { $0.releaseDescriptor.map(LogText.printable) },
                    description: "key descriptor of the release, only where it differs from descr"),
            int32("location", keys.map(\.location), description: "0 unknown, 1 standard, 2 left, 3 right, 4 numpad"),
            .string("role", keys.map(\.role), description: "show, next, previous, hide, end, return or other"),
            int32("press_line", keys.map { $0.pressIndex.map(log.events.line(at:)) }, description: "line of the key press"),
            int32("release_line", keys.map { $0.releaseIndex.map(log.events.line(at:)) },
                  description: "line of the key release"),
            .float("t_press_s", keys.map { time($0.pressIndex) }, unit: "s", description: "press time on the t_s scale"),
            .float("t_release_s", keys.map { time($0.releaseIndex) }, unit: "s", description: "release time on the t_s scale"),
            .float("hold_s", holds, unit: "s", description: "release − press from the raw timestamps"),
            .bool("ends_trial", keys.map(\.endsTrial),
                  description: "the final ESC or RETURN press, or a Ctrl press just before a final RETURN"),
        ])
    }

    /// `anomalies`: the shared table (spec §5.8).
    public static func anomalies(_ a: TrialAnalysis) -> Table { Table.anomalies(a.log.anomalies.anomalies) }
}
