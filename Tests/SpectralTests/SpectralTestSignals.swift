import Foundation
import TestSupport

/// Deterministic test signals and the exchange of arrays with the Python references.
enum SpectralTestSignals {
    /// Uniform noise in [−1, 1) from a fixed-seed SplitMix64, plus a 1/f-ish drift so detrending matters.
    static func noise(count: Int, seed: UInt64, offset: Double = 3) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(count)
        for n in 0..<count {
            let unit = generator.unit()
            let drift: Double = 0.5 * sin(Double(n) / 400)
            values.append(2 * unit - 1 + offset + drift)
        }
        return values
    }

    /// Writes doubles as raw little-endian float64 (numpy `fromfile`) and returns the path.
    static func write(_ values: [Double]) throws -> String {
        let url = TestSupport.temporaryFolder().appendingPathComponent("signal.f64")
        try values.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: url)
        return url.path
    }

    /// Runs a Python script that prints whitespace-separated numbers; returns them.
    static func pythonNumbers(_ script: String, _ arguments: [String]) throws -> [Double] {
        try TestSupport.python(script, arguments).split(whereSeparator: { $0 == " " || $0 == "\n" })
            .map { Double($0)! }
    }
}

/// `|a − b| ≤ tolerance·max(|a|, |b|)`, or both below `floor` in magnitude.
func closeRelative(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9, floor: Double = 0) -> Bool {
    if abs(a) <= floor && abs(b) <= floor { return true }
    return abs(a - b) <= tolerance * max(abs(a), abs(b))
}
