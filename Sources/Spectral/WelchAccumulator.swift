/// A streaming Welch estimate: samples are pushed in any batch sizes, each completed segment's periodogram is
/// added to a running sum, and only one segment of samples is kept. Memory does not grow with the signal.
///
/// Pushing a signal in pieces gives exactly the same estimate as ``Welch/spectrum(of:)`` on the whole signal.
public final class WelchAccumulator {
    private let welch: Welch
    private let buffer: UnsafeMutablePointer<Double>
    private var filled = 0
    private var sums: [Double]
    /// Number of segments added so far.
    public private(set) var segmentCount = 0
    /// Number of samples pushed since the last reset.
    public private(set) var sampleCount = 0

    init(welch: Welch) {
        self.welch = welch
        buffer = .allocate(capacity: welch.parameters.segmentLength)
        sums = [Double](repeating: 0, count: welch.parameters.frequencyCount)
    }

    deinit { buffer.deallocate() }

    /// Pushes one sample.
    @inline(__always)
    public func append(_ sample: Double) {
        buffer[filled] = sample
        filled += 1
        sampleCount += 1
        if filled == welch.parameters.segmentLength { completeSegment() }
    }

    /// Pushes samples in order.
    public func append(contentsOf samples: UnsafeBufferPointer<Double>) {
        let n = welch.parameters.segmentLength
        var index = 0
        while index < samples.count {
            let take = min(n - filled, samples.count - index)
            (buffer + filled).update(from: samples.baseAddress! + index, count: take)
            filled += take
            index += take
            if filled == n { completeSegment() }
        }
        sampleCount += samples.count
    }

    /// Pushes samples in order.
    public func append(contentsOf samples: [Double]) {
        samples.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    private func completeSegment() {
        sums.withUnsafeMutableBufferPointer { welch.accumulatePeriodogram(of: buffer, into: $0.baseAddress!) }
        segmentCount += 1
        // Keep the overlap for the next segment.
        let overlap = welch.parameters.overlap
        if overlap > 0 { buffer.update(from: buffer + welch.parameters.step, count: overlap) }
        filled = overlap
    }

    /// The estimate so far; `nil` before the first whole segment.
    public var spectrum: PowerSpectrum? {
        segmentCount == 0 ? nil : welch.spectrum(fromSums: sums, segmentCount: segmentCount)
    }

    /// Starts again from no samples (the plan and buffers are kept).
    public func reset() {
        filled = 0
        segmentCount = 0
        sampleCount = 0
        for k in sums.indices { sums[k] = 0 }
    }
}
