import Tables

/// The anomaly codes `ilog-parse` writes (docs/formats/interactlog.md §7.2): those of the library, and `I_COMPANION`,
/// which the tool writes for a companion file given as an input.
public enum InteractLogAnomalies {
    /// Every code, in the order of docs/ilog-parse.md.
    public static let catalogue: [AnomalyCode] = [
        .headerLine, .fields, .id, .ts, .xy, .headerMissing, .headerValue, .headerDup, .noEvents, .idOrder, .idGap,
        .tsBackwards, .tsImplausible, .unpairedDown, .unpairedRelease, .unpairedKey, .unmatchedOff, .mixedEOL,
        .noFinalNewline, .encodingFallback, .variant, .unknownEvent, .keySyntax, .sidecarMismatch, .altitudeBug,
        .companionMismatch, .spanMismatch, .utcOffset, .duplicateRelease, .strokeSpansStimulus, .duplicateOn,
        .offMismatch, .nameMismatch, .trialMismatch, .stampMismatch, .duplicateTrial, .companion, .blankLine, .bom,
        .prerelease, .gluedAppVersion, .unknownLabel, .viewOpenAtEnd, .endKey, .defaultName,
    ]

    /// `I_COMPANION`, for the tool.
    public static let companion = AnomalyCode.companion
}

