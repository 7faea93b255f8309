import Tables

/// The output tables of `nt-analyze` (spec §2.7), built from one or more analysed files.
public enum SaveFileTables {
    /// Every table name, in output order.
    public static let names = ["messages", "modes", "trials", "samples", "stimuli", "summary", "anomalies"]

    /// The channel columns for a set of files: `ch1_uv` … `chN_uv` for the largest N.
    public static func channelCount(_ analyses: [SaveFileAnalysis]) -> Int {
        analyses.map { $0.file.channelCount ?? 0 }.max() ?? 0
    }

    /// The object columns for a set of files: the sorted union of their objIDs.
    public static func objectIDs(_ analyses: [SaveFileAnalysis]) -> [Int] {
        Set(analyses.flatMap(\.stimuli.objectIDs)).sorted()
    }

    /// `messages`: one row per (NAME, client) in order of first appearance, unknown NAMEs included.
    public static func messages(_ analysis: SaveFileAnalysis) -> Table {
        struct Entry { var name: String; var client: Int; var count = 0; var first = 0; var last = 0; var fallbacks = 0 }
        var entries: [Entry] = []
        var index: [String: Int] = [:]
        let file = analysis.file
        for (position, message) in file.messages.enumerated() {
            let key = "\(message.client)\u{0}\(message.name)"
            let at: Int
            if let known = index[key] { at = known } else {
                at = entries.count
                index[key] = at
                entries.append(Entry(name: message.name, client: message.client, first: message.line))
            }
            entries[at].count += 1
            entries[at].last = message.line
            if analysis.times.stsFallback[position] { entries[at].fallbacks += 1 }
        }
        return Table("messages", [
            .string("source_file", entries.map { _ in file.sourceFile }, description: "the input path as given"),
            .string("name", entries.map(\.name), description: "message NAME as logged (t:…)"),
            .string("client", entries.map { file.clients[$0.client] }, description: "sending client (after \" <-\")"),
            .int64("count", entries.map(\.count), unit: "1", description: "messages of this NAME from this client"),
            .int64("first_line", entries.map(\.first), description: "physical line of the first such message"),
            .int64("last_line", entries.map(\.last), description: "physical line of the last such message"),
            .int64("sts_fallbacks", entries.map(\.fallbacks), unit: "1",
                 description: "messages whose |sts − rts| > 1000 ms, timed by rts (W_STS)"),
        ])
    }

    /// `modes`: the MODECHANGE timeline; `duration_s` runs to the next mode change or the last message.
    public static func modes(_ analysis: SaveFileAnalysis) -> Table {
        let changes = analysis.modeChanges
        let endMs = analysis.times.tMs.max() ?? 0
        let durations: [Double?] = changes.indices.map { index in
            let next = index + 1 < changes.count ? changes[index + 1].tMs : endMs
            return Double(next - changes[index].tMs) / 1000
        }
        return Table("modes", [
            .string("source_file", changes.map { _ in analysis.file.sourceFile }, description: "the input path as given"),
            .int64("seq", Array(changes.indices), description: "0-based number of the MODECHANGE"),
            .int64("line", changes.map(\.line), description: "physical line of the MODECHANGE"),
            .int64("t_ms", changes.map { Int($0.tMs) }, unit: "ms", description: "unwrapped hub time (sts, or rts under W_STS)"),
            .float("t_s", changes.map { analysis.times.seconds(Double($0.tMs)) }, unit: "s",
                   description: "seconds since the first line's rts"),
            .string("mode", changes.map(\.mode), description: "the mode text as logged"),
            .float("duration_s", durations, unit: "s", description: "until the next MODECHANGE or the last message"),
        ])
    }

