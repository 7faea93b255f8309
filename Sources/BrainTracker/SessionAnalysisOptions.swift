import Tables
/// The input formats `rt-stats` reads.
public enum ResultsFormat: String, Sendable, CaseIterable {
    /// `BrainTrackerResultsFile.csv`.
    case brt
    /// Seth Roberts' R export (`brain_data_raw.csv` columns).
    case sethR = "seth-r"
}

/// The numbers that change results (spec §12), with the app's and Seth Roberts' defaults.
public struct SessionAnalysisOptions: Sendable, Encodable {
    /// N for SessionScore; `nil` = `auto` (the session's trial-row count).
    public var trialsPerSession: Int? = 32
    public var scoreRule: ScoreRuleChoice = .auto
    /// `--rule-cutover`: sessions starting before use the all-history rule under `auto` (2014-09-18T17:43:33Z).
    public var ruleCutover: Double = CivilTime.seconds(year: 2014, month: 9, day: 18, hour: 17, minute: 43, second: 33)
    public var sethWindow = 400
    public var sethMinN = 5
    /// `nil` = the format's default (prospective for BrainTracker, final for R).
    public var sethMode: SethMode?
    public var minMs = 150.0
    public var maxMs = 3000.0
    public var trim = 0.1
    public var gapMinutes = 10.0

    public init() {}

    /// The Seth mode used for a format.
    public func sethMode(for format: ResultsFormat) -> SethMode {
        sethMode ?? (format == .brt ? .prospective : .final)
    }

    /// Why a trial fails Seth's validity (spec §8: correct, included, not a warm-up, strictly between the
    /// cutoffs), or `nil` when it is valid.
    public func sethExclusion(latency: Double, correct: Bool, include: Bool, warmup: Bool = false) -> String? {
        if warmup { return "warmup" }
        if !include { return "not included" }
        if !correct { return "not correct" }
        if latency <= minMs { return "too fast" }
        if latency >= maxMs { return "too slow" }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case trialsPerSession = "trials_per_session", scoreRule = "score_rule", ruleCutover = "rule_cutover"
        case sethWindow = "seth_window", sethMinN = "seth_min_n", sethMode = "seth_mode", minMs = "min_ms"
        case maxMs = "max_ms", trim, gapMinutes = "gap_minutes"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(trialsPerSession.map(String.init) ?? "auto", forKey: .trialsPerSession)
        try container.encode(scoreRule.rawValue, forKey: .scoreRule)
        try container.encode(CivilTime.iso8601(wallSeconds: ruleCutover, offsetMinutes: nil) + "Z", forKey: .ruleCutover)
        try container.encode(sethWindow, forKey: .sethWindow)
        try container.encode(sethMinN, forKey: .sethMinN)
        try container.encode(sethMode?.rawValue ?? "auto", forKey: .sethMode)
        try container.encode(minMs, forKey: .minMs)
        try container.encode(maxMs, forKey: .maxMs)
        try container.encode(trim, forKey: .trim)
        try container.encode(gapMinutes, forKey: .gapMinutes)
    }
}
