/// One stage of the pre-filter cascade in pymindaffectBCI's notation: `(low, high)` stops a band, `(low, high,
/// bandpass)` passes one; a low edge of 0 makes a high-pass (a band-stop's) or low-pass, a high edge at or above
/// Nyquist the opposite; a negative edge counts back from Nyquist (`fs/2 + edge + 1`).
public struct FilterSpec: Sendable, Codable, Equatable, CustomStringConvertible {
    public var low: Double
    public var high: Double
    /// true: pass the band; false: stop it.
    public var pass: Bool

    public init(low: Double, high: Double, pass: Bool) {
        self.low = low
        self.high = high
        self.pass = pass
    }

    /// PMB's loader default: a 45–65 Hz band-stop, then a 5.5–25 Hz band-pass.
    public static let pmbDefault = [FilterSpec(low: 45, high: 65, pass: false), FilterSpec(low: 5.5, high: 25, pass: true)]

    /// `low,high` or `low,high,bandpass` (the command-line spelling); nil when it is neither.
    public init?(argument: String) {
        let parts = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 || (parts.count == 3 && ["bandpass", "bandstop"].contains(parts[2])),
              let low = Double(parts[0]), let high = Double(parts[1]) else { return nil }
        self.init(low: low, high: high, pass: parts.count == 3 && parts[2] == "bandpass")
    }

    public var description: String { "\(low.shortText),\(high.shortText)\(pass ? ",bandpass" : "")" }

    /// The band in normalised frequencies (1 = Nyquist) for sampling rate `fs`, computed in single precision as PMB
    /// does; nil when the stage filters nothing (both edges outside 0.0001…0.9999).
    public func band(fs: Double) -> FilterBand? {
        let nyquist = Float(fs / 2)
        var edges = [Float(low), Float(high)].map { $0 < 0 ? Float(fs / 2) + $0 + 1 : $0 }
        edges = edges.map { $0 / nyquist }
        if edges[1] < 0.0001 || 0.9999 < edges[0] { return nil }
        if edges[0] < 0.0001 {
            return pass ? .lowPass(Double(edges[1])) : .highPass(Double(edges[1]))
        }
        if 0.9999 < edges[1] {
            return pass ? .highPass(Double(edges[0])) : .lowPass(Double(edges[0]))
        }
        return pass ? .bandPass(Double(edges[0]), Double(edges[1])) : .bandStop(Double(edges[0]), Double(edges[1]))
    }
}

import Foundation

extension Double {
    /// The shortest text that reads back as this value (`45`, `5.5`).
    var shortText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : "\(self)" }
}