    /// `trials`: one row per trial (spec §2.5–2.6), then `code_agreement`.
    public static func trials(_ analysis: SaveFileAnalysis) -> Table {
        let trials = analysis.trials
        return Table("trials", [
            .string("source_file", trials.map { _ in analysis.file.sourceFile }, description: "the input path as given"),
            .int64("trial", trials.map(\.index), description: "0-based trial number"),
            .string("phase", trials.map(\.phase), description: "calibration, prediction or other (from the mode)"),
            .string("mode", trials.map(\.mode), description: "the last MODECHANGE at or before the first frame"),
            .int64("first_line", trials.map(\.firstLine), description: "physical line of the trial's first frame"),
            .int64("t_start_ms", trials.map { Int($0.startMs) }, unit: "ms", description: "first frame, unwrapped hub time"),
            .float("t_start_s", trials.map { analysis.times.seconds(Double($0.startMs)) }, unit: "s",
                   description: "first frame, seconds since the first line's rts"),
            .int64("duration_ms", trials.map { Int($0.durationMs) }, unit: "ms", description: "last − first frame"),
            .int64("n_frames", trials.map(\.frameCount), unit: "1", description: "STIMULUSEVENT messages"),
            .int64("n_objects", trials.map(\.objectIDs.count), unit: "1", description: "objIDs reported in the trial"),
            .string("objids", trials.map { $0.objectIDs.map(String.init).joined(separator: ";") },
                    description: "objIDs reported in the trial, ;-joined"),
            .int64("cued_target", trials.map(\.cuedTarget), description: "the objID ≠ 0 whose states match objID 0"),
            .float("cue_agreement", trials.map(\.cueAgreement), unit: "1",
                   description: "share of frames where the best object's state equals objID 0's"),
            .int64("selected", trials.map(\.selected), description: "first SELECTION id of the trial"),
            .bool("correct", trials.map(\.correct), description: "selected == cued_target (NA unless both are known)"),
            .int64("time_to_selection_ms", trials.map { $0.timeToSelectionMs.map(Int.init) }, unit: "ms",
                   description: "selection − first frame"),
            .int64("sel_after_last_frame_ms", trials.map { $0.selectionAfterLastFrameMs.map(Int.init) }, unit: "ms",
                   description: "selection − last frame"),
            .int64("online_yest", trials.map(\.onlineYest), description: "Yest of the last PREDICTEDTARGETPROB before the selection"),
            .float("online_perr", trials.map(\.onlinePerr), unit: "1", description: "its Perr (probability Yest is wrong)"),
            .float("code_agreement", trials.map(\.codeAgreement), unit: "1",
                   description: "share of frames where the cued object's state equals its code column (frame mod period)"),
        ])
    }

    /// `samples`: one row per EEG sample, `ch1_uv` … `ch<channels>_uv` (NaN beyond the file's channels); `rows`
    /// of them.
    public static func samples(_ analysis: SaveFileAnalysis, channels: Int, rows: Range<Int>? = nil) -> Table {
        let file = analysis.file
        let rows = rows ?? 0..<file.sampleCount
        let count = rows.count
        let own = file.channelCount ?? 0
        let sampleMs = analysis.timeline.sampleMs[rows]
        var columns: [Column] = [
            .string("source_file", Array(repeating: file.sourceFile, count: count), description: "the input path as given"),
            .int64("sample", Array(rows), description: "0-based sample number in the file"),
            .float("t_ms", Array(sampleMs), unit: "ms", description: "per-sample time (spec §2.2, rule in summary.timestamp_rule)"),
            .float("t_s", sampleMs.map { analysis.times.seconds($0) }, unit: "s",
                   description: "t_ms as seconds since the first line's rts"),
        ]
        for channel in 0..<channels {
            var values = [Float](repeating: .nan, count: count)
            if channel < own {
                file.sampleValues.withUnsafeBufferPointer { all in
                    for (row, sample) in rows.enumerated() { values[row] = all[sample * own + channel] }
                }
            }
            columns.append(Column("ch\(channel + 1)_uv", unit: "µV",
                                  description: "EEG of channel \(channel + 1) (NaN beyond the file's channels)",
                                  .float32(values)))
        }
        return Table("samples", columns)
    }

