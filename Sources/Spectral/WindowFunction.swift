import Foundation

/// A data window, periodic ("DFT-even") as `scipy.signal.get_window` makes them for spectral analysis.
public enum WindowFunction: String, Sendable, Codable, CaseIterable {
    /// All ones ("boxcar").
    case rectangular
    /// Periodic Hann: `0.5 − 0.5·cos(2πn/N)`, n = 0…N−1.
    case hann
    /// Periodic Hamming: `0.54 − 0.46·cos(2πn/N)`, n = 0…N−1.
    case hamming

    /// The `count` coefficients.
    public func coefficients(count: Int) -> [Double] {
        guard count > 0 else { return [] }
        let n = Double(count)
        switch self {
        case .rectangular:
            return [Double](repeating: 1, count: count)
        case .hann:
            return (0..<count).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / n) }
        case .hamming:
            return (0..<count).map { 0.54 - 0.46 * cos(2 * Double.pi * Double($0) / n) }
        }
    }
}

/// Detrending of each segment before windowing (`scipy.signal.welch`'s `detrend`).
public enum Detrend: String, Sendable, Codable, CaseIterable {
    /// Leave the data as they are.
    case none
    /// Subtract the segment's mean.
    case constant
}

/// The scaling of a power spectrum (`scipy.signal.welch`'s `scaling`).
public enum SpectralScaling: String, Sendable, Codable, CaseIterable {
    /// Power spectral density, unit²/Hz: `|X|² / (fs·Σw²)`.
    case density
    /// Power spectrum, unit²: `|X|² / (Σw)²`.
    case spectrum
}
