/// One trial: a run of STIMULUSEVENTs without a gap above `iti_ms`, with its cue and online selection
/// (spec §2.5–2.6).
public struct Trial: Sendable, Equatable {
    /// 0-based trial number within the file.
    public var index: Int
    /// `calibration`, `prediction` or `other`, from the mode.
    public var phase: String
    /// The last MODECHANGE at or before the first event (nil before any).
    public var mode: String?
    /// The first event's line.
    public var firstLine: Int
    /// The first and last event (indices into ``StimulusSequence``), inclusive.
    public var events: ClosedRange<Int>
    /// The first event's time in ms.
    public var startMs: Int64
    /// Last − first event time, in ms.
    public var durationMs: Int64
    /// The objIDs reported in the trial, sorted.
    public var objectIDs: [Int]
    /// The k ≠ 0 whose states agree best with objID 0, if that agreement is ≥ 0.95 and unique.
    public var cuedTarget: Int?
    /// The best agreement with objID 0 (nil without objID 0).
    public var cueAgreement: Double?
    /// The first SELECTION of the trial.
    public var selected: Int?
    /// The SELECTION's time in ms.
    public var selectionMs: Int64?
    /// The last PREDICTEDTARGETPROB before the selection, within the trial.
    public var onlineYest: Int?
    public var onlinePerr: Double?
    /// How well the cued object's displayed states agree with its code column (nil without a cue or codes).
    public var codeAgreement: Double?

    /// The number of frames (events).
    public var frameCount: Int { events.count }
    /// `selected == cuedTarget`, nil unless both are known.
    public var correct: Bool? {
        guard let selected, let cuedTarget else { return nil }
        return selected == cuedTarget
    }
    /// Selection time − first event time.
    public var timeToSelectionMs: Int64? { selectionMs.map { $0 - startMs } }
    /// Selection time − last event time.
    public var selectionAfterLastFrameMs: Int64? { selectionMs.map { $0 - (startMs + durationMs) } }

    /// The phase of a mode string.
    public static func phase(of mode: String?) -> String {
        guard let mode else { return "other" }
        if mode.hasPrefix("Calibration") { return "calibration" }
        if mode.hasPrefix("Prediction") { return "prediction" }
        return "other"
    }
}
