import Dispatch
import Spectral
import Tables

/// A capture's SDK analysis run on a queue of its own, one chunk behind decoding, so that the two overlap.
///
/// Each call hands over the next decoded samples and returns the tables of every sample handed over before
/// (waiting for their analysis to finish): the rows come out in input order and at the same points of the run
/// whatever the timing, so the output file is the same bytes from run to run.
public final class AnalysisPipeline: @unchecked Sendable {
    // @unchecked: `analysis` is touched only on `queue`.
    private let analysis: BrainiacAnalysis
    private let queue = DispatchQueue(label: "brainbatch.analysis")

    public init(_ analysis: BrainiacAnalysis) {
        self.analysis = analysis
    }

    /// Queues `samples` for analysis; returns the tables of the samples queued by earlier calls.
    public func consume(_ samples: [BrainiacSample]) -> [Table] {
        let earlier = queue.sync { analysis.takeTables() }
        queue.async { [self] in analysis.consume(samples) }
        return earlier
    }

    /// Waits for the samples queued so far and returns the tables not yet returned, after finishing the analysis
    /// (the last segment's band power and baseline) when the input was `complete`; an input that failed part-way
    /// keeps the rows of what was decoded before the failure, unfinished.
    public func finish(complete: Bool) -> [Table] {
        queue.sync {
            if complete { analysis.finish() }
            return analysis.takeTables()
        }
    }

    /// The whole-segment spectra of the segments closed so far (``BrainiacAnalysis/recordingSpectra``).
    public func recordingSpectra() -> [(segment: Int, channel: Int, spectrum: PowerSpectrum)] {
        queue.sync { analysis.recordingSpectra }
    }
}
