import Tables
import Foundation

/// Per-stroke Apple Pencil values from the sidecar (spec §4.1); `nil` where the JSON has none or a non-finite one.
public struct PencilValues: Sendable, Equatable {
    /// Means over the stroke's move samples (the hidden `pencilDrawing` record).
    public var forceMean: Double?
    public var azimuthMean: Double?
    public var altitudeMean: Double?
    public var xMean: Double?
    public var yMean: Double?
    /// At pen-down (the `ButtonDown` record); force divided by sin(altitude) by the app.
    public var forceDown: Double?
    public var azimuthDown: Double?
    public var altitudeDown: Double?
}

/// The iPad `InteractLog.json` beside a log, joined by id (spec §4.1): every event must find its action of the
/// same kind with the same timestamp, else `W_SIDECAR_MISMATCH` and no pencil columns.
public struct SidecarJoin: Sendable {
    /// `joined` or `mismatch`.
    public var status: String
    /// The run UUID (`id`).
    public var runID: String?
    /// `trialStart` as Unix seconds (the JSON counts from 2001-01-01).
    public var trialStartUTC: Double?
    /// Pencil values per stroke number, when joined.
    public var pencil: [Int: PencilValues] = [:]

    /// Seconds from 1970-01-01 to 2001-01-01 (Foundation's reference date).
    static let referenceDateOffset = 978_307_200.0

    init(json: Data, log: ParsedLog, strokes: Strokes, anomalies: inout AnomalyRecorder) {
        status = "mismatch"
        guard let root = try? JSONDecoder().decode(JSON.self, from: json), let actions = root["actions"]?.array else {
            anomalies.add(.sidecarMismatch, "InteractLog.json beside the log is not a JSON object with an 'actions' array; no pencil columns")
            return
        }
        runID = root["id"]?.string
        trialStartUTC = root["trialStart"]?.number.map { $0 + Self.referenceDateOffset }
        for event in log.events {
            let location = "actions[\(event.id)]"
            guard event.id >= 0, event.id < actions.count else {
                anomalies.add(.sidecarMismatch, line: event.line, location: location,
                              "id \(event.id) is beyond the \(actions.count) actions of InteractLog.json; no pencil columns")
                return
            }
            let entry = actions[event.id]
            let action = entry["action"] ?? .null
            if let problem = Self.mismatch(event, action: action) ?? Self.timeMismatch(event, entry: entry) {
                anomalies.add(.sidecarMismatch, line: event.line, location: location,
                              "expected \(problem) in InteractLog.json; no pencil columns", raw: String(event.name))
                return
            }
        }
        status = "joined"
        var records: [(azimuth: Double?, altitude: Double?)] = []
        for stroke in strokes {
            var values = PencilValues()
            if let down = stroke.downIndex, let sample = Self.sample(actions[log.events[down].id], key: "drawing", inner: "_1") {
                values.forceDown = sample["force"]?.number
                values.azimuthDown = sample["azimuth"]?.number
                values.altitudeDown = sample["altitude"]?.number
            }
            if let up = stroke.upIndex, log.events[up].id + 1 < actions.count,
               let sample = Self.sample(actions[log.events[up].id + 1], key: "pencilDrawing", inner: "_0") {
                values.forceMean = sample["force"]?.number
                values.azimuthMean = sample["azimuth"]?.number
                values.altitudeMean = sample["altitude"]?.number
                let point = sample["point"]?.array ?? []
                values.xMean = point.count == 2 ? point[0].number : nil
                values.yMean = point.count == 2 ? point[1].number : nil
                records.append((values.azimuthMean, values.altitudeMean))
            }
            pencil[stroke.stroke] = values
        }
        if !records.isEmpty, records.allSatisfy({ $0.azimuth != nil && $0.azimuth == $0.altitude }) {
            anomalies.add(.altitudeBug, "altitude equals azimuth in every pencil record (builds 2023-08-07 to 08-26); altitude_mean_rad is NA")
            for key in pencil.keys { pencil[key]?.altitudeMean = nil }
        }
    }

    /// What the action should have been, or `nil` when it is of the event's kind.
    static func mismatch(_ event: LogEvent, action: JSON) -> String? {
        switch event.kind {
        case .drawingEnabled:
            return action["drawingEnabled"] != nil ? nil : "a drawingEnabled action"
        case .buttonDown, .buttonReleased:
            let down = event.kind == .buttonDown
            return action["drawing"]?["_0"]?.bool == down ? nil : "a drawing action with _0 \(down)"
        case .stimulusOn(let phase, let image), .stimulusOff(let phase, let image):
            let show: Bool = if case .stimulusOn = event.kind { true } else { false }
            // Dev builds before 2023-07-16 wrote `familiarisation` / `stimulus` actions of unknown shape.
            if action["familiarisation"] != nil || action["stimulus"] != nil { return nil }
            let display = action["stimulusDisplay"]
            let matches = display?["isShow"]?.bool == show && display?["phaseName"]?.string == phase
                && display?["fileName"]?.string == image
            return matches ? nil : "a stimulusDisplay action (isShow \(show), \(phase), \(image ?? "?"))"
        default:
            return "an action for '\(event.name)' (the iPad logs no such event)"
        }
    }

    /// A timestamp problem, or `nil` when the JSON timestamp prints as the log's (|Δ| < 0.001 ms).
    static func timeMismatch(_ event: LogEvent, entry: JSON) -> String? {
        guard let json = entry["timestamp"]?.number, let logged = Double(event.timestampText),
              abs(json - logged) < 0.001 else { return "timestamp \(event.timestampText)" }
        return nil
    }

    static func sample(_ entry: JSON, key: String, inner: String) -> JSON? {
        entry["action"]?[key]?[inner]
    }
}
