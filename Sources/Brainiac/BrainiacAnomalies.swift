import Tables

/// The anomaly codes `bt-decode` writes: one row per ``CaptureEvent`` (docs/formats/brainiac.md §2.3).
public enum BrainiacAnomalies {
    /// Every code, in the order of docs/bt-decode.md.
    public static let catalogue: [AnomalyCode] = [
        .leadingBytes, .gap, .resync, .discontinuity, .truncatedTail, .unsyncedTail,
    ]
}

extension AnomalyCode {
    static let leadingBytes = AnomalyCode("W_LEADING_BYTES",
        meaning: "Bytes before the first locked packet were skipped (the capture started mid-packet).")
    static let gap = AnomalyCode("I_GAP",
        meaning: "The order number jumped by a plausible amount: notifications were lost with packet alignment intact (the `gaps` table counts the samples lost).")
    static let resync = AnomalyCode("W_RESYNC",
        meaning: "Bytes were skipped to regain packet alignment (a damaged packet and its neighbours' misaligned bytes).")
    static let discontinuity = AnomalyCode("W_DISCONTINUITY",
        meaning: "The order numbers restart (concatenated captures or a device reset): a new segment begins.")
    static let truncatedTail = AnomalyCode("W_TRUNCATED_TAIL",
        meaning: "The capture ends with 1–19 bytes of a partial packet.")
    static let unsyncedTail = AnomalyCode("W_UNSYNCED_TAIL",
        meaning: "Bytes at the end of the capture hold no chain of packets and were skipped.")
}
