import Tables

/// The output tables of `rt-stats` (spec §10): `trials`, `sessions`, `anomalies`. Column names are stable API.
public enum BrainTrackerTables {
    /// Every table, in output order.
    public static let names = ["trials", "sessions", "anomalies"]

    /// The `trials` columns stored as fixed-width HDF5 strings (``Tables/Table/storingFixedWidth(_:)``): those
    /// whose longest value over the run is known before the first row is written. `source_file` (the longest input
    /// path), `row_format` and `pct_rule` (their longest names), `session_id`, `target` and `exclusion` (texts kept
    /// once each, so their longest is at hand; variable-length when over ``Tables/Table/longestFixedWidth``
    /// bytes), and `time_utc` when every time lies in ``Tables/CellFormatting/timestampRange``.
    public static func trialWidths(_ analyses: [RTAnalysis]) -> [String: Int] {
        var widths = ["source_file": analyses.map(\.sourceFile.utf8.count).max() ?? 0,
                      "row_format": RowFormat.allCases.map(\.rawValue.utf8.count).max() ?? 0,
                      "pct_rule": ScoreRule.allCases.map(\.rawValue.utf8.count).max() ?? 0]
        let texts = analyses.map(\.trials.longestText).max() ?? 0
        if texts <= Table.longestFixedWidth {
            for column in ["session_id", "target", "exclusion"] { widths[column] = texts }
        }
        if analyses.allSatisfy(\.trials.utcTimesInFixedWidthRange) {
            widths["time_utc"] = CellFormatting.longestTimestampInRange
        }
        return widths
    }

    /// One row per trial row (§10.1); `rows` of them.
    public static func trials(_ analysis: RTAnalysis, rows: Range<Int>? = nil) -> Table {
        let t = (rows ?? analysis.trials.indices).map { analysis.trials[$0] }
        return Table("trials", [
            .string("source_file", t.map { _ in analysis.sourceFile }, description: "the input path as given"),
            .int64("line", t.map(\.line), description: "1-based line of the row (CR, LF and CRLF each end a line)"),
            .string("row_format", t.map(\.rowFormat.rawValue), description: "current, legacy4, legacy-hand-id, timestamp-paren or seth-r"),
            .int64("session_seq", t.map(\.sessionSeq), description: "1-based session number in order of first row: the unique key"),
            .string("session_id", t.map(\.sessionID), description: "raw session ID (field A; R: condition); not unique"),
            .int64("trial_index", t.map(\.trialIndex), description: "1-based position in the session"),
            .timestamp("time_utc", t.map(\.timeUTC), description: "field B: when the start button was pressed (4-field rows: the response)"),
            .string("time_local", t.map(\.timeLocal), unit: "local time",
                    description: "ISO 8601 local time: with the offset inferred from the session ID, or without one for R input"),
            .string("target", t.map(\.target), description: "label of the target (opaque string)"),
            .float("latency_ms", t.map(\.latencyMs), unit: "ms", description: "reaction time after unit repair"),
            .bool("correct", t.map(\.correct), description: "the response was correct (always TRUE for BrainTracker; R: correct)"),
            .bool("include", t.map(\.include), description: "the trial is to be analysed (always TRUE for BrainTracker; R: include)"),
            .bool("valid_seth", t.map(\.validSeth), description: "correct & include & min_ms < latency < max_ms, not a warm-up"),
            .string("exclusion", t.map(\.exclusion), description: "why not valid_seth: too fast, too slow, not correct, not included, warmup"),
            .float("pct_app", t.map(\.pctApp), unit: "1", description: "the app's percentile: share of the comparison trials at this target that were slower"),
            .string("pct_rule", t.map { $0.pctRule?.rawValue }, description: "window100 or all-history"),
            .int64("pct_n", t.map(\.pctN), description: "size of the app's comparison set, the trial included"),
            .float("ptile_seth", t.map(\.ptileSeth), unit: "percent", description: "Seth Roberts' mid-rank percentile, higher = faster"),
            .float("ptile_stored", t.map(\.ptileStored), unit: "percent", description: "latency.ptile of the R export"),
        ])
    }

