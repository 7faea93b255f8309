import ArgumentParser
import Brainiac
import Foundation
import Spectral
import Tables
import ToolSupport

extension ByteOrderChoice: ExpressibleByArgument {}
extension GapHandling: ExpressibleByArgument {}
extension IndicatorRuleSet: ExpressibleByArgument {}

@main
struct BTDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bt-decode",
        abstract: "Decode Brainiac EEG headband captures and re-compute what the SDK computed live.",
        discussion: """
        Reads raw captures (*.bin: the SDK's concatenated 20-byte notifications) and writes the tables \
        recordings, samples, gaps and anomalies, the SDK's 1-s FFT frames, baseline and indicators, and Welch \
        band_power (see docs/bt-decode.md and docs/bt-decode-analysis.md for every column). Lost packets, \
        shifted packet boundaries, restarts and truncated tails are found by order-number continuity; every \
        byte is accounted for.

        EXAMPLES:
          bt-decode capture.bin -o capture.h5
          bt-decode day1/*.bin -o day1-tables/ --keep-going
          bt-decode legacy.bin --byte-order auto --gaps fill -o legacy.csv --table samples
        """,
        version: ToolVersion.current)

    @Argument(help: "Capture files.")
    var inputs: [String]

    @OptionGroup var output: OutputOptions

    @Option(help: "Byte order of order numbers and samples: auto, be, le or mixed.")
    var byteOrder: ByteOrderChoice = .auto

    @Option(help: "Order-number step per packet.")
    var orderStep = 2

    @Option(help: "Longest plausible gap, in samples (longer jumps are discontinuities).")
    var maxGap = 2500

    @Flag(help: "Keep one segment across discontinuities, as the SDK did within a connection.")
    var noSplit = false

    @Option(help: "Lost samples: sdk (concatenate received samples, as the SDK did) or fill (interpolate).")
    var gaps: GapHandling = .sdk

    @Option(help: "Baseline start in seconds of received samples (ceil(s·250), rounded up to even; at least 11), or none.")
    var baselineStartS = "11"

    @Option(help: "Baseline start in received samples (overrides --baseline-start-s).")
    var baselineStartSample: Int?

    @Option(help: "Baseline delay D in samples: the baseline is taken at S + D.")
    var baselineDelay = 2500

    @Option(help: "Indicator rules: sdk (with the SDK's X4m quirk) or corrected.")
    var indicatorRules: IndicatorRuleSet = .sdk

    @Option(help: "band_power bands, name:lo-hi,... (default delta:1-4,theta:4-8,alpha:8-12,beta:12-30,gamma:30-45).",
            transform: { try FrequencyBand.parseList($0) })
    var bands: [FrequencyBand]?

    @Option(help: "band_power window length in seconds.")
    var windowS = 10.0

    @Flag(help: "Decode only: write recordings, samples, gaps and anomalies, without the SDK analysis and band power.")
    var noAnalysis = false

    /// The analysis options from the command line; a usage error (exit 64) when they cannot work.
    func analysisOptions() throws -> BrainiacAnalysisOptions {
        do {
            var options = BrainiacAnalysisOptions(baselineDelay: baselineDelay, indicatorRules: indicatorRules, windowSeconds: windowS)
            if let baselineStartSample {
                options.baselineStart = BrainiacAnalysisOptions.baselineStart(sample: baselineStartSample)
            } else {
                options.baselineStart = try BrainiacAnalysisOptions.baselineStart(parsingSeconds: baselineStartS)
            }
            if let bands { options.bands = bands }
            try options.validate()
            return options
        } catch let error as AnalysisOptionsError {
            throw ToolError.usage(error.description)
        }
    }

    func validate() throws {
        guard orderStep >= 1 else { throw ValidationError("--order-step must be at least 1") }
        guard maxGap >= 0 else { throw ValidationError("--max-gap must not be negative") }
    }

    /// The parameters recorded in the provenance.
    struct Parameters: Encodable {
        var byte_order: String
        var order_step: Int
        var max_gap_samples: Int
        var split_segments: Bool
        var gaps: String
        var sampling_rate_hz: Double
        var scaling_nv_per_count: Double
        /// Whether the analysis tables were made (`--no-analysis` turns them off; `analysis` is then absent).
        var analysis_tables: Bool
        var analysis: BrainiacAnalysisOptions?
    }

    func run() throws {
        let runner = ToolRunner(tool: "bt-decode", quiet: output.quiet, verbose: output.verbose, keepGoing: output.keepGoing)
        try runner.run {
            let analysisOptions = try analysisOptions()
            let tableNames = CaptureTables.names + (noAnalysis ? [] : BrainiacAnalysis.tableNames)
            // bt-decode makes no HDF5 calls of its own, so its tables can be written while the next batch decodes.
            let out = try output.open(tableNames: tableNames, inputs: inputs, inBackground: true)
            let options = CaptureDecoderOptions(orderStep: orderStep, maxGapSamples: maxGap,
                                                splitSegments: !noSplit, gaps: gaps)
            let progress = ProgressBar(inputs: inputs, quiet: output.quiet)
            var records: [InputRecord] = []
            var recordings: [Table] = [], gapTables: [Table] = [], anomalies: [Anomaly] = []
            var wroteSamples = false
            let pathWidth = inputs.map(\.utf8.count).max() ?? 0
            let failures = try runner.forEachInput(inputs, progress: progress) { path in
                var samples = SampleTableBuilder(sourceFile: path, sourceFileWidth: pathWidth)
                let analysis = noAnalysis ? nil
                    : AnalysisPipeline(BrainiacAnalysis(sourceFile: path, options: analysisOptions))
                let result = Result {
                    try CaptureFile.decode(path, byteOrder: byteOrder, options: options, progress: progress) {
                        for table in samples.add($0) {
                            try out.write(table)
                            wroteSamples = true
                        }
                        // Analysis rows go out as they come (a chunk behind), so memory stays bounded for long
                        // captures.
                        for table in analysis?.consume($0) ?? [] where table.rowCount > 0 { try out.write(table) }
                    }
                }
                // The last, shorter batch and the analysis still queued; written even when the input failed
                // part-way, like the batches before them.
                if let last = samples.finish() {
                    try out.write(last)
                    wroteSamples = true
                }
                let complete = (try? result.get()) != nil
                for table in analysis?.finish(complete: complete) ?? [] where table.rowCount > 0 { try out.write(table) }
                let decoded = try result.get()
                records.append(decoded.record)
                recordings.append(decoded.recordings)
                gapTables.append(CaptureTables.gaps(decoded.events, sourceFile: path))
                anomalies += CaptureTables.anomalies(decoded.events, sourceFile: path)
                runner.diagnostics.note(decoded.summary)
            }
            if !wroteSamples { try out.write(SampleTableBuilder.table([], sourceFile: "")) }
            try out.write(concatenated(recordings) ?? CaptureTables.recordings([], sourceFile: "", byteOrder: .be,
                                                                               scoreLE: nil, scoreMixed: nil))
            try out.write(concatenated(gapTables) ?? CaptureTables.gaps([], sourceFile: ""))
            try out.write(Table.anomalies(anomalies))
            // Tables no input gave rows to still exist, with their columns (an empty batch adds nothing otherwise).
            if !noAnalysis {
                for table in BrainiacAnalysis(sourceFile: "", options: analysisOptions).tables { try out.write(table) }
            }
            let parameters = Parameters(byte_order: byteOrder.rawValue, order_step: orderStep,
                                        max_gap_samples: maxGap, split_segments: !noSplit, gaps: gaps.rawValue,
                                        sampling_rate_hz: BrainiacHeadband.samplingRate,
                                        scaling_nv_per_count: BrainiacScaling.nanovoltsPerCount,
                                        analysis_tables: !noAnalysis, analysis: noAnalysis ? nil : analysisOptions)
            try out.commit(provenance: runner.provenance(inputs: records,
                                                         parametersJSON: Provenance.encodeParameters(parameters)))
            try runner.finish(failures: failures)
        }
    }

    private func concatenated(_ tables: [Table]) -> Table? {
        guard var first = tables.first else { return nil }
        for table in tables.dropFirst() { first.append(table) }
        return first
    }
}
