/// A cascade of second-order sections run causally over multichannel data in single precision, like
/// `scipy.signal.sosfilt` on float32 data (transposed direct form II, each section's output feeding the next).
public struct SectionCascade: Sendable {
    /// The sections, in the order the signal passes them.
    public let sections: [SecondOrderSection]
    /// The coefficients rounded to single precision, as the filter runs them (6 per section).
    let coefficients: [Float]

    public init(_ sections: [SecondOrderSection]) {
        self.sections = sections
        coefficients = sections.flatMap { $0.coefficients.map { Float($0) } }
    }

    /// The state (2 values per section) that a constant input of 1 leaves the cascade in: scipy's `sosfilt_zi`,
    /// computed from the single-precision coefficients (each section's `lfilter_zi`, scaled by the DC gain of the
    /// sections before it) and stored in single precision.
    public var steadyState: [Float] {
        var state: [Float] = []
        var scale = 1.0
        for s in 0..<sections.count {
            let c = coefficients[(s * 6)..<(s * 6 + 6)].map(Double.init)
            let (b0, b1, b2, a1, a2) = (c[0] / c[3], c[1] / c[3], c[2] / c[3], c[4] / c[3], c[5] / c[3])
            // (I − Aᵀ) zi = b[1:] − a[1:]·b0 for the companion matrix A of a, solved directly (2 × 2).
            let r0 = b1 - a1 * b0, r1 = b2 - a2 * b0
            let determinant = 1 + a1 + a2
            let z0 = (r0 + r1) / determinant
            let z1 = ((1 + a1) * r1 - a2 * r0) / determinant
            state.append(Float(scale * z0))
            state.append(Float(scale * z1))
            scale *= (c[0] + c[1] + c[2]) / (c[3] + c[4] + c[5])
        }
        return state
    }

    /// Filters `data` (`samples × channels`, sample-major) in place, from per-channel states `state`
    /// (`channels × sections × 2`), which are left as the filter leaves them.
    public func run(_ data: inout [Float], channels: Int, state: inout [Float]) {
        let sectionCount = sections.count
        precondition(state.count == channels * sectionCount * 2, "SectionCascade.run: state of \(state.count) values")
        guard channels > 0 else { return }
        let samples = data.count / channels
        coefficients.withUnsafeBufferPointer { sos in
            state.withUnsafeMutableBufferPointer { zi in
                data.withUnsafeMutableBufferPointer { x in
                    for channel in 0..<channels {
                        let z = zi.baseAddress! + channel * sectionCount * 2
                        for n in 0..<samples {
                            var value = x[n * channels + channel]
                            for s in 0..<sectionCount {
                                let c = sos.baseAddress! + s * 6
                                let output = c[0] * value + z[2 * s]
                                z[2 * s] = c[1] * value - c[4] * output + z[2 * s + 1]
                                z[2 * s + 1] = c[2] * value - c[5] * output
                                value = output
                            }
                            x[n * channels + channel] = value
                        }
                    }
                }
            }
        }
    }
}
