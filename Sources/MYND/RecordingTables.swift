import Foundation
import HDF5
import Spectral
import Tables

/// The per-recording tables of spec §8: `recordings`, `events`, `epochs`, `band_power`, `quality`,
/// `quality_summary`. Every one starts with `source_file, subject_id`.
public enum RecordingTables {
    /// The attributes the `recordings` columns cover; the others go to `other_attributes`.
    static let coveredAttributes: Set<String> = [
        "/Recording@Session", "/Recording@Run", "/Recording@Version", "/Recording@subjectID", "/Recording@day",
        "/Recording@sessionID", "/Recording@runID", "/Recording@device", "/Recording@samplingRate",
        "/Recording@channelCount", "/Recording@channelNames", "/Recording@fittingTime", "/Recording@recordingTime",
        "/Recording@recordingStartTime", "/Recording@recordingEndTime", "/Recording@sessionStartTime",
        "/Recording@locale", "/Paradigm@Paradigm", "/Paradigm@BaseTime", "/Paradigm@TrialTime",
        "/Paradigm@ConditionCount",
    ]

    /// The block of each recording: its rank by runID among the run's recordings of the same subject and
    /// session (spec §7.3), 1-based.
    public static func blocks(_ recordings: [MYNDRecording]) -> [Int] {
        recordings.map { recording in
            let peers = recordings.filter { $0.subjectID == recording.subjectID && $0.sessionID == recording.sessionID }
            return peers.filter { ($0.runID ?? 0) < (recording.runID ?? 0) }.count + 1
        }
    }

    static func joined<T>(_ values: [T]) -> String { values.map { "\($0)" }.joined(separator: ";") }

