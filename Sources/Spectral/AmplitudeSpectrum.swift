import FFTW

/// The magnitudes `|X_k|`, k = 0…N/2, of the DFT `X_k = Σ x_n·e^{−2πikn/N}` of one block (no 1/N), after an
/// optional detrend and window; blocks shorter than N are zero-padded. The plan and buffers are made once and
/// reused: no allocation per block. One thread at a time per instance.
public final class AmplitudeSpectrum {
    /// The transform length N.
    public let length: Int
    /// Number of magnitudes, N/2 + 1.
    public var count: Int { length / 2 + 1 }
    private let plan: FFTWRealPlan
    private let window: [Double]
    private let detrend: Detrend
    /// Whether the block goes into the transform as it is (no detrend, every window coefficient 1): then it is
    /// copied, which gives the same values as subtracting 0 and multiplying by 1.
    private let takesBlockAsIs: Bool

    public init(length: Int, window: WindowFunction = .rectangular, detrend: Detrend = .none) {
        self.length = length
        plan = FFTWRealPlan(count: length)
        self.window = window.coefficients(count: length)
        self.detrend = detrend
        takesBlockAsIs = detrend == .none && self.window.allSatisfy { $0 == 1 }
    }

    /// Writes `|X_k|` into `magnitudes` (at least N/2 + 1 elements) for `block` (at most N samples; the window
    /// applies to the block's own length N, the padding is zero).
    public func magnitudes(of block: UnsafeBufferPointer<Double>, into magnitudes: UnsafeMutableBufferPointer<Double>) {
        let n = min(block.count, length)
        let input = plan.input
        var mean = 0.0
        if detrend == .constant, n > 0 {
            var total = 0.0
            for i in 0..<n { total += block[i] }
            mean = total / Double(n)
        }
        if takesBlockAsIs, n > 0 {
            input.baseAddress!.update(from: block.baseAddress!, count: n)
        } else {
            for i in 0..<n { input[i] = (block[i] - mean) * window[i] }
        }
        for i in n..<length { input[i] = 0 }
        let x = plan.execute()
        for k in 0..<count {
            let (re, im) = x[k]
            magnitudes[k] = (re * re + im * im).squareRoot()
        }
    }

    /// `|X_k|` of `block` as a new array.
    public func magnitudes(of block: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: count)
        block.withUnsafeBufferPointer { b in result.withUnsafeMutableBufferPointer { magnitudes(of: b, into: $0) } }
        return result
    }
}
