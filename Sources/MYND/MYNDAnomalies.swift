import Tables

/// The anomaly codes `mynd-parse` writes, for questionnaire results, recordings, folders and `--check-protocol`
/// (docs/formats/mynd.md §8).
public enum MYNDAnomalies {
    /// Every code, in the order of docs/mynd-parse.md.
    public static let catalogue: [AnomalyCode] = [
        .nameUnparsed, .type, .nameMismatch, .timeUnparsed, .dateOrderGuessed, .noAnswers, .answerMissing,
        .answerUndefined, .answerUnlabelled, .row0, .nan, .device, .rate, .tsNotEpoch, .noMarkers, .unknownMarker,
        .noGoodbye, .markerCount, .epochIncomplete, .ignored, .dummyKey, .duplicateRun, .runGap, .runReset,
    ]

    /// `I_IGNORED`, for the tool.
    public static let ignored = AnomalyCode.ignored
}

extension AnomalyCode {
    static let nameUnparsed = AnomalyCode("W_NAME_UNPARSED",
        meaning: "A file name does not follow the MYND grammar; the file is read by its content.")
    static let type = AnomalyCode("W_TYPE",
        meaning: "A value or dataset is missing or of another type than the format's (a number stored as a string, an absent `/Paradigm` dataset); it is converted, taken from the file name or taken as missing.")
    static let nameMismatch = AnomalyCode("W_NAME_MISMATCH",
        meaning: "A field of the file name disagrees with the file's content, or with the study protocol's slot for it.")
    static let timeUnparsed = AnomalyCode("W_TIME_UNPARSED",
        meaning: "A localized time is missing or only partly read; what cannot be read is NA.")
    static let dateOrderGuessed = AnomalyCode("W_DATE_ORDER_GUESSED",
        meaning: "Day and month of a date cannot be told apart and no recording of the subject decides; the order was guessed (use `--date-order`).")
    static let noAnswers = AnomalyCode("W_NO_ANSWERS",
        meaning: "A questionnaire result holds metadata but no answers.")
    static let answerMissing = AnomalyCode("W_ANSWER_MISSING",
        meaning: "A required question of the definition has no answer in the result.")
    static let answerUndefined = AnomalyCode("W_ANSWER_UNDEFINED",
        meaning: "A stored answer's key is not a question of the definition.")
    static let answerUnlabelled = AnomalyCode("W_ANSWER_UNLABELLED",
        meaning: "A multiple-choice value is not among the question's choices.")
    static let row0 = AnomalyCode("W_ROW0",
        meaning: "`TimeStamp[0]` is not 0, so row 0 was kept rather than dropped.")
    static let nan = AnomalyCode("W_NAN",
        meaning: "The recording holds NaN or infinite sample values.")
    static let device = AnomalyCode("W_DEVICE",
        meaning: "The recording comes from the synthetic test source (oscillator), not from EEG.")
    static let rate = AnomalyCode("W_RATE",
        meaning: "No usable `samplingRate` attribute; the nominal rate was assumed (256 Hz, 128 Hz for the oscillator).")
    static let tsNotEpoch = AnomalyCode("W_TS_NOT_EPOCH",
        meaning: "`TimeStamp` values are not µs since 1970; absolute times are NA.")
    static let noMarkers = AnomalyCode("W_NO_MARKERS",
        meaning: "The block has no non-zero marker.")
    static let unknownMarker = AnomalyCode("W_UNKNOWN_MARKER",
        meaning: "A marker fits no phase of the marker scheme; its event is `other`.")
    static let noGoodbye = AnomalyCode("W_NO_GOODBYE",
        meaning: "The block does not end with the goodbye marker 910.")
    static let markerCount = AnomalyCode("W_MARKER_COUNT",
        meaning: "The block holds another number of markers than its scenario has.")
    static let epochIncomplete = AnomalyCode("W_EPOCH_INCOMPLETE",
        meaning: "A condition epoch runs past the end of the data; its band power uses the samples there are.")
    static let ignored = AnomalyCode("I_IGNORED",
        meaning: "A file that is not a MYND result or recording (`message.json`, a PDF, another name) was set aside, not read.")
    static let dummyKey = AnomalyCode("W_DUMMY_KEY",
        meaning: "A file is encrypted to the repository's dummy key, whose secret key is public (with `--check-protocol`).")
    static let duplicateRun = AnomalyCode("W_DUPLICATE_RUN",
        meaning: "Several files of a subject use the same runID (with `--check-protocol`).")
    static let runGap = AnomalyCode("W_RUN_GAP",
        meaning: "runIDs between a subject's lowest and highest are absent: lost, not uploaded or skipped (with `--check-protocol`).")
    static let runReset = AnomalyCode("W_RUN_RESET",
        meaning: "A runID is below that of an earlier session: the run counter was reset? (with `--check-protocol`).")
}
