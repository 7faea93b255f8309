import Foundation
import Tables

/// The output tables of `nt-analyze decode`, one set of rows per decoded file.
public enum DecodeTables {
    /// Every table name, in output order.
    public static let names = ["decode_summary", "decode_trials", "decoding_curve", "model", "impulse_response", "anomalies"]

    /// `decode_summary`: one row per file.
    public static func summary(_ decoded: DecodedFile) -> Table {
        let r = decoded.recording, result = decoded.result
        let curve = result.curve
        let audc = curve.errorRate.isEmpty ? nil : 100 * curve.errorRate.reduce(0, +) / Double(curve.errorRate.count)
        return Table("decode_summary", [
            .string("source_file", [r.sourceFile], description: "the input path as given"),
            .float("fs_raw_hz", [r.fsRaw], unit: "Hz", description: "recording rate (1000 samples per median step of every 1000th sample time)"),
            .float("fs_hz", [r.fs], unit: "Hz", description: "rate after decimation"),
            .float("decimation", [r.decimation], unit: "1", description: "raw samples per decimated sample"),
            .int64("n_channels", [r.channelCount], unit: "1", description: "EEG channels"),
            .int64("n_outputs", [r.outputCount], unit: "1", description: "outputs (objIDs, objID 0 the cued target's stimulus first)"),
            .int64("n_trials", [r.trialCount], unit: "1", description: "trials decoded"),
            .int64("n_trials_dropped", [r.droppedTrials.count], unit: "1", description: "trials left out as too short (W_DECODE_SHORT)"),
            .float("trial_length_ms", [r.trialLengthMs], unit: "ms", description: "trial length (--trlen-ms, or the percentile of the durations)"),
            .int64("window_samples", [r.windowSamples], unit: "1", description: "samples per trial window"),
            .int64("window_start_samples", [r.windowOffset], unit: "1", description: "window start relative to the first frame (negative: before)"),
            .int64("tau_samples", [decoded.result.model.tau], unit: "1", description: "impulse-response length"),
            .float("audc_score", [result.audcScore], unit: "1",
                   description: "PMB audc_score: share of (trial, sample) points where the cued output leads the cumulative scores"),
            .float("audc", [audc], unit: "1", description: "PMB AUDC: 100 × the mean error rate over the decoding curve"),
            .float("error_rate", [curve.errorRate.last], unit: "1", description: "error rate at the full trial length"),
            .float("sigma0", [result.sigma0], unit: "1", description: "median per-trial noise variance of the cross-validated scores"),
            .float("softmax_scale", [result.softmaxScale], unit: "1", description: "calibrated softmax scale"),
            .bool("clock_wrapped", [r.clockWrapped], description: "the decoder clock wraps at 2^24 in this file (unwrapped here)"),
        ])
    }

    /// `decode_trials`: one row per decoded trial.
    public static func trials(_ decoded: DecodedFile) -> Table {
        let r = decoded.recording, result = decoded.result, curve = result.curve
        let ids = r.objectIDs
        let foldOf = Dictionary(uniqueKeysWithValues: result.folds.enumerated().flatMap { fold, members in members.map { ($0, fold) } })
        let trials = Array(0..<r.trialCount)
        let last = curve.lengths.count - 1
        func objectID(_ output: Int?, trial: Int) -> Int? {
            guard let output else { return nil }
            if output == 0 { return result.cuedOutput[trial].map { ids[$0] } }
            return ids[output]
        }
        return Table("decode_trials", [
            .string("source_file", trials.map { _ in r.sourceFile }, description: "the input path as given"),
            .int64("trial", trials, description: "0-based decoded trial"),
            .int64("first_line", r.trialFirstLine, description: "save-file line of the trial's first frame"),
            .int64("t_start_ms", r.trialStartMs.map { Int($0) }, unit: "ms", description: "first frame, unwrapped hub time (sts)"),
            .float("duration_ms", r.trialDurationMs, unit: "ms", description: "first to last frame"),
            .int64("n_frames", r.trialFrames, unit: "1", description: "STIMULUSEVENTs in the trial"),
            .int64("fold", trials.map { foldOf[$0] }, description: "the cross-validation fold the trial was scored in"),
            .int64("cued_target", trials.map { objectID(result.cuedOutput[$0] ?? nil, trial: $0) }, description: "objID whose events copy objID 0's (NA: none)"),
            .int64("predicted_target", trials.map { last >= 0 ? objectID(curve.predicted[$0][last], trial: $0) : nil },
                   description: "objID decoded at the full length (NA: not decoded, or objID 0 decoded without a copy)"),
            .bool("correct", trials.map { last >= 0 ? curve.predicted[$0][last].map { $0 == 0 } : nil },
                  description: "the cued output (objID 0) decoded at the full length"),
            .float("score_margin", trials.map { last >= 0 ? curve.margin[$0][last] : nil }, unit: "1",
                   description: "cued output's z-score less the best other output's, full length, last decision point"),
            .float("perr_est", trials.map { last >= 0 ? curve.estimatedError[$0][last] : nil }, unit: "1",
                   description: "estimated error probability at the full length (1 − softmax probability of the choice)"),
        ])
    }