extension AnomalyCode {
    static let headerLine = AnomalyCode("E_HEADER_LINE",
        meaning: "A header line is not `Label:value` (a row only with `--skip-bad-lines`, which ignores the line).")
    static let fields = AnomalyCode("E_FIELDS",
        meaning: "An event line does not hold 5 `;`-separated fields (a row only with `--skip-bad-lines`, which leaves the line out).")
    static let id = AnomalyCode("E_ID",
        meaning: "An event line's id is not an integer (a row only with `--skip-bad-lines`, which leaves the line out).")
    static let ts = AnomalyCode("E_TS",
        meaning: "An event line's timestamp is not numeric, or for Java not an integer (a row only with `--skip-bad-lines`, which leaves the line out).")
    static let xy = AnomalyCode("E_XY",
        meaning: "An event line's x or y is not a finite number (a row only with `--skip-bad-lines`, which leaves the line out).")
    static let headerMissing = AnomalyCode("W_HEADER_MISSING",
        meaning: "One of the required header labels `Name`, `Experiment Start`, `Trial Number`, `Trial Start`, `Trial End` is absent.")
    static let headerValue = AnomalyCode("W_HEADER_VALUE",
        meaning: "A header value does not parse and is taken as missing.")
    static let headerDup = AnomalyCode("W_HEADER_DUP",
        meaning: "A header label repeats (other than the glued `App Version`); its first value is kept.")
    static let noEvents = AnomalyCode("W_NO_EVENTS",
        meaning: "The log has a header but no event lines.")
    static let idOrder = AnomalyCode("W_ID_ORDER",
        meaning: "An event id is not above the previous one.")
    static let idGap = AnomalyCode("W_ID_GAP",
        meaning: "An event id was skipped (other than the iPad's skip of one id after `ButtonReleased`); the event is flagged `id_gap`.")
    static let tsBackwards = AnomalyCode("W_TS_BACKWARDS",
        meaning: "The time decreases from the previous event; the event is flagged `ts_backwards`.")
    static let tsImplausible = AnomalyCode("W_TS_IMPLAUSIBLE",
        meaning: "An iPad timestamp lies outside 2023–2030 as epoch milliseconds (or as seconds × 1000); `t_s` is NA for the whole file.")
    static let unpairedDown = AnomalyCode("W_UNPAIRED_DOWN",
        meaning: "A `ButtonDown` has no `ButtonReleased`; its stroke row is kept as unpaired.")
    static let unpairedRelease = AnomalyCode("W_UNPAIRED_RELEASE",
        meaning: "A `ButtonReleased` has no open `ButtonDown`; its stroke row is kept as unpaired.")
    static let unpairedKey = AnomalyCode("W_UNPAIRED_KEY",
        meaning: "A key press has no release, or a release no press; its key row is kept as unpaired.")
    static let unmatchedOff = AnomalyCode("W_UNMATCHED_OFF",
        meaning: "A stimulus Off event comes while no image is shown; it becomes a view row of its own.")
    static let mixedEOL = AnomalyCode("W_MIXED_EOL",
        meaning: "The file mixes LF and CRLF line endings.")
    static let noFinalNewline = AnomalyCode("W_NO_FINAL_NEWLINE",
        meaning: "The last line has no line break (it is parsed anyway).")
    static let encodingFallback = AnomalyCode("W_ENCODING_FALLBACK",
        meaning: "The file is not valid UTF-8 and was decoded as Windows-1252.")
    static let variant = AnomalyCode("W_VARIANT",
        meaning: "A Java log's `Name` label is neither 18 nor 21 characters wide; the variant is `java-unknown`.")
    static let unknownEvent = AnomalyCode("W_UNKNOWN_EVENT",
        meaning: "An event name the format does not define; the event is kept with type `other`.")
    static let keySyntax = AnomalyCode("W_KEY_SYNTAX",
        meaning: "A key event name is not `Key…_<code>(<descriptor>:<location>)`; its key parts are NA.")
    static let sidecarMismatch = AnomalyCode("W_SIDECAR_MISMATCH",
        meaning: "The `InteractLog.json` beside an iPad log does not match the log; no Pencil columns.")
    static let altitudeBug = AnomalyCode("W_ALTITUDE_BUG",
        meaning: "Altitude equals azimuth in every Pencil record (builds of 2023-08-07 to 08-26); `altitude_mean_rad` is NA.")
    static let companionMismatch = AnomalyCode("W_COMPANION_MISMATCH",
        meaning: "A Java log's `_strokes.txt` or `_keys.txt` companion, given with it, differs from what the log holds.")
    static let spanMismatch = AnomalyCode("W_SPAN_MISMATCH",
        meaning: "The events span more than 2 s beyond the header's Trial Start to Trial End (for Java also more than 2 s short of it).")
    static let utcOffset = AnomalyCode("W_UTC_OFFSET",
        meaning: "An iPad log's Trial Start minus its first event's UTC time is not a whole quarter hour within 18 h; `utc_offset_min` is NA.")
    static let duplicateRelease = AnomalyCode("W_DUPLICATE_RELEASE",
        meaning: "A `ButtonReleased` repeats the previous release at the same point less than 50 ms later; it is not paired.")
    static let strokeSpansStimulus = AnomalyCode("W_STROKE_SPANS_STIMULUS",
        meaning: "A stroke spans a stimulus onset.")
    static let duplicateOn = AnomalyCode("W_DUPLICATE_ON",
        meaning: "A stimulus On event names the image already shown (no new view); the event is flagged `duplicate_on`.")
    static let offMismatch = AnomalyCode("W_OFF_MISMATCH",
        meaning: "A stimulus Off event names another phase or image than the one shown; the view closes as `off_mismatch`.")
    static let nameMismatch = AnomalyCode("W_NAME_MISMATCH",
        meaning: "The header's `Name` differs from the participant in the file name.")
    static let trialMismatch = AnomalyCode("W_TRIAL_MISMATCH",
        meaning: "The header's `Trial Number` differs from the trial in the file name.")
    static let stampMismatch = AnomalyCode("W_STAMP_MISMATCH",
        meaning: "The date stamp in the file name differs from the header's `Experiment Start`.")
    static let duplicateTrial = AnomalyCode("W_DUPLICATE_TRIAL",
        meaning: "The same participant and trial number appear in another run (reported on the later log).")
    static let companion = AnomalyCode("I_COMPANION",
        meaning: "An input is a Java `_strokes.txt` or `_keys.txt` companion file, not a log: it is skipped (and cross-checks its log when that is given too).")
    static let blankLine = AnomalyCode("I_BLANK_LINE",
        meaning: "A blank line among the events was skipped.")
    static let bom = AnomalyCode("I_BOM",
        meaning: "A byte order mark at the start of the file was stripped.")
    static let prerelease = AnomalyCode("I_PRERELEASE",
        meaning: "iPad timestamps in epoch seconds (builds before 2023-07-10) were multiplied by 1000.")
    static let gluedAppVersion = AnomalyCode("I_GLUED_APP_VERSION",
        meaning: "`App Version` repeats after the header: the glued iPad variant.")
    static let unknownLabel = AnomalyCode("I_UNKNOWN_LABEL",
        meaning: "A header label the format does not define; it is kept in the `header` table.")
    static let viewOpenAtEnd = AnomalyCode("I_VIEW_OPEN_AT_END",
        meaning: "A stimulus is still shown at the last event; its view's duration is a lower bound.")
    static let endKey = AnomalyCode("I_END_KEY",
        meaning: "The trial ends with this key press, whose release is never logged.")
    static let defaultName = AnomalyCode("I_DEFAULT_NAME",
        meaning: "The participant is `Anonymous Participant`, which identifies nobody.")
}
