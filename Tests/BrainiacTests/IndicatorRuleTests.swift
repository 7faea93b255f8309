import Testing
@testable import Brainiac

/// The zone and colour rules of spec §4.1, table-driven at every boundary, with X0 = Y0 = 1 (ratios).
@Suite("Indicator rules (spec §4.1)")
struct IndicatorRuleTests {
    static let sdk = IndicatorThresholds(x0: 1, y0: 1, rules: .sdk)
    static let corrected = IndicatorThresholds(x0: 1, y0: 1, rules: .corrected)

    /// (name, X, Y, expected under sdk, expected under corrected)
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var x: Double
        var y: Double
        var sdk: (IndicatorZone, Float)
        var corrected: (IndicatorZone, Float)
        var description: String { name }
        init(_ name: String, _ x: Double, _ y: Double, _ zone: IndicatorZone, _ percents: Float,
             corrected: (IndicatorZone, Float)? = nil) {
            self.name = name
            self.x = x
            self.y = y
            sdk = (zone, percents)
            self.corrected = corrected ?? (zone, percents)
        }
    }

    static let t = sdk
    static let cases: [Case] = [
        // X > X0
        Case("A1: Y above Y0", 1.1, 1.2, .relaxation, 0.25),
        Case("A1/A2: Y = Y0, last wins", 1.1, 1.0, .relaxation, 0.5),
        Case("A2: inside", 1.1, 0.95, .relaxation, 0.5),
        Case("A2/A3: Y = Y1p, last wins", 1.1, t.y1p, .relaxation, 0.75),
        Case("A3: low Y", 1.1, 0.5, .relaxation, 0.75),
        Case("A1: X = X1p is in the first band", t.x1p, 1.2, .relaxation, 0.25),
        Case("A4: inside", 1.4, 0.9, .relaxation, 1.0),
        Case("A4: Y = Y2p", 1.4, t.y2p, .relaxation, 1.0),
        Case("A4: X = X2p", t.x2p, 1.0, .relaxation, 1.0),
        Case("no rule: X1p < X ≤ X2p, Y > Y0", 1.4, 1.1, .normalActivity, 1.0),
        Case("no rule: X1p < X ≤ X2p, Y < Y2p", 1.4, 0.8, .normalActivity, 1.0),
        Case("A5", 1.5, 1.1, .highRelaxation, 0.25),
        Case("A5/A6: Y = Y0", 1.5, 1.0, .highRelaxation, 0.5),
        Case("A6/A7: Y = Y3p", 1.5, t.y3p, .highRelaxation, 0.75),
        Case("A7", 1.5, 0.5, .highRelaxation, 0.75),
        Case("A8", 1.6, 0.8, .highRelaxation, 1.0),
        Case("A8: Y = Y4p", 1.6, t.y4p, .highRelaxation, 1.0),
        Case("no rule: X3p < X < X4p, Y > Y0", 1.6, 1.1, .normalActivity, 1.0),
        Case("A8/A9: X = X4p → Dream", t.x4p, 0.8, .dream, 0.5),
        Case("A9", 3, 0, .dream, 0.5),
        // X ≤ X0
        Case("B1: X = X0 is the lower branch", 1.0, 0.95, .normalActivity, 0.25),
        Case("B2: Y = Y0", 1.0, 1.0, .normalActivity, 0.5),
        Case("B2: Y = Y1m", 0.8, t.y1m, .normalActivity, 0.5),
        Case("B3", 0.8, 1.2, .normalActivity, 0.75),
        Case("B4 excluded: X = X1m, Y < Y0", t.x1m, 0.95, .normalActivity, 1.0),
        Case("B4", 0.5, 1.1, .normalActivity, 1.0),
        Case("B4: Y = Y2m", 0.5, t.y2m, .normalActivity, 1.0),
        Case("no rule: X2m < X ≤ X1m, Y < Y0 (the red preset)", 0.5, 0.9, .normalActivity, 1.0),
        Case("B5", 0.3, 0.9, .agitation, 0.25),
        Case("B5: X = X2m", t.x2m, 0.9, .agitation, 0.25),
        Case("B6", 0.3, 1.2, .agitation, 0.5),
        Case("B6: Y = Y3m", 0.3, t.y3m, .agitation, 0.5),
        Case("B7", 0.3, 1.3, .agitation, 0.75),
        Case("B8: empty under the X4m quirk", 0.15, 1.2, .normalActivity, 1.0, corrected: (.agitation, 1.0)),
        Case("B8: X = X3m", t.x3m, 1.2, .normalActivity, 1.0, corrected: (.agitation, 1.0)),
        Case("B8: Y = Y4m", 0.15, t.y4m, .normalActivity, 1.0, corrected: (.agitation, 1.0)),
        Case("B8: Y = Y0 excluded", 0.15, 1.0, .normalActivity, 1.0),
        Case("B9 after B8", 0.05, 1.2, .highAgitation, 0.5),
        Case("B9: X = 0.1·X0 excluded", 0.1, 0.5, .normalActivity, 1.0),
        Case("X = 0.1·X0 with B8 (corrected)", 0.1, 1.2, .normalActivity, 1.0, corrected: (.agitation, 1.0)),
        Case("X = 0", 0, 1.2, .normalActivity, 1.0),
        Case("X < 0", -1, 1.0, .normalActivity, 1.0),
        Case("no rule: 0.1X0 ≤ X ≤ X3m, Y < Y0", 0.15, 0.9, .normalActivity, 1.0),
    ]

    @Test("Zones: independent ifs in order, last match wins, default (3, 1.0)", arguments: cases)
    func zones(c: Case) {
        let sdk = IndicatorRules.zone(x: c.x, y: c.y, thresholds: Self.sdk)
        #expect(sdk.zone == c.sdk.0 && sdk.percents == c.sdk.1, "sdk: \(sdk)")
        let corrected = IndicatorRules.zone(x: c.x, y: c.y, thresholds: Self.corrected)
        #expect(corrected.zone == c.corrected.0 && corrected.percents == c.corrected.1, "corrected: \(corrected)")
    }

    @Test("Thresholds computed literally; X4m = 0.9·X0 (sdk) or 0 (corrected)")
    func thresholds() {
        let x0 = 2.917376e6, y0 = 1.105575e6
        let t = IndicatorThresholds(x0: x0, y0: y0, rules: .sdk)
        #expect(t.x1p == 1.3 * x0 && t.x4p == 1.7 * x0)
        #expect(t.x1m == 0.65 * (x0 - 0.1 * x0) && t.x3m == 0.2 * (x0 - 0.1 * x0))
        #expect(t.x4m == x0 - 0.1 * x0 && t.x4m > t.x3m)
        #expect(t.y1p == 0.9 * y0 && t.y4m == 1.3 * y0)
        #expect(IndicatorThresholds(x0: x0, y0: y0, rules: .corrected).x4m == 0)
        #expect(t.named.map(\.name) == ["x1p", "x2p", "x3p", "x4p", "x1m", "x2m", "x3m", "x4m",
                                        "y1p", "y2p", "y3p", "y4p", "y1m", "y2m", "y3m", "y4m"])
    }

    @Test("Colours: four independent tests, none or several, in the order green, yellow, red, orange",
          arguments: [
              (1.0, 1.0, [IndicatorColor.green]),
              (0.7, 1.25, [.green, .red]),
              (0.71, 1.25, [.green]),
              (0.7, 1.26, [.red]),
              (1.4, 1.0, [.green, .yellow]),
              (1.6, 1.0, [.green, .yellow]),
              (1.4, 1.25, [.red]),
              (1.4, 0.5, [.yellow]),
              (1.3, 0.5, [.green]),
              (1.7, 1.1, [.green]),
              (1.7, 1.0, [.orange]),
              (1.7, 0.0, []),
              (0.5, 0.8, [.green]),
              (0.5, 0.75, [.yellow]),
              (0.5, 1.0, []),
              (0.0, 0.5, []),
              (1.0, 0.0, [.green]),
              (1.4, 0.0, []),
          ])
    func colours(x: Double, y: Double, expected: [IndicatorColor]) {
        #expect(IndicatorRules.colours(x: x, y: y, x0: 1, y0: 1) == expected)
    }

    @Test("Zone names and codes")
    func names() {
        #expect(IndicatorZone.allCases.map(\.name) == ["Relaxation", "HighRelaxation", "Dream", "NormalActivity",
                                                       "Agitation", "HighAgitation"])
        #expect(IndicatorZone.allCases.map(\.rawValue) == Array(0...5))
    }
}
