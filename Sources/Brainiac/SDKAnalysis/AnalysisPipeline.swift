import Dispatch
import Spectral
import Synchronization
import Tables

/// A capture's SDK analysis run on a queue of its own, behind decoding, so that the two overlap.
///
/// Each call hands over the next decoded samples and returns the tables of the batches handed over `lag` or more
/// calls before (waiting for their analysis to finish, not for the later ones'): the rows come out in input order
/// and at the same points of the run whatever the timing, so the output is the same bytes from run to run. With a
/// lag of 1 the analysis may fall one batch behind before decoding waits for it; with 2, two.
public final class AnalysisPipeline: @unchecked Sendable {
    // @unchecked: `analysis` is touched only on `queue`; `done` is behind its mutex.
    private let analysis: BrainiacAnalysis
    private let queue = DispatchQueue(label: "brainbatch.analysis")
    private let lag: Int
    /// The tables of each batch analysed and not yet returned, in batch order.
    private let done = Mutex<[[Table]]>([])
    /// Signalled once per batch analysed.
    private let analysed = DispatchSemaphore(value: 0)
    /// Batches handed over, and batches whose tables were returned.
    private var queued = 0, returned = 0

    public init(_ analysis: BrainiacAnalysis, lag: Int = 2) {
        self.analysis = analysis
        self.lag = max(1, lag)
    }

    /// Queues `samples` for analysis; returns the tables of the batches queued `lag` or more calls before.
    public func consume(_ samples: [BrainiacSample]) -> [Table] {
        queue.async { [self] in
            analysis.consume(samples)
            let tables = analysis.takeTables()
            done.withLock { $0.append(tables) }
            analysed.signal()
        }
        queued += 1
        var tables: [Table] = []
        while returned < queued - lag {
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
        var tables: [Table] = []
        while returned < queued {
            analysed.wait()
            tables += done.withLock { $0.removeFirst() }
            returned += 1
        }
        return tables + last
    }

    /// The whole-segment spectra of the segments closed so far (``BrainiacAnalysis/recordingSpectra``).
    public func recordingSpectra() -> [(segment: Int, channel: Int, spectrum: PowerSpectrum)] {
        queue.sync { analysis.recordingSpectra }
    }
}
