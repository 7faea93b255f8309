import Tables

/// The anomaly codes `nt-analyze` writes for a hub save file (docs/formats/mindaffect.md §6.1).
public enum MindAffectAnomalies {
    /// Every code, in the order of docs/nt-analyze.md.
    public static let catalogue: [AnomalyCode] = [
        .prefix, .syntax, .shape, .nch, .float, .trunc, .unknown, .signed, .encoding, .sts, .clockBack, .tsNonmono,
        .header, .fs, .hbGap, .iti, .newTarget, .trialMode, .cue, .multiSel, .blank,
        .decodeShortTrial, .decodeNoCue, .decodeClockWrap,
    ]
}

extension AnomalyCode {
    static let prefix = AnomalyCode("E_PREFIX",
        meaning: "A line lacks the `rts:… sts:…  t:NAME ts:…` prefix or the ` <-` client suffix (a row only with `--skip-bad-lines`, which skips the line).")
    static let syntax = AnomalyCode("E_SYNTAX",
        meaning: "A payload breaks the message grammar, or a line is cut short anywhere but at the very end (a row only with `--skip-bad-lines`, which skips the line).")
    static let shape = AnomalyCode("E_SHAPE",
        meaning: "A declared `[nch x nsamp]`, `v[n]` or `[n]` differs from the content (a row only with `--skip-bad-lines`, which skips the message).")
    static let nch = AnomalyCode("E_NCH",
        meaning: "A packet's channel count differs from the first packet's (a row only with `--skip-bad-lines`, which skips the packet).")
    static let float = AnomalyCode("E_FLOAT",
        meaning: "A number is not a Java float or int (a row only with `--skip-bad-lines`, which skips the message).")
    static let trunc = AnomalyCode("W_TRUNC",
        meaning: "The final line is incomplete (no newline) and does not parse; it was dropped.")
    static let unknown = AnomalyCode("W_UNKNOWN",
        meaning: "A message NAME the format does not define (one row per NAME); counted in `messages`, its payload not parsed.")
    static let signed = AnomalyCode("W_SIGNED",
        meaning: "Negative Java byte values (object IDs or states above 127); 256 was added.")
    static let encoding = AnomalyCode("W_ENCODING",
        meaning: "Text is not valid UTF-8 and was read as Latin-1.")
    static let sts = AnomalyCode("W_STS",
        meaning: "Messages whose sts and rts differ by more than 1000 ms (one row per client and NAME, with the count); they are timed by rts.")
    static let clockBack = AnomalyCode("W_CLOCK_BACK",
        meaning: "The unwrapped rts falls by more than 1000 ms below the largest value so far.")
    static let tsNonmono = AnomalyCode("W_TS_NONMONO",
        meaning: "A DATAPACKET's time does not advance past the previous packet's; its samples get the previous time.")
    static let header = AnomalyCode("W_HEADER",
        meaning: "DATAHEADER has fs and nch swapped; the header is ignored.")
    static let fs = AnomalyCode("W_FS",
        meaning: "The sampling rate is not within 1 % of a standard rate (used as estimated), or cannot be estimated at all.")
    static let hbGap = AnomalyCode("W_HB_GAP",
        meaning: "A client's consecutive HEARTBEATs are more than `--heartbeat-gap-ms` apart: a stalled client?")
    static let iti = AnomalyCode("W_ITI",
        meaning: "With more than two trials, `--iti-ms` is above half the median gap between trials: trials may run together.")
    static let newTarget = AnomalyCode("W_NEWTARGET",
        meaning: "Not exactly one NEWTARGET between the previous trial and this one.")
    static let trialMode = AnomalyCode("W_TRIAL_MODE",
        meaning: "A MODECHANGE falls between a trial's first and last frame.")
    static let cue = AnomalyCode("W_CUE",
        meaning: "No cued target: the best agreement with objID 0 is below 0.95, or several objects agree equally well.")
    static let multiSel = AnomalyCode("W_MULTI_SEL",
        meaning: "A trial has further SELECTION messages after the first; the first is used.")
    static let blank = AnomalyCode("I_BLANK",
        meaning: "A blank line was skipped.")
    // `nt-analyze decode` (the NoiseTagDecoding module).
    public static let decodeShortTrial = AnomalyCode("W_DECODE_SHORT",
        meaning: "`decode`: a trial no longer than `--min-trial-fraction` of the trial length was left out (as pymindaffectBCI does).")
    public static let decodeNoCue = AnomalyCode("W_DECODE_NO_CUE",
        meaning: "`decode`: no output copies objID 0 in this trial (agreement of its events at most 0.95); its decision is still scored against objID 0.")
    public static let decodeClockWrap = AnomalyCode("I_DECODE_CLOCK_WRAP",
        meaning: "`decode`: the decoder clock (sts mod 2^24) wraps in this file; times were unwrapped (pymindaffectBCI 0.9.24 loses trials there: the first of SampleData's).")
}