    /// One row per recording file.
    public static func recordings(_ analyses: [RecordingAnalysis], blocks: [Int], dateOrders: [DateOrder]) -> Table {
        let r = analyses.map(\.recording)
        func utc(_ time: KeyPath<MYNDRecording, LocalizedTime?>) -> [Double?] {
            r.indices.map { r[$0][keyPath: time]?.utcSeconds(resolved: dateOrders[$0]) }
        }
        let counts = analyses.map(\.sampleCount)
        let tsRate: [Double?] = r.indices.map { i in
            guard let first = r[i].firstTimestampUTC, let last = r[i].lastTimestampUTC, last > first, counts[i] > 1
            else { return nil }
            return Double(counts[i] - 1) / (last - first)
        }
        let declaredCount: [Int?] = r.map { recording in
            recording.attributes.first { $0.name == "channelCount" }.flatMap { Int($0.text) }
        }
        return Table("recordings", [
            .string("source_file", r.map(\.sourceFile), description: "the input path as given"),
            .string("subject_id", r.map(\.subjectID), description: "the subject's UUID"),
            .bool("encrypted", r.map { _ in false }, description: "encrypted files are not read (see --check-protocol)"),
            .string("scenario", r.map(\.scenario), description: "the /Paradigm attribute Paradigm, else the name's"),
            .int64("day", r.map(\.day), description: "study day, 1-based"),
            .int64("session_id", r.map(\.sessionID), description: "/Recording@Session"),
            .int64("run_id", r.map(\.runID), description: "/Recording@Run"),
            .int64("block", blocks, description: "rank by run_id among this run's files of the subject and session"),
            .int64("version", r.map(\.version), description: "format Version"),
            .string("device", r.map(\.device), description: "muse, or oscillator (synthetic)"),
            .bool("synthetic", r.map { $0.device == "oscillator" }, description: "the oscillator test source"),
            .float("sampling_rate_hz", r.map(\.samplingRate), unit: "Hz", description: "the samplingRate attribute"),
            .int64("channel_count", r.map(\.channelNames.count), description: "channels in /Recording/Data"),
            .int64("channel_count_attr", declaredCount, description: "the channelCount attribute"),
            .string("channel_names", r.map { joined($0.channelNames) }, description: "as stored, ;-joined"),
            .string("channel_names_1020", r.map { joined($0.channelNames.map { ChannelLabel.tenTwenty($0) ?? "NA" }) },
                    description: "10-20 names (Muse: TP9;AF7;AF8;TP10), ;-joined"),
            .int64("n_samples", counts, unit: "1", description: "samples after dropping row 0"),
            .bool("row0_dropped", r.map(\.droppedRowZero), description: "row 0 had TimeStamp 0 (replayed pre-recording sample)"),
            .float("duration_s", r.indices.map { Double(counts[$0]) / r[$0].samplingRate }, unit: "s",
                   description: "n_samples / sampling_rate_hz"),
            .timestamp("ts_first_utc", r.map(\.firstTimestampUTC), description: "first retained TimeStamp"),
            .timestamp("ts_last_utc", r.map(\.lastTimestampUTC), description: "last TimeStamp"),
            .float("ts_rate_hz", tsRate, unit: "Hz", description: "(n_samples - 1) / TimeStamp span"),
            .string("recording_start_raw", r.map(\.recordingStart?.raw), description: "recordingStartTime as stored"),
            .timestamp("recording_start_utc", utc(\.recordingStart), description: "recordingStartTime as an instant"),
            .timestamp("recording_end_utc", utc(\.recordingEnd), description: "recordingEndTime as an instant"),
            .timestamp("session_start_utc", utc(\.sessionStart), description: "sessionStartTime as an instant"),
            .int64("utc_offset_min", r.map { $0.recordingStart?.offsetMinutes }, unit: "min",
                   description: "the device clock's offset from UTC in recordingStartTime (GMT+02:00 → 120)"),
            .float("recording_time_s", r.map(\.recordingTime), unit: "s", description: "recordingTime attribute"),
            .float("fitting_time_s", r.map(\.fittingTime), unit: "s", description: "fittingTime attribute"),
            .string("locale", r.map(\.locale), description: "device language code"),
            .string("paradigm", r.map(\.paradigm.name), description: "the /Paradigm attribute Paradigm"),
            .string("condition_labels", r.map { joined($0.paradigm.conditionLabels) },
                    description: "/Paradigm condition labels, ;-joined"),
            .string("condition_markers", r.map { joined($0.paradigm.conditionMarkers) },
                    description: "/Paradigm condition markers, ;-joined"),
            .string("base_markers", r.map { joined($0.paradigm.baseMarkers) },
                    description: "/Paradigm base markers, ;-joined"),
            .float("base_time_s", r.map(\.paradigm.baseTime), unit: "s",
                   description: "the BaseTime attribute (baseline_onset_s = onset_s + BaseTime)"),
            .float("trial_time_s", r.map(\.paradigm.trialTime), unit: "s",
                   description: "the TrialTime attribute: length of a condition epoch"),
            .int64("condition_count", r.map(\.paradigm.conditionCount), description: "the ConditionCount attribute"),
            .int64("n_markers", analyses.map(\.events.count), description: "non-zero markers (rows in events)"),
            .int64("n_epochs", analyses.map(\.epochs.count), description: "condition epochs (rows in epochs)"),
            .bool("ends_with_goodbye", analyses.map { $0.events.last?.marker == 910 },
                  description: "the last marker is the goodbye marker 910"),
            .string("other_attributes", r.map { recording in
                let others = recording.attributes.filter { !coveredAttributes.contains("\($0.group)@\($0.name)") }
                return others.isEmpty ? nil : others.map { "\($0.group)@\($0.name)=\($0.text)" }.joined(separator: ";")
            }, description: "attributes not in other columns, group@name=value, ;-joined"),
        ])
    }

    /// One row per marker.
    public static func events(_ analyses: [RecordingAnalysis], blocks: [Int]) -> Table {
        var source: [String?] = [], subject: [String?] = [], session: [Int?] = [], run: [Int?] = [], block: [Int?] = []
        let e = analyses.indices.flatMap { i in analyses[i].events.map { (i, $0) } }
        for (i, _) in e {
            let recording = analyses[i].recording
            source.append(recording.sourceFile); subject.append(recording.subjectID)
            session.append(recording.sessionID); run.append(recording.runID); block.append(blocks[i])
        }
        return Table("events", [
            .string("source_file", source, description: "the input path as given"),
            .string("subject_id", subject, description: "the subject's UUID"),
            .int64("session_id", session, description: "/Recording@Session"),
            .int64("run_id", run, description: "/Recording@Run"),
            .int64("block", block, description: "rank by run_id among this run's files of the subject and session"),
            .int64("event_index", e.map(\.1.index), description: "1-based"),
            .int64("sample", e.map(\.1.sample), description: "sample index from the first retained row"),
            .float("onset_s", e.map(\.1.onset), unit: "s", description: "sample / sampling rate"),
            .float("duration_s", e.map(\.1.duration), unit: "s", description: "to the next marker or the end of the data"),
            .string("trial_type", e.map(\.1.trialType), description: "<condition or welcome/goodbye>/<phase>"),
            .string("phase", e.map(\.1.phase),
                    description: "ready, ready_fixation, prompt, task, pause, fixation or other"),
            .string("condition", e.map(\.1.condition), description: "condition label (NA for welcome and goodbye)"),
            .int64("marker", e.map(\.1.marker), description: "the marker value as stored"),
            .int64("trial_in_block", e.map(\.1.trialInBlock), description: "1-based, welcome = 1"),
        ])
    }

