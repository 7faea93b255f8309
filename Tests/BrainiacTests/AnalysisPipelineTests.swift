import Tables
import Testing
@testable import Brainiac

@Suite("The SDK analysis on a queue of its own")
struct AnalysisPipelineTests {
    @Test("The pipeline hands back the rows of the analysis run in line, in order, each batch's tables two calls later")
    func sameRowsLater() throws {
        // The spec's test sequence over 40 s: frames, a baseline and indicators; batches of 977 samples.
        let samples = FrameTestSamples.samples(count: 10_000, FrameTestSamples.v2Timeline())
        let expected = FrameTestSamples.analyse(samples, batch: 977)
        #expect((expected["indicators"]?.rowCount ?? 0) > 0)
        let pipeline = AnalysisPipeline(BrainiacAnalysis(sourceFile: "test.bin", options: BrainiacAnalysisOptions()))
        var returned: [Table] = []
        for (index, start) in stride(from: 0, to: samples.count, by: 977).enumerated() {
            let tables = pipeline.consume(Array(samples[start..<min(samples.count, start + 977)]))
            // Nothing comes back before the analysis may be ``AnalysisPipeline/lag`` batches behind; then one
            // batch's tables (one of each) per call.
            #expect(tables.count == (index < AnalysisPipeline.lag ? 0 : 4), "call \(index)")
            returned += tables
        }
        returned += pipeline.finish(complete: true)
        let byName = Dictionary(grouping: returned, by: \.name)
        for (name, table) in expected {
            #expect(Table.concatenating(byName[name] ?? []) == table, "\(name)")
        }
    }
}
