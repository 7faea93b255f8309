/// Which zone rules the indicators use (`--indicator-rules`).
public enum IndicatorRuleSet: String, Sendable, Codable, CaseIterable {
    /// The SDK as it was, X4m quirk included (X4m = 0.9·X0, so "Agitation 1.0" never matches).
    case sdk
    /// X4m = 0, as the SDK's successor (`NX4 = 0` in BrainBit).
    case corrected
}

/// The baseline X0, Y0 and the 16 thresholds of `fillStartXYValues`, computed literally in double precision
/// (spec §4.1): `Xnp = p·X0`, `Xnm = m·(X0 − 0.1·X0)`, `Ynp = p·Y0`, `Ynm = m·Y0`.
public struct IndicatorThresholds: Sendable, Equatable {
    public var x0, y0: Double
    public var x1p, x2p, x3p, x4p: Double
    public var x1m, x2m, x3m, x4m: Double
    public var y1p, y2p, y3p, y4p: Double
    public var y1m, y2m, y3m, y4m: Double
    public var rules: IndicatorRuleSet

    public init(x0: Double, y0: Double, rules: IndicatorRuleSet) {
        self.x0 = x0
        self.y0 = y0
        self.rules = rules
        x1p = 1.30 * x0; x2p = 1.45 * x0; x3p = 1.55 * x0; x4p = 1.70 * x0
        let reduced = x0 - 0.1 * x0
        x1m = 0.65 * reduced; x2m = 0.45 * reduced; x3m = 0.20 * reduced
        x4m = rules == .sdk ? reduced : 0
        y1p = 0.90 * y0; y2p = 0.85 * y0; y3p = 0.80 * y0; y4p = 0.70 * y0
        y1m = 1.10 * y0; y2m = 1.15 * y0; y3m = 1.25 * y0; y4m = 1.30 * y0
    }

    /// The 16 thresholds with their output names, in `baseline` column order.
    public var named: [(name: String, value: Double)] {
        [("x1p", x1p), ("x2p", x2p), ("x3p", x3p), ("x4p", x4p), ("x1m", x1m), ("x2m", x2m), ("x3m", x3m),
         ("x4m", x4m), ("y1p", y1p), ("y2p", y2p), ("y3p", y3p), ("y4p", y4p), ("y1m", y1m), ("y2m", y2m),
         ("y3m", y3m), ("y4m", y4m)]
    }
}

/// An interval of the real line with open or closed ends, as the SDK's comparisons write them.
public struct RuleInterval: Sendable, Equatable {
    public var lower: Double
    public var lowerClosed: Bool
    public var upper: Double
    public var upperClosed: Bool

    @inlinable
    public func contains(_ value: Double) -> Bool {
        (lowerClosed ? value >= lower : value > lower) && (upperClosed ? value <= upper : value < upper)
    }

    /// a < v ≤ b
    public static func openClosed(_ a: Double, _ b: Double) -> RuleInterval { .init(lower: a, lowerClosed: false, upper: b, upperClosed: true) }
    /// a ≤ v ≤ b
    public static func closed(_ a: Double, _ b: Double) -> RuleInterval { .init(lower: a, lowerClosed: true, upper: b, upperClosed: true) }
    /// a < v < b
    public static func open(_ a: Double, _ b: Double) -> RuleInterval { .init(lower: a, lowerClosed: false, upper: b, upperClosed: false) }
    /// a ≤ v < b
    public static func closedOpen(_ a: Double, _ b: Double) -> RuleInterval { .init(lower: a, lowerClosed: true, upper: b, upperClosed: false) }
    /// v ≥ a
    public static func atLeast(_ a: Double) -> RuleInterval { closed(a, .infinity) }
    /// v > a
    public static func above(_ a: Double) -> RuleInterval { open(a, .infinity) }
    /// v ≤ b
    public static func atMost(_ b: Double) -> RuleInterval { closed(-.infinity, b) }
    /// v < b
    public static func below(_ b: Double) -> RuleInterval { open(-.infinity, b) }
    /// any value
    public static let any = RuleInterval(lower: -.infinity, lowerClosed: true, upper: .infinity, upperClosed: true)
}

/// One row of the SDK's zone rules: an X range, a Y condition and the result.
public struct ZoneRule: Sendable, Equatable {
    public var x: RuleInterval
    public var y: RuleInterval
    public var zone: IndicatorZone
    public var percents: Float

    public init(x: RuleInterval, y: RuleInterval, zone: IndicatorZone, percents: Float) {
        self.x = x
        self.y = y
        self.zone = zone
        self.percents = percents
    }

    public func matches(x xValue: Double, y yValue: Double) -> Bool { x.contains(xValue) && y.contains(yValue) }
}

/// The SDK's indicator rules (spec §4.1): zones by independent ifs in order, the last match winning from the
/// default (NormalActivity, 1.0); colours by four independent tests.
public enum IndicatorRules {
    /// The default when no rule matches.
    public static let defaultResult: (zone: IndicatorZone, percents: Float) = (.normalActivity, 1.0)