    /// One row per condition epoch.
    public static func epochs(_ analyses: [RecordingAnalysis], blocks: [Int]) -> Table {
        let e = analyses.indices.flatMap { i in analyses[i].epochs.map { (i, $0) } }
        let r = e.map { analyses[$0.0].recording }
        return Table("epochs", [
            .string("source_file", r.map(\.sourceFile), description: "the input path as given"),
            .string("subject_id", r.map(\.subjectID), description: "the subject's UUID"),
            .int64("session_id", r.map(\.sessionID), description: "/Recording@Session"),
            .int64("run_id", r.map(\.runID), description: "/Recording@Run"),
            .int64("block", e.map { blocks[$0.0] },
                   description: "rank by run_id among this run's files of the subject and session"),
            .int64("epoch_index", e.map(\.1.index), description: "1-based"),
            .string("condition", e.map(\.1.condition), description: "condition label of the marker"),
            .int64("marker", e.map(\.1.marker), description: "the condition marker value"),
            .float("onset_s", e.map(\.1.onset), unit: "s", description: "marker sample / sampling rate"),
            .float("duration_s", e.map(\.1.duration), unit: "s", description: "TrialTime"),
            .float("measured_s", e.map(\.1.measured), unit: "s", description: "time to the next marker"),
            .int64("start_sample", e.map(\.1.startSample), description: "first sample of the epoch (the marker's)"),
            .int64("end_sample", e.map(\.1.endSample), description: "one past the last sample"),
            .float("baseline_onset_s", e.map(\.1.baselineOnset), unit: "s", description: "onset + BaseTime"),
            .bool("complete", e.map(\.1.complete), description: "the epoch lies wholly inside the data"),
        ])
    }

    /// The shared `band_power` table with MYND's columns added (spec §8).
    public static func bandPower(_ analyses: [RecordingAnalysis], blocks: [Int]) -> Table {
        let e = analyses.indices.flatMap { i in analyses[i].bandPower.map { (i, $0) } }
        let r = e.map { analyses[$0.0].recording }
        var table = BandPowerTable.table(e.map(\.1.shared), includeSegment: false)
        table.columns.insert(contentsOf: [
            .string("subject_id", r.map(\.subjectID), description: "the subject's UUID"),
            .string("scenario", r.map(\.scenario), description: "the /Paradigm attribute Paradigm, else the name's"),
            .int64("day", r.map(\.day), description: "study day, 1-based"),
            .int64("session_id", r.map(\.sessionID), description: "/Recording@Session"),
            .int64("run_id", r.map(\.runID), description: "/Recording@Run"),
            .int64("block", e.map { blocks[$0.0] },
                   description: "rank by run_id among this run's files of the subject and session"),
        ], at: 1)
        if let index = table.columnNames.firstIndex(of: "scope_index") {
            table.columns[index].description = "epoch_index for scope epoch; the condition's 1-based position in ConditionLabels for scope condition"
            table.columns.insert(.string("condition", e.map(\.1.condition), description: "condition label"),
                                 at: index + 1)
        }
        if let index = table.columnNames.firstIndex(of: "channel") {
            table.columns[index].description = "channel name as stored in the recording"
            table.columns.insert(.string("channel_1020", e.map(\.1.channel1020),
                                         description: "10-20 name of the channel (Muse: TP9, AF7, AF8, TP10)"),
                                 at: index + 1)
        }
        if let index = table.columnNames.firstIndex(of: "power_uv2") {
            table.columns.insert(.float("log10_power", e.map { $0.1.shared.power > 0 ? log10($0.1.shared.power) : nil },
                                        unit: "log10(µV²)", description: "log10 of power_uv2"), at: index + 1)
        }
        if let index = table.columnNames.firstIndex(of: "n_segments") {
            table.columns.insert(.float("app_alpha_lnamp", e.map(\.1.appAlpha), unit: "ln(µV)",
                                        description: "the app's alpha: mean ln amplitude 8-12 Hz over 4-s windows, alpha rows only"),
                                 at: index)
        }
        return table
    }

