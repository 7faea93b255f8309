import Foundation
import Tables
import TestSupport
@testable import Brainiac

/// Samples built straight from the spec's formulas, independent of the decoder and the synthesizer (spec §5.1,
/// §5.2): the SDK test sequence, quantised as a capture would be.
enum FrameTestSamples {
    /// K = 1e9 · (2.4 / 6.0 / 32.0) / 32767, computed in that order.
    static let k: Double = 1_000_000_000 * (2.4 / 6.0 / 32.0) / 32767

    /// What a capture holds for `v` nV: raw = clamp(round_half_away(v/K)), nV = floor(raw·K).
    static func captured(_ v: Double) -> Double {
        let raw = min(32767, max(-32768, (v / k).rounded(.toNearestOrAwayFromZero)))
        return (raw * k).rounded(.down)
    }

    /// v2: 1000·(a·(sin(2π·5n/250) + sin(2π·10n/250)) + b·sin(2π·18n/250)) nV.
    static func v2(_ n: Int, a: Double, b: Double) -> Double {
        let x = Double(n)
        let s5: Double = sin(2 * Double.pi * 5 * x / 250)
        let s10: Double = sin(2 * Double.pi * 10 * x / 250)
        let s18: Double = sin(2 * Double.pi * 18 * x / 250)
        return 1000 * (a * (s5 + s10) + b * s18)
    }

    /// v1: 100000·sin(2π·f·n/250) nV.
    static func v1(_ n: Int, f: Double) -> Double { 100_000 * sin(2 * Double.pi * f * Double(n) / 250) }

    /// The presets (a, b) of spec §5.1.
    static let presets: [String: (a: Double, b: Double)] = [
        "baseline": (50, 20), "red": (25, 21), "green1": (36, 19), "green2": (64, 21), "green3": (75, 23),
        "yellow1": (75, 16), "yellow2": (40, 16), "orange": (90, 16),
    ]

    /// v2 with `before` until sample `switchAt` and `after` from it on (the SDK test timeline).
    static func v2Timeline(before: String = "baseline", after: String = "red", switchAt: Int = 5250)
        -> (Int) -> Double {
        let p = presets[before]!, q = presets[after]!
        return { n in n < switchAt ? v2(n, a: p.a, b: p.b) : v2(n, a: q.a, b: q.b) }
    }

    /// `count` samples of one segment, all four channels equal to `value(n)` (quantised unless `inMemory`),
    /// sample_index = counter = n.
    static func samples(count: Int, segment: Int = 0, inMemory: Bool = false,
                        _ value: (Int) -> Double) -> [BrainiacSample] {
        (0..<count).map { n in
            let v = inMemory ? value(n) : captured(value(n))
            return BrainiacSample(segment: segment, sampleIndex: n, counter: n, orderNumber: UInt16(truncatingIfNeeded: n),
                                  byte2: 0, byte11: 0, nanovolts: SIMD4(repeating: v))
        }
    }

    /// Runs the analysis over samples and returns its tables by name.
    static func analyse(_ samples: [BrainiacSample], options: BrainiacAnalysisOptions = .init(),
                        batch: Int = 977, scope: BrainiacAnalysis.Scope = .tables) -> [String: Table] {
        let analysis = BrainiacAnalysis(sourceFile: "test.bin", options: options, scope: scope)
        var index = 0
        while index < samples.count {
            analysis.consume(Array(samples[index..<min(samples.count, index + batch)]))
            index += batch
        }
        analysis.finish()
        return Dictionary(uniqueKeysWithValues: analysis.tables.map { ($0.name, $0) })
    }
}

extension Table {
    /// A float64 column's values (NaN for missing).
    func floatColumn(_ name: String) -> [Double] {
        guard case .float64(let values)? = self[column: name]?.values else { return [] }
        return values
    }

    /// An int32 column's values (nil for missing).
    func intColumn(_ name: String) -> [Int?] {
        guard case .int32(let values)? = self[column: name]?.values else { return [] }
        return values.map { $0 == .min ? nil : Int($0) }
    }

    /// A bool column's values (nil for missing).
    func boolColumn(_ name: String) -> [Bool?] {
        guard case .bool(let values)? = self[column: name]?.values else { return [] }
        return values.map { $0 == -128 ? nil : $0 == 1 }
    }

    /// A string column's values.
    func stringColumn(_ name: String) -> [String?] {
        guard case .string(let values)? = self[column: name]?.values else { return [] }
        return values
    }
}

/// `|a − b| ≤ tolerance·|b|`.
func analysisClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance * abs(b) }