    /// The rules for X > X0, in the SDK's order.
    public static func rulesAboveBaseline(_ t: IndicatorThresholds) -> [ZoneRule] {
        [
            ZoneRule(x: .openClosed(t.x0, t.x1p), y: .atLeast(t.y0), zone: .relaxation, percents: 0.25),
            ZoneRule(x: .openClosed(t.x0, t.x1p), y: .closed(t.y1p, t.y0), zone: .relaxation, percents: 0.5),
            ZoneRule(x: .openClosed(t.x0, t.x1p), y: .atMost(t.y1p), zone: .relaxation, percents: 0.75),
            ZoneRule(x: .openClosed(t.x1p, t.x2p), y: .closed(t.y2p, t.y0), zone: .relaxation, percents: 1.0),
            ZoneRule(x: .openClosed(t.x2p, t.x3p), y: .atLeast(t.y0), zone: .highRelaxation, percents: 0.25),
            ZoneRule(x: .openClosed(t.x2p, t.x3p), y: .closed(t.y3p, t.y0), zone: .highRelaxation, percents: 0.5),
            ZoneRule(x: .openClosed(t.x2p, t.x3p), y: .atMost(t.y3p), zone: .highRelaxation, percents: 0.75),
            ZoneRule(x: .openClosed(t.x3p, t.x4p), y: .closed(t.y4p, t.y0), zone: .highRelaxation, percents: 1.0),
            ZoneRule(x: .atLeast(t.x4p), y: .any, zone: .dream, percents: 0.5),
        ]
    }

    /// The rules for X ≤ X0, in the SDK's order (rule 8 is empty under the X4m quirk).
    public static func rulesAtOrBelowBaseline(_ t: IndicatorThresholds) -> [ZoneRule] {
        [
            ZoneRule(x: .openClosed(t.x1m, t.x0), y: .below(t.y0), zone: .normalActivity, percents: 0.25),
            ZoneRule(x: .openClosed(t.x1m, t.x0), y: .closed(t.y0, t.y1m), zone: .normalActivity, percents: 0.5),
            ZoneRule(x: .openClosed(t.x1m, t.x0), y: .above(t.y1m), zone: .normalActivity, percents: 0.75),
            ZoneRule(x: .openClosed(t.x2m, t.x1m), y: .openClosed(t.y0, t.y2m), zone: .normalActivity, percents: 1.0),
            ZoneRule(x: .openClosed(t.x3m, t.x2m), y: .below(t.y0), zone: .agitation, percents: 0.25),
            ZoneRule(x: .openClosed(t.x3m, t.x2m), y: .openClosed(t.y0, t.y3m), zone: .agitation, percents: 0.5),
            ZoneRule(x: .openClosed(t.x3m, t.x2m), y: .above(t.y3m), zone: .agitation, percents: 0.75),
            ZoneRule(x: .openClosed(t.x4m, t.x3m), y: .openClosed(t.y0, t.y4m), zone: .agitation, percents: 1.0),
            ZoneRule(x: .open(0, 0.1 * t.x0), y: .any, zone: .highAgitation, percents: 0.5),
        ]
    }

    /// The zone and percents for (X, Y): last matching rule of the branch, else (NormalActivity, 1.0).
    public static func zone(x: Double, y: Double, thresholds t: IndicatorThresholds)
        -> (zone: IndicatorZone, percents: Float) {
        let rules = x > t.x0 ? rulesAboveBaseline(t) : rulesAtOrBelowBaseline(t)
        var result = defaultResult
        for rule in rules where rule.matches(x: x, y: y) { result = (rule.zone, rule.percents) }
        return result
    }

    /// Each colour's conditions (any of them suffices), in test order green, yellow, red, orange.
    public static func colourConditions(x0: Double, y0: Double) -> [(IndicatorColor, [(RuleInterval, RuleInterval)])] {
        [
            (.green, [(.closed(0.7 * x0, 1.3 * x0), .closed(0, 1.25 * y0)),
                      (.openClosed(1.3 * x0, 1.6 * x0), .closedOpen(y0, 1.25 * y0)),
                      (.above(1.6 * x0), .above(y0)),
                      (.openClosed(0, 0.7 * x0), .open(0.75 * y0, y0))]),
            (.yellow, [(.openClosed(1.3 * x0, 1.6 * x0), .openClosed(0, y0)),
                       (.openClosed(0, 0.7 * x0), .openClosed(0, 0.75 * y0))]),
            (.red, [(.openClosed(0, 0.7 * x0), .above(y0)),
                    (.openClosed(1.3 * x0, 1.6 * x0), .atLeast(1.25 * y0))]),
            (.orange, [(.above(1.6 * x0), .openClosed(0, y0))]),
        ]
    }

    /// The colours for (X, Y): possibly none, possibly several, in test order.
    public static func colours(x: Double, y: Double, x0: Double, y0: Double) -> [IndicatorColor] {
        colourConditions(x0: x0, y0: y0).compactMap { colour, conditions in
            conditions.contains { $0.0.contains(x) && $0.1.contains(y) } ? colour : nil
        }
    }
}
