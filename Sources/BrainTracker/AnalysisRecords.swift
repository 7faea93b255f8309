import Tables

/// One row of the `trials` table (spec §10.1).
public struct TrialRecord: Sendable, Equatable {
    public var line: Int
    public var rowFormat: RowFormat
    public var sessionSeq: Int
    public var sessionID: String?
    public var trialIndex: Int
    public var timeUTC: Double?
    /// ISO 8601 local time, with the inferred offset (BrainTracker) or without one (R export).
    public var timeLocal: String?
    public var target: String
    public var latencyMs: Double
    public var correct: Bool
    public var include: Bool
    public var validSeth: Bool
    /// Why the trial is not valid for Seth's statistics (`too fast`, `too slow`, `not correct`, `not included`,
    /// `warmup`); `nil` when valid.
    public var exclusion: String?
    public var pctApp: Double?
    public var pctRule: ScoreRule?
    public var pctN: Int?
    public var ptileSeth: Double?
    public var ptileStored: Double?
}

/// One row of the `sessions` table (spec §10.2).
public struct SessionRecord: Sendable, Equatable {
    public var sessionSeq: Int
    public var sessionID: String?
    public var comment: String?
    public var startUTC: Double?
    public var endUTC: Double?
    public var utcOffsetMin: Int?
    public var offsetSource: String?
    public var startLocal: String?
    public var nTrials: Int
    public var nExpected: Int?
    public var complete: Bool
    public var isWarmup: Bool
    public var sessionLine: Int?
    public var scoreStored: Double?
    public var scoreRecomputed: Double?
    public var scoreDelta: Double?
    public var scoreMatch: String?
    public var scoreRule: ScoreRule?
    public var pctAppMean: Double?
    public var latencyMeanMs: Double?
    public var latencyMedianMs: Double?
    public var latencySDMs: Double?
    public var latencyTrimmedMeanMs: Double?
    public var latencyLogMean: Double?
    public var latencyLogSE: Double?
    public var nValidSeth: Int
    public var sethPtileMean: Double?
    public var sethPtileSE: Double?
    public var latencyCorrectedMeanMs: Double?
    public var pctWrong: Double?
    public var pctWrongSE: Double?
}

/// Everything `rt-stats` finds in one input.
public struct RTAnalysis: Sendable {
    public var sourceFile: String
    public var format: ResultsFormat
    public var trials: TrialRecords
    public var sessions: [SessionRecord]
    public var anomalies: [Anomaly]
}