    /// One row per session (§10.2).
    public static func sessions(_ analysis: RTAnalysis) -> Table {
        let s = analysis.sessions
        return Table("sessions", [
            .string("source_file", s.map { _ in analysis.sourceFile }, description: "the input path as given"),
            .int64("session_seq", s.map(\.sessionSeq), description: "1-based session number in order of first row: the unique key"),
            .string("session_id", s.map(\.sessionID), description: "raw session ID (field A; R: condition); not unique"),
            .string("comment", s.map(\.comment),
                    description: "field E of the session row, else the hand-ID comment or the ID without ID and |stamp; R: condition"),
            .timestamp("start_utc", s.map(\.startUTC), description: "session row time (current format), else first trial"),
            .timestamp("end_utc", s.map(\.endUTC), description: "last trial time"),
            .int64("utc_offset_min", s.map(\.utcOffsetMin), unit: "min", description: "local − UTC, inferred from the ID stamp"),
            .string("offset_source", s.map(\.offsetSource), description: "session_row (exact) or first_trial (rounded to 15 min)"),
            .string("start_local", s.map(\.startLocal), unit: "local time", description: "ISO 8601 local start"),
            .int64("n_trials", s.map(\.nTrials), description: "trial rows of the session"),
            .int64("n_expected", s.map(\.nExpected), description: "N used for the score"),
            .bool("complete", s.map(\.complete), description: "has a session row (R: valid trials ≥ N)"),
            .bool("is_warmup", s.map(\.isWarmup), description: "an R warm-up session (condition ending in warmup)"),
            .int64("session_line", s.map(\.sessionLine), description: "line of the session row"),
            .float("score_stored", s.map(\.scoreStored), unit: "1", description: "the app's SessionScore (field D)"),
            .float("score_recomputed", s.map(\.scoreRecomputed), unit: "1", description: "sum of pct_app over the session's rows / N"),
            .float("score_delta", s.map(\.scoreDelta), unit: "1", description: "score_recomputed − score_stored"),
            .string("score_match", s.map(\.scoreMatch), description: "exact (≤ 5e-7), close (≤ 0.002) or differs"),
            .string("score_rule", s.map { $0.scoreRule?.rawValue }, description: "app percentile rule of the session's trials: window100 or all-history"),
            .float("pct_app_mean", s.map(\.pctAppMean), unit: "1", description: "mean pct_app of the session's trials (also for aborted sessions)"),
            .float("latency_mean_ms", s.map(\.latencyMeanMs), unit: "ms",
                   description: "mean latency over the analysis trials (BrainTracker: all rows; R: correct & include)"),
            .float("latency_median_ms", s.map(\.latencyMedianMs), unit: "ms", description: "median latency over the analysis trials (mean of the middle pair)"),
            .float("latency_sd_ms", s.map(\.latencySDMs), unit: "ms", description: "sample SD (n − 1)"),
            .float("latency_trimmed_mean_ms", s.map(\.latencyTrimmedMeanMs), unit: "ms", description: "mean after dropping floor(trim·n) per tail"),
            .float("latency_log_mean", s.map(\.latencyLogMean), unit: "ln(ms)", description: "mean of ln(latency) over valid_seth trials"),
            .float("latency_log_se", s.map(\.latencyLogSE), unit: "ln(ms)", description: "standard error of latency_log_mean"),
            .int64("n_valid_seth", s.map(\.nValidSeth), description: "valid_seth trials of the session"),
            .float("seth_ptile_mean", s.map(\.sethPtileMean), unit: "percent", description: "mean of the session's non-NA ptile_seth"),
            .float("seth_ptile_se", s.map(\.sethPtileSE), unit: "percent", description: "standard error of seth_ptile_mean: sd / √n"),
            .float("latency_corrected_mean_ms", s.map(\.latencyCorrectedMeanMs), unit: "ms", description: "mean latency with the per-target effect removed"),
            .float("pct_wrong", s.map(\.pctWrong), unit: "percent", description: "R only: 100 · wrong included trials / included trials"),
            .float("pct_wrong_se", s.map(\.pctWrongSE), unit: "percent", description: "R only: standard error of pct_wrong, 100 · √(p(1 − p)/n)"),
        ])
    }

    /// The shared anomalies table.
    public static func anomalies(_ analysis: RTAnalysis) -> Table { .anomalies(analysis.anomalies) }
}
