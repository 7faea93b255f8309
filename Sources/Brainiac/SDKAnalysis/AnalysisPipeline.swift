import Dispatch
import Spectral
import Synchronization
import Tables

/// A capture's SDK analysis run on a queue of its own, behind decoding, so that the two overlap.
///
/// Each call hands over the next decoded samples and returns the tables of the batches handed over ``lag`` or more
/// calls before (waiting for their analysis to finish, not for the later ones'): the rows come out in input order
/// and at the same points of the run whatever the timing, so the output is the same bytes from run to run.
public final class AnalysisPipeline: @unchecked Sendable {
    // @unchecked: `analysis` is touched only on `queue`, `done` behind its mutex, `queued` and `returned` only by
    // the caller (one thread at a time).
    private let analysis: BrainiacAnalysis
    private let queue = DispatchQueue(label: "brainbatch.analysis")
    /// How many batches the analysis may fall behind before decoding waits for it. With one, decoding waited for
    /// the last batch's analysis whenever the scheduler had not run it yet (four threads share two cores), and a
    /// 1-hour capture to BDF with the analysis took 5–8 ms longer.
    public static let lag = 2
    /// The tables of each batch analysed and not yet returned, in batch order.
    private let done = Mutex<[[Table]]>([])
    /// Signalled once per batch analysed.
    private let analysed = DispatchSemaphore(value: 0)
    /// Batches handed over, and batches whose tables were returned.
    private var queued = 0, returned = 0

    public init(_ analysis: BrainiacAnalysis) {
        self.analysis = analysis
    }

    /// Queues `samples` for analysis; returns the tables of the batches queued ``lag`` or more calls before.
    public func consume(_ samples: [BrainiacSample]) -> [Table] {
        queue.async { [self] in
            analysis.consume(samples)
            let tables = analysis.takeTables()
            done.withLock { $0.append(tables) }
            analysed.signal()
        }
        queued += 1
        return collect(until: queued - Self.lag)
    }

    /// Waits for the batches up to the `count`-th to be analysed; returns the tables of those not returned yet.
    private func collect(until count: Int) -> [Table] {
        var tables: [Table] = []
        while returned < count {
            analysed.wait()
            tables += done.withLock { $0.removeFirst() }
            returned += 1
        }
        return tables
    }

    /// Waits for the samples queued so far and returns the tables not yet returned, after finishing the analysis
    /// (the last segment's band power and baseline) when the input was `complete`; an input that failed part-way
    /// keeps the rows of what was decoded before the failure, unfinished.
    public func finish(complete: Bool) -> [Table] {
        let last = queue.sync {
            if complete { analysis.finish() }
            return analysis.takeTables()
        }
        return collect(until: queued) + last
    }

    /// The whole-segment spectra of the segments closed so far (``BrainiacAnalysis/recordingSpectra``).
    public func recordingSpectra() -> [(segment: Int, channel: Int, spectrum: PowerSpectrum)] {
        queue.sync { analysis.recordingSpectra }
    }
}
