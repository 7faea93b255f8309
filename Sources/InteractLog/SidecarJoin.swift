import Foundation

/// The iPad `InteractLog.json` joined to a log (spec §4.1). Stub until the join is written.
public struct SidecarJoin: Sendable {
    public var joined = false
    public var runID: String?
    public var trialStartUTC: Double?

    init(json: Data, log: ParsedLog, strokes: [Stroke], anomalies: inout AnomalyRecorder) {}
}