    /// One row per 0.5-s window and channel, channel by channel.
    public static func quality(_ analyses: [RecordingAnalysis]) -> Table {
        var source: [String?] = [], subject: [String?] = [], channel: [String?] = [], tenTwenty: [String?] = []
        var windows: [QualityWindow] = []
        for analysis in analyses {
            for (c, list) in analysis.quality.enumerated() {
                let name = analysis.recording.channelNames[c]
                for window in list {
                    source.append(analysis.recording.sourceFile); subject.append(analysis.recording.subjectID)
                    channel.append(name); tenTwenty.append(ChannelLabel.tenTwenty(name))
                    windows.append(window)
                }
            }
        }
        return Table("quality", [
            .string("source_file", source, description: "the input path as given"),
            .string("subject_id", subject, description: "the subject's UUID"),
            .string("channel", channel, description: "channel name as stored in the recording"),
            .string("channel_1020", tenTwenty, description: "10-20 name of the channel (Muse: TP9, AF7, AF8, TP10)"),
            .int64("window", windows.map(\.window), description: "0-based 0.5-s window"),
            .float("t_s", windows.map(\.start), unit: "s", description: "window start"),
            .float("variance_uv2", windows.map(\.variance), unit: "µV²", description: "variance of the smoothed signal (v)"),
            .float("quality", windows.map(\.quality), unit: "1", description: "0, 110 (v < 150 µV²) or 150/v·100"),
            .float("quality_avg", windows.map(\.average), unit: "1", description: "running average A of 5"),
            .float("raw_variance_uv2", windows.map(\.rawVariance), unit: "µV²", description: "variance of the raw samples"),
        ])
    }

    /// One row per channel.
    public static func qualitySummary(_ analyses: [RecordingAnalysis]) -> Table {
        let s = analyses.flatMap { analysis in analysis.qualitySummary.map { (analysis.recording, $0) } }
        return Table("quality_summary", [
            .string("source_file", s.map(\.0.sourceFile), description: "the input path as given"),
            .string("subject_id", s.map(\.0.subjectID), description: "the subject's UUID"),
            .string("channel", s.map(\.1.channel), description: "channel name as stored in the recording"),
            .string("channel_1020", s.map { ChannelLabel.tenTwenty($0.1.channel) },
                    description: "10-20 name of the channel (Muse: TP9, AF7, AF8, TP10)"),
            .int64("n_windows", s.map(\.1.windows), description: "complete 0.5-s windows of the channel"),
            .float("var_median_uv2", s.map(\.1.varianceMedian), unit: "µV²", description: "median raw window variance"),
            .float("q_median", s.map(\.1.qualityMedian), unit: "1", description: "median window quality q"),
            .float("share_a_ge_100", s.map(\.1.shareAbove100), unit: "1", description: "share of windows with quality_avg ≥ 100"),
        ])
    }
}

extension RecordingTables {
    /// Rows per batch of the `samples` table: the HDF5 writer's largest chunk, so that every batch but the last
    /// fills whole chunks and the table is stored as when it was written in one batch.
    public static let sampleBatchRows = 65_536

    /// One row per retained sample of every recording: `sample`, `t_s` = sample / rate, and one µV column per
    /// channel under its 10-20 name (`tp9_uv`, `af7_uv`, `af8_uv`, `tp10_uv`, `aux_uv`; the oscillator's stored
    /// names lowercased), the union over the run's recordings in order of appearance, `NA` where a recording
    /// lacks the channel. The whole table at once: a run writes it in batches (``sampleBatches(_:rowsPerBatch:_:)``).
    public static func samples(_ analyses: [RecordingAnalysis]) throws -> Table {
        var batches: [Table] = []
        try sampleBatches(analyses) { batches.append($0) }
        return Table.concatenating(batches) ?? Table("samples", [])
    }

