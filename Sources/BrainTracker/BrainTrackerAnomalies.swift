import Tables

/// The anomaly codes `rt-stats` writes, for results files and R exports (docs/formats/braintracker.md §11).
public enum BrainTrackerAnomalies {
    /// Every code, in the order of docs/rt-stats.md.
    public static let catalogue: [AnomalyCode] = [
        .encoding, .noHeader, .headerUnrecognised, .headerMidFile, .emptyLines, .nullField, .idMismatch,
        .duplicateRow, .timeBackwards, .scoreRange, .legacyUnit, .latencyImplausible, .idStampUnparsed, .offsetOdd,
        .runSplit, .sessionRowDetached, .sessionWithoutTrials, .abortedSession, .nDiffers, .scoreDiffers,
        .noRecords, .badLine,
    ]
}

extension AnomalyCode {
    static let encoding = AnomalyCode("W_ENCODING",
        meaning: "The file is not valid UTF-8 (a spreadsheet re-save) and was decoded as Windows-1252.")
    static let noHeader = AnomalyCode("W_NO_HEADER",
        meaning: "The first line is a data row: the file has no header.")
    static let headerUnrecognised = AnomalyCode("W_HEADER_UNRECOGNISED",
        meaning: "The first line was read as a header although it is neither `date,…` nor `SessionID,…`.")
    static let headerMidFile = AnomalyCode("W_HEADER_MID_FILE",
        meaning: "An embedded header of a concatenated copy was skipped.")
    static let emptyLines = AnomalyCode("W_EMPTY_LINES",
        meaning: "An empty line was skipped.")
    static let nullField = AnomalyCode("W_NULL_FIELD",
        meaning: "Field A or E is `(null)` and was read as empty.")
    static let idMismatch = AnomalyCode("W_ID_MISMATCH",
        meaning: "A current-format trial row's field E differs from the session ID in field A.")
    static let duplicateRow = AnomalyCode("W_DUPLICATE_ROW",
        meaning: "A data line is identical to the previous data line (kept).")
    static let timeBackwards = AnomalyCode("W_TIME_BACKWARDS",
        meaning: "A trial's time is more than 60 s earlier than the previous trial's (kept).")
    static let scoreRange = AnomalyCode("W_SCORE_RANGE",
        meaning: "A session score lies outside [0, 1] (kept).")
    static let legacyUnit = AnomalyCode("W_LEGACY_UNIT",
        meaning: "A session before 2014-04-27: its latencies were repaired to ms by the factor the message names (also when it is 1).")
    static let latencyImplausible = AnomalyCode("W_LATENCY_IMPLAUSIBLE",
        meaning: "A trial latency lies outside 50–60000 ms after unit repair.")
    static let idStampUnparsed = AnomalyCode("W_ID_STAMP_UNPARSED",
        meaning: "The date stamp in a session ID cannot be read; the UTC offset is NA.")
    static let offsetOdd = AnomalyCode("W_OFFSET_ODD",
        meaning: "The UTC offset from a session ID lies outside −720…+840 min or is not a multiple of 15 min.")
    static let runSplit = AnomalyCode("W_RUN_SPLIT",
        meaning: "Trial rows before a gap longer than `--gap-minutes` were split off as an aborted session.")
    static let sessionRowDetached = AnomalyCode("W_SESSION_ROW_DETACHED",
        meaning: "A session row does not follow its trial rows; it was attached to the earlier run with its ID.")
    static let sessionWithoutTrials = AnomalyCode("W_SESSION_WITHOUT_TRIALS",
        meaning: "A session row has no trial rows; it is kept as a session of 0 trials.")
    static let abortedSession = AnomalyCode("W_ABORTED_SESSION",
        meaning: "Trial rows without a session row: an aborted session.")
    static let nDiffers = AnomalyCode("W_N_DIFFERS",
        meaning: "A complete session's number of trial rows differs from N (`--trials-per-session`).")
    static let scoreDiffers = AnomalyCode("I_SCORE_DIFFERS",
        meaning: "The recomputed SessionScore differs from the stored one (`score_match` is not `exact`).")
    static let noRecords = AnomalyCode("W_NO_RECORDS",
        meaning: "The file holds a header but no data rows.")
    static let badLine = AnomalyCode("E_BAD_LINE",
        meaning: "A line that cannot be read: no date anchor, a date out of range, or in an R export a bad value or field count (a row only with `--skip-bad-lines`, which skips the line).")
}
