import Foundation

/// The SDK's test sequence (`startTestSequenceWithDominantFrequence:`, spec §5.1): all four channels get the
/// same value, in nV, unquantised.
public enum TestSequence: Sendable, Equatable {
    /// v1: `100000·sin(2π·f·n/250)` nV, a 100 µV sine at `f` Hz.
    case v1(frequency: Double)
    /// v2: `1000·(a·(sin(2π·5n/250) + sin(2π·10n/250)) + b·sin(2π·18n/250))` nV, with one preset before sample
    /// `switchAt` (the indicator start) and another from it on.
    case v2(before: Preset, after: Preset, switchAt: Int)

    /// The (a, b) amplitudes of a v2 preset; `scale` is 1000 for every preset but green4, which lacks the ×1000.
    public struct Preset: Sendable, Equatable, Codable {
        public var a: Double
        public var b: Double
        public var scale: Double

        public init(a: Double, b: Double, scale: Double = 1000) {
            self.a = a
            self.b = b
            self.scale = scale
        }

        /// The presets named in the SDK source (all but `baseline` and `red` are commented out there).
        public static let named: [String: Preset] = [
            "baseline": Preset(a: 50, b: 20), "red": Preset(a: 25, b: 21),
            "green1": Preset(a: 36, b: 19), "green2": Preset(a: 64, b: 21), "green3": Preset(a: 75, b: 23),
            "green4": Preset(a: 95, b: 30, scale: 1),
            "yellow1": Preset(a: 75, b: 16), "yellow2": Preset(a: 40, b: 16), "orange": Preset(a: 90, b: 16),
        ]

        /// A named preset or an explicit `a,b`.
        public init?(parsing text: String) {
            if let preset = Preset.named[text] { self = preset; return }
            let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2 else { return nil }
            self.init(a: parts[0], b: parts[1])
        }
    }

    /// The value of sample `n` (the counter) in nV.
    public func nanovolts(_ n: Int) -> Double {
        // Evaluated as the formulas are written: 2π·f·n/250.
        let x = Double(n), fs = BrainiacHeadband.samplingRate
        switch self {
        case .v1(let frequency):
            return 100_000 * sin(2 * .pi * frequency * x / fs)
        case .v2(let before, let after, let switchAt):
            let p = n < switchAt ? before : after
            return p.scale * (p.a * (sin(2 * .pi * 5 * x / fs) + sin(2 * .pi * 10 * x / fs))
                              + p.b * sin(2 * .pi * 18 * x / fs))
        }
    }
}