    /// `stimuli`: one row per STIMULUSEVENT with the latched state of each object in `objectIDs`
    /// (missing for objects the file does not have).
    public static func stimuli(_ analysis: SaveFileAnalysis, objectIDs: [Int], rows: Range<Int>? = nil) -> Table {
        let stimuli = analysis.stimuli
        let rows = rows ?? 0..<stimuli.eventCount
        let count = rows.count
        var columns: [Column] = [
            .string("source_file", Array(repeating: analysis.file.sourceFile, count: count), description: "the input path as given"),
            .int64("event", Array(rows), description: "0-based STIMULUSEVENT number"),
            .int64("t_ms", stimuli.eventMs[rows].map { Int($0) }, unit: "ms", description: "unwrapped hub time"),
        ]
        for objectID in objectIDs {
            let column = stimuli.column(of: objectID)
            let values: [Int?] = rows.map { event in column.map { Int(stimuli.state(event: event, column: $0)) } }
            columns.append(.int32("obj\(objectID)", values, unit: "1", description: "latched stimulus state of objID \(objectID)"))
        }
        return Table("stimuli", columns)
    }

    /// `summary`: one row per file.
    public static func summary(_ analysis: SaveFileAnalysis) -> Table {
        let timeline = analysis.timeline
        let file = analysis.file
        return Table("summary", [
            .string("source_file", [file.sourceFile], description: "the input path as given"),
            .int64("n_lines", [file.lineCount], unit: "1", description: "physical lines (a final line without newline counts)"),
            .int64("n_messages", [file.messages.count], unit: "1", description: "messages parsed"),
            .int64("n_packets", [timeline.packetSampleCounts.count], unit: "1", description: "DATAPACKET messages"),
            .int64("n_samples", [file.sampleCount], unit: "1", description: "EEG samples"),
            .int64("n_events", [analysis.stimuli.eventCount], unit: "1", description: "STIMULUSEVENT messages"),
            .int64("n_trials", [analysis.trials.count], unit: "1", description: "trials found"),
            .float("fs_est_hz", [timeline.fsEstimated], unit: "Hz", description: "sampling rate estimated from the packet times"),
            .float("fs_nominal_hz", [timeline.fsNominal], unit: "Hz",
                   description: "the standard rate within 1 % of fs_est_hz, else fs_est_hz"),
            .int64("n_channels", [file.channelCount], unit: "1", description: "EEG channels, from the packets"),
            .float("header_fs", [analysis.header?.fs], description: "DATAHEADER fs as logged (often the channel count, T1)"),
            .int64("header_nch", [analysis.header?.channelCount], description: "DATAHEADER ch as logged (often the rate, T1)"),
            .bool("header_swapped", [analysis.header?.swapped], description: "the DATAHEADER has fs and ch swapped (T1)"),
            .string("clock", [analysis.options.clock.rawValue], description: "message clock: sts or rts (--clock)"),
            .string("timestamp_rule", [analysis.options.timestampRule.rawValue],
                    description: "per-sample time rule: interp or pymindaffect (--timestamps)"),
            .int64("first_packet_samples", [timeline.packetSampleCounts.first], unit: "1", description: "samples in the first packet"),
            .float("packet_samples_median", [timeline.packetSamplesMedian], unit: "1", description: "median samples per packet"),
            .int64("packet_samples_max", [timeline.packetSampleCounts.max()], unit: "1", description: "most samples in one packet"),
            .int64("zero_advance_packets", [timeline.zeroAdvancePackets], unit: "1", description: "packets whose time does not advance"),
            .float("sts_step_median_ms", [timeline.packetStepMedianMs], unit: "ms", description: "median step between packet times"),
            .float("code_agreement", [analysis.codeAgreement], unit: "1",
                   description: "share of (trial, frame, object ≥ 1) cells equal to code objID−1 at frame mod period"),
        ])
    }

    /// `anomalies`: the shared table.
    public static func anomalies(_ analysis: SaveFileAnalysis) -> Table { Table.anomalies(analysis.anomalies) }
}
