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
          bt-decode capture.bin -o capture.h5 --report capture.html
          bt-decode day1/*.bin -o day1-tables/ --keep-going
          bt-decode legacy.bin --byte-order auto --gaps fill -o legacy.csv --table samples
          bt-decode capture.bin -o capture.bdf
        """,
        version: ToolVersion.current)

    static func main() { mainAsTool() }

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
        do throws(AnalysisOptionsError) {
            var options = BrainiacAnalysisOptions(baselineDelay: baselineDelay, indicatorRules: indicatorRules, windowSeconds: windowS)
            if let baselineStartSample {
                options.baselineStart = BrainiacAnalysisOptions.baselineStart(sample: baselineStartSample)
            } else {
                options.baselineStart = try BrainiacAnalysisOptions.baselineStart(parsingSeconds: baselineStartS)
            }
            if let bands { options.bands = bands }
            try options.validate()
            return options
        } catch {
            throw ToolError.usage(error.description)
        }
    }

    func validate() throws {
        guard orderStep >= 1 else { throw ValidationError("--order-step must be at least 1") }
        guard maxGap >= 0 else { throw ValidationError("--max-gap must not be negative") }
    }

    func run() throws {
        let runner = ToolRunner(tool: "bt-decode", output: output)
        try runner.run {
            // A signal file is continuous on the device clock: lost samples are filled there (and annotated).
            let decoder = CaptureDecoderOptions(orderStep: orderStep, maxGapSamples: maxGap, splitSegments: !noSplit,
                                                gaps: output.writesSignalFile ? .fill : gaps)
            let options = CaptureFormat.Options(byteOrder: byteOrder, decoder: decoder,
                                                analysis: noAnalysis ? nil : try analysisOptions())
            try runner.run(CaptureFormat(options: options, inputs: inputs, report: output.report != nil), inputs: inputs,
                           output: output)
        }
    }
}
