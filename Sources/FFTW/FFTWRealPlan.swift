import CFFTW
import Foundation

/// A real-to-complex FFT of one length, with its own aligned buffers, executing a plan shared by every instance of
/// that length.
///
/// Plans are made once per length per process, under a lock (FFTW's planner is not thread-safe), and kept for the
/// process's lifetime; each instance executes the shared plan on its own buffers with the new-array execute
/// function `fftw_execute_dft_r2c`, which is thread-safe. The buffers come from `fftw_alloc_real` /
/// `fftw_alloc_complex`, so they have the alignment the plan was made for. No memory is allocated per transform.
/// One instance must not be used by two threads at once; make one per thread (cheap: two buffers).
public final class FFTWRealPlan {
    /// The transform length N.
    public let count: Int
    /// Number of complex outputs, N/2 + 1.
    public var spectrumCount: Int { count / 2 + 1 }
    private let plan: fftw_plan
    /// Aligned input buffer of N doubles (`fftw_alloc_real`).
    public let input: UnsafeMutableBufferPointer<Double>
    private let output: UnsafeMutablePointer<fftw_complex>

    /// The plans made so far, by length; guarded by `plannerLock`.
    private nonisolated(unsafe) static var plans: [Int: fftw_plan] = [:]
    private static let plannerLock = NSLock()

    /// The shared FFTW_ESTIMATE plan for length `count` (deterministic: no timing runs), made on first use.
    private static func sharedPlan(count: Int) -> fftw_plan {
        plannerLock.lock()
        defer { plannerLock.unlock() }
        if let plan = plans[count] { return plan }
        // Plan on scratch buffers of the same alignment; instances execute it on their own.
        let input = fftw_alloc_real(count)!
        let output = fftw_alloc_complex(count / 2 + 1)!
        let plan = fftw_plan_dft_r2c_1d(Int32(count), input, output, UInt32(FFTW_ESTIMATE))!
        fftw_free(input)
        fftw_free(output)
        plans[count] = plan
        return plan
    }

    /// Prepares transforms of length `count`, making the plan for that length if none exists yet.
    public init(count: Int) {
        precondition(count > 0, "FFT length must be positive")
        self.count = count
        let inputPointer = fftw_alloc_real(count)!
        input = UnsafeMutableBufferPointer(start: inputPointer, count: count)
        input.initialize(repeating: 0)
        output = fftw_alloc_complex(count / 2 + 1)!
        plan = FFTWRealPlan.sharedPlan(count: count)
    }

    deinit {
        fftw_free(input.baseAddress)
        fftw_free(output)
    }

    /// Transforms the current contents of ``input``; returns the spectrum X[k] = Σ x[n]·e^{−2πikn/N}, k = 0…N/2,
    /// as a buffer that stays valid until the next call. ``input`` is left unchanged.
    @discardableResult
    public func execute() -> UnsafeBufferPointer<(Double, Double)> {
        fftw_execute_dft_r2c(plan, input.baseAddress, output)
        let raw = UnsafeRawPointer(output).assumingMemoryBound(to: (Double, Double).self)
        return UnsafeBufferPointer(start: raw, count: spectrumCount)
    }
}
