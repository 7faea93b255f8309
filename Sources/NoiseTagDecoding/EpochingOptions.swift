/// The options of the loading stage (pymindaffectBCI 0.9.24 `load_mindaffectBCI` defaults), as the provenance
/// records them.
public struct EpochingOptions: Sendable, Codable, Equatable {
    /// The rate after decimation (`fs_out`), Hz.
    public var fsOut: Double = 100
    /// The pre-filter cascade (`stopband`), applied in order.
    public var filters: [FilterSpec] = FilterSpec.pmbDefault
    /// Butterworth order of each stage (`order`).
    public var filterOrder: Int = 6
    /// A stimulus gap above this starts a trial (`iti_ms`), ms.
    public var itiMs: Double = 1000
    /// The trial length (`trlen_ms`), ms; nil: the ``trialLengthPercentile`` of the trial durations.
    public var trialLengthMs: Double?
    /// The percentile of the trial durations used as the trial length when ``trialLengthMs`` is nil.
    public var trialLengthPercentile: Double = 90
    /// Trials no longer than this fraction of the trial length are dropped.
    public var minTrialFraction: Double = 0.2
    /// The window starts this many ms before each trial's first frame (`offset_ms[0]`, negative = before).
    public var offsetBeforeMs: Double = -500
    /// The window ends this many ms after the trial length (`offset_ms[1]`).
    public var offsetAfterMs: Double = 500

    public init() {}

    enum CodingKeys: String, CodingKey {
        case fsOut = "fs_out", filters = "stopband", filterOrder = "filter_order", itiMs = "iti_ms",
             trialLengthMs = "trlen_ms", trialLengthPercentile = "trlen_percentile",
             minTrialFraction = "min_trial_fraction", offsetBeforeMs = "offset_before_ms", offsetAfterMs = "offset_after_ms"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fsOut, forKey: .fsOut)
        try container.encode(filters.map(\.description), forKey: .filters)
        try container.encode(filterOrder, forKey: .filterOrder)
        try container.encode(itiMs, forKey: .itiMs)
        try container.encode(trialLengthMs, forKey: .trialLengthMs)
        try container.encode(trialLengthPercentile, forKey: .trialLengthPercentile)
        try container.encode(minTrialFraction, forKey: .minTrialFraction)
        try container.encode(offsetBeforeMs, forKey: .offsetBeforeMs)
        try container.encode(offsetAfterMs, forKey: .offsetAfterMs)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fsOut = try container.decode(Double.self, forKey: .fsOut)
        filters = try container.decode([String].self, forKey: .filters).compactMap(FilterSpec.init(argument:))
        filterOrder = try container.decode(Int.self, forKey: .filterOrder)
        itiMs = try container.decode(Double.self, forKey: .itiMs)
        trialLengthMs = try container.decodeIfPresent(Double.self, forKey: .trialLengthMs)
        trialLengthPercentile = try container.decode(Double.self, forKey: .trialLengthPercentile)
        minTrialFraction = try container.decode(Double.self, forKey: .minTrialFraction)
        offsetBeforeMs = try container.decode(Double.self, forKey: .offsetBeforeMs)
        offsetAfterMs = try container.decode(Double.self, forKey: .offsetAfterMs)
    }
}
