import CFFTW
import Foundation

/// A reusable FFTW real-to-complex plan for one transform length, with its own aligned buffers.
///
/// Plans are made once per length (FFTW's planner is not thread-safe, so creation is serialised by a lock) and
/// executed with `fftw_execute_dft_r2c` on the plan's own buffers, which is thread-safe. No memory is allocated
/// per transform. One instance must not be used by two threads at once; make one per thread.
public final class FFTWRealPlan {
    /// The transform length N.
    public let count: Int
    /// Number of complex outputs, N/2 + 1.
    public var spectrumCount: Int { count / 2 + 1 }
    private let plan: fftw_plan
    /// Aligned input buffer of N doubles (`fftw_alloc_real`).
    public let input: UnsafeMutableBufferPointer<Double>
    private let output: UnsafeMutablePointer<fftw_complex>

    private static let plannerLock = NSLock()

    /// Creates a plan for transforms of length `count` (FFTW_ESTIMATE: deterministic, no timing runs).
    public init(count: Int) {
        precondition(count > 0, "FFT length must be positive")
        self.count = count
        let inputPointer = fftw_alloc_real(count)!
        input = UnsafeMutableBufferPointer(start: inputPointer, count: count)
        input.initialize(repeating: 0)
        output = fftw_alloc_complex(count / 2 + 1)!
        FFTWRealPlan.plannerLock.lock()
        plan = fftw_plan_dft_r2c_1d(Int32(count), inputPointer, output, UInt32(FFTW_ESTIMATE))!
        FFTWRealPlan.plannerLock.unlock()
    }

    deinit {
        FFTWRealPlan.plannerLock.lock()
        fftw_destroy_plan(plan)
        FFTWRealPlan.plannerLock.unlock()
        fftw_free(input.baseAddress)
        fftw_free(output)
    }

    /// Transforms the current contents of ``input``; returns the spectrum X[k] = Σ x[n]·e^{−2πikn/N}, k = 0…N/2,
    /// as a buffer that stays valid until the next call.
    @discardableResult
    public func execute() -> UnsafeBufferPointer<(Double, Double)> {
        fftw_execute_dft_r2c(plan, input.baseAddress, output)
        let raw = UnsafeRawPointer(output).assumingMemoryBound(to: (Double, Double).self)
        return UnsafeBufferPointer(start: raw, count: spectrumCount)
    }
}
