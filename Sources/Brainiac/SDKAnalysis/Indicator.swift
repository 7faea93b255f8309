/// The SDK's activity zones (spec §4.1), with the source's names and the demo app's labels.
public enum IndicatorZone: Int, Sendable, Codable, CaseIterable {
    case relaxation = 0, highRelaxation, dream, normalActivity, agitation, highAgitation

    /// The source's name (`NormalActivity`).
    public var name: String {
        switch self {
        case .relaxation: "Relaxation"
        case .highRelaxation: "HighRelaxation"
        case .dream: "Dream"
        case .normalActivity: "NormalActivity"
        case .agitation: "Agitation"
        case .highAgitation: "HighAgitation"
        }
    }

    /// The demo app's label ("Normal activation").
    public var appLabel: String {
        switch self {
        case .relaxation: "Relaxation"
        case .highRelaxation: "Deep relaxation"
        case .dream: "Sleep"
        case .normalActivity: "Normal activation"
        case .agitation: "Excitement"
        case .highAgitation: "Deep excitement"
        }
    }
}

/// The SDK's indicator colours.
public enum IndicatorColor: String, Sendable, Codable, CaseIterable {
    case green, yellow, red, orange
}

/// One indicator: computed every 1250 received samples once the baseline is in (spec §4.1).
public struct Indicator: Sendable, Equatable {
    /// The received-sample count it was computed at.
    public var counter: Int
    /// Device time of that moment: (sample_index of the last sample + 1) / 250.
    public var endSeconds: Double
    /// X (mean alpha of O1/O2) and Y (mean beta of T3/T4) over the last 5 frames' clear channels; `nil` if none.
    public var x: Double?
    public var y: Double?
    /// The zone result; `nil` when X or Y is empty (the SDK's `"none"`).
    public var result: Result?

    /// Zone, percents and colours.
    public struct Result: Sendable, Equatable {
        public var zone: IndicatorZone
        public var percents: Float
        public var colours: [IndicatorColor]
    }

    /// Classifies (X, Y) against the baseline.
    public init(counter: Int, endSeconds: Double, x: Double?, y: Double?, thresholds: IndicatorThresholds) {
        self.counter = counter
        self.endSeconds = endSeconds
        self.x = x
        self.y = y
        if let x, let y {
            let (zone, percents) = IndicatorRules.zone(x: x, y: y, thresholds: thresholds)
            result = Result(zone: zone, percents: percents,
                            colours: IndicatorRules.colours(x: x, y: y, x0: thresholds.x0, y0: thresholds.y0))
        }
    }
}