    /// The `samples` table of ``samples(_:)`` in batches of `rowsPerBatch` rows (the last may be shorter; a run
    /// without samples gives one batch without rows), each made when the one before has been handed on: the
    /// samples are copied from where each recording keeps them (in memory, or a ``SampleScratch``), so that
    /// memory holds one batch, not the table. Throws what `emit` throws, and a ``ScratchError`` when the samples
    /// cannot be read back.
    public static func sampleBatches(_ analyses: [RecordingAnalysis], rowsPerBatch: Int = sampleBatchRows,
                                     _ emit: (Table) throws -> Void) throws {
        var labels: [String] = []
        for analysis in analyses {
            for name in analysis.recording.channelNames {
                let label = ChannelLabel.tenTwenty(name) ?? name
                if !labels.contains(label) { labels.append(label) }
            }
        }
        // Per recording, per label, the recording's channel under that label (the first of that name).
        let channelOf: [[Int?]] = analyses.map { analysis in
            let columnOf = Dictionary(analysis.recording.channelNames.enumerated().map { (ChannelLabel.tenTwenty($1) ?? $1, $0) },
                                      uniquingKeysWith: { first, _ in first })
            return labels.map { columnOf[$0] }
        }
        let counts = analyses.map(\.sampleFrames)
        let total = counts.reduce(0, +)
        // One string per row: stored as fixed-length strings in HDF5 (no string heap), like bt-decode's samples.
        let sourceWidth = max(1, analyses.map(\.recording.sourceFile.utf8.count).max() ?? 0)
        // Fixed-length only where every row has a subject (a missing one stays NA, as in the other tables).
        let subjectWidth = analyses.allSatisfy({ $0.recording.subjectID != nil })
            ? max(1, analyses.compactMap { $0.recording.subjectID?.utf8.count }.max() ?? 0) : nil

        func table(_ source: [String?], _ subject: [String?], _ sample: [Int64], _ time: [Double],
                   _ values: [[Double]]) -> Table {
            var columns: [Column] = [
                Column("source_file", description: "the input path as given", fixedWidth: sourceWidth, .string(source)),
                Column("subject_id", description: "the subject's UUID", fixedWidth: subjectWidth, .string(subject)),
                Column("sample", description: "sample index from the first retained row (0-based)", .int64(sample)),
                Column("t_s", unit: "s", description: "sample / sampling rate", .float64(time)),
            ]
            for (index, label) in labels.enumerated() {
                columns.append(Column(label.lowercased() + "_uv", unit: "µV",
                                      description: "\(label) EEG as stored in /Recording/Data", .float64(values[index])))
            }
            return Table("samples", columns)
        }
        guard total > 0 else {
            try emit(table([], [], [], [], labels.map { _ in [] }))
            return
        }
        let batchRows = max(1, rowsPerBatch)
        // The next row: recording `current`, its frame `frame`.
        var current = 0, frame = 0
        var done = 0
        while done < total {
            let rows = min(batchRows, total - done)
            // The batch's runs of rows: (recording, first frame, count).
            var runs: [(recording: Int, first: Int, count: Int)] = []
            var needed = rows
            while needed > 0 {
                while frame == counts[current] { current += 1; frame = 0 }
                let count = min(needed, counts[current] - frame)
                runs.append((current, frame, count))
                frame += count
                needed -= count
            }
            var source: [String?] = [], subject: [String?] = []
            var sample: [Int64] = [], time: [Double] = []
            source.reserveCapacity(rows); subject.reserveCapacity(rows); sample.reserveCapacity(rows)
            time.reserveCapacity(rows)
            for run in runs {
                let recording = analyses[run.recording].recording
                source += repeatElement(Optional(recording.sourceFile), count: run.count)
                subject += repeatElement(recording.subjectID, count: run.count)
                sample += (Int64(run.first)..<Int64(run.first + run.count))
                time += (run.first..<run.first + run.count).lazy.map { Double($0) / recording.samplingRate }
            }
            // Missing channels are NaN, the float columns' missing value: no optionals per value.
            let values = try labels.indices.map { label in
                try [Double](unsafeUninitializedCapacity: rows) { buffer, initialized in
                    var at = 0
                    for run in runs {
                        let target = UnsafeMutableBufferPointer(rebasing: buffer[at..<at + run.count])
                        if let channel = channelOf[run.recording][label] {
                            try analyses[run.recording].copySamples(channel: channel, from: run.first, into: target)
                        } else {
                            target.initialize(repeating: .nan)
                        }
                        at += run.count
                    }
                    initialized = rows
                }
            }
            try emit(table(source, subject, sample, time, values))
            done += rows
        }
    }
}