    /// `decoding_curve`: one row per integration length.
    public static func curve(_ decoded: DecodedFile) -> Table {
        let r = decoded.recording, curve = decoded.result.curve
        let points = Array(curve.lengths.indices)
        // Frames shown by then: the median over trials of frames landed in the window's first `length` rows.
        let frames: [Double] = curve.lengths.map { length in
            let counts = r.trialFrameRows.map { rows in Double(rows.filter { $0 >= 0 && $0 < length }.count) }
            return counts.isEmpty ? 0 : Statistics.median(counts)
        }
        return Table("decoding_curve", [
            .string("source_file", points.map { _ in r.sourceFile }, description: "the input path as given"),
            .int64("point", points, description: "0-based point of the curve"),
            .int64("length_samples", curve.lengths, unit: "1", description: "integration length from the window start, samples"),
            .float("length_s", curve.lengths.map { Double($0) / r.fs }, unit: "s", description: "integration length from the window start"),
            .float("length_after_onset_s", curve.lengths.map { Double($0 + r.windowOffset) / r.fs }, unit: "s",
                   description: "integration length from the trial's first frame (negative: before it)"),
            .float("length_frames", frames, unit: "1", description: "stimulus frames shown by then (median over trials)"),
            .float("error_rate", curve.errorRate, unit: "1", description: "share of decoded trials not decoded as the cued output"),
            .float("error_rate_est", curve.estimatedErrorRate, unit: "1", description: "mean estimated error probability"),
            .int64("n_trials", points.map { _ in curve.keptTrials.count }, unit: "1", description: "trials in the rates"),
        ])
    }

    /// `model`: one row per component and channel.
    public static func model(_ decoded: DecodedFile) -> Table {
        let m = decoded.result.model
        let rows = m.spatialFilters.indices.flatMap { k in (0..<m.channels).map { (k, $0) } }
        return Table("model", [
            .string("source_file", rows.map { _ in decoded.recording.sourceFile }, description: "the input path as given"),
            .int64("component", rows.map(\.0), description: "0-based CCA component"),
            .int64("channel", rows.map { $0.1 + 1 }, description: "1-based channel (ch1 … chN)"),
            .float("spatial_filter", rows.map { m.spatialFilters[$0.0][$0.1] }, unit: "1/µV", description: "W (PMB W_)"),
            .float("spatial_pattern", rows.map { m.spatialPatterns[$0.0][$0.1] }, unit: "µV", description: "Cxx·W (PMB A_)"),
        ])
    }

    /// `impulse_response`: one row per component, event type and lag.
    public static func impulseResponse(_ decoded: DecodedFile, scalings: [ResponseScaling]) -> Table {
        let m = decoded.result.model, fs = decoded.recording.fs
        let rows = m.spatialFilters.indices.flatMap { k in m.eventTypes.indices.flatMap { e in (0..<m.tau).map { (k, e, $0) } } }
        return Table("impulse_response", [
            .string("source_file", rows.map { _ in decoded.recording.sourceFile }, description: "the input path as given"),
            .int64("component", rows.map(\.0), description: "0-based CCA component"),
            .string("event", rows.map { m.eventTypes[$0.1].rawValue }, description: "re (rising edge) or fe (falling edge)"),
            .int64("lag", rows.map(\.2), unit: "1", description: "samples after the event"),
            .float("lag_ms", rows.map { Double($0.2) * 1000 / fs }, unit: "ms", description: "time after the event"),
            .float("response", rows.map { m.impulseResponses[$0.0][$0.1][$0.2] }, unit: "1", description: "R (PMB R_)"),
            .int64("peak_channel", rows.map { scalings[$0.0].peakChannel + 1 }, description: "the channel of the largest pattern_uv"),
            .float("response_uv", rows.map { k, e, t in
                scalings[k].patternMicrovolts[scalings[k].peakChannel] * scalings[k].amplitude * m.impulseResponses[k][e][t]
            }, unit: "µV", description: "the response at peak_channel (pattern_uv × least-squares amplitude × R)"),
        ])
    }
}
