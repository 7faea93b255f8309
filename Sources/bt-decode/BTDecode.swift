import ArgumentParser
import Brainiac
import Foundation
import Tables
import ToolSupport

extension ByteOrderChoice: ExpressibleByArgument {}
extension GapHandling: ExpressibleByArgument {}

@main
struct BTDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bt-decode",
        abstract: "Decode Brainiac EEG headband captures into samples, gaps and per-segment summaries.",
        discussion: """
        Reads raw captures (*.bin: the SDK's concatenated 20-byte notifications) and writes the tables \
        recordings, samples, gaps and anomalies (see docs/bt-decode.md for every column). Lost packets, \
        shifted packet boundaries, restarts and truncated tails are found by order-number continuity; every \
        byte is accounted for.

        EXAMPLES:
          bt-decode capture.bin -o capture.h5
          bt-decode day1/*.bin -o day1/ --keep-going
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
    }

    func run() throws {
        let runner = ToolRunner(tool: "bt-decode", quiet: output.quiet, keepGoing: output.keepGoing)
        try runner.run {
            let out = try output.open(tableNames: CaptureTables.names, inputs: inputs)
            let options = CaptureDecoderOptions(orderStep: orderStep, maxGapSamples: maxGap,
                                                splitSegments: !noSplit, gaps: gaps)
            let sizes = inputs.map { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? 0 }
            let progress = ProgressBar(totalFiles: inputs.count, totalBytes: sizes.reduce(0, +), quiet: output.quiet)
            var records: [InputRecord] = []
            var recordings: [Table] = [], gapTables: [Table] = [], anomalies: [Anomaly] = []
            var wroteSamples = false
            let pathWidth = inputs.map(\.utf8.count).max() ?? 0
            let failures = try runner.forEachInput(inputs, progress: progress) { path in
                let decoded = try CaptureFile.decode(path, byteOrder: byteOrder, options: options, progress: progress) {
                    try out.write(CaptureTables.samples($0, sourceFile: path, sourceFileWidth: pathWidth))
                    wroteSamples = true
                }
                records.append(decoded.record)
                recordings.append(decoded.recordings)
                gapTables.append(CaptureTables.gaps(decoded.events, sourceFile: path))
                anomalies += CaptureTables.anomalies(decoded.events, sourceFile: path)
                runner.diagnostics.note(decoded.summary)
            }
            if !wroteSamples { try out.write(CaptureTables.samples([], sourceFile: "")) }
            try out.write(concatenated(recordings) ?? CaptureTables.recordings([], sourceFile: "", byteOrder: .be,
                                                                               scoreLE: nil, scoreMixed: nil))
            try out.write(concatenated(gapTables) ?? CaptureTables.gaps([], sourceFile: ""))
            try out.write(Table.anomalies(anomalies))
            let parameters = Parameters(byte_order: byteOrder.rawValue, order_step: orderStep,
                                        max_gap_samples: maxGap, split_segments: !noSplit, gaps: gaps.rawValue,
                                        sampling_rate_hz: Brainiac.samplingRate,
                                        scaling_nv_per_count: BrainiacScaling.nanovoltsPerCount)
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
