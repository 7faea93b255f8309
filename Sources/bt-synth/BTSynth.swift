import ArgumentParser
import Brainiac
import Foundation
import SystemPackage
import Tables
import TableWriters
import ToolSupport

extension BrainiacByteOrder: ExpressibleByArgument {}

@main
struct BTSynth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bt-synth",
        abstract: "Write Brainiac captures like the SDK's test sequence, with the faults of real captures.",
        discussion: """
        Writes a .bin capture and a truth sidecar <out>.truth.json listing every injected fault (and the \
        provenance). The same options and --seed give the same bytes.

        EXAMPLES:
          bt-synth -o test.bin                                   # v2: baseline preset, red from sample 5250
          bt-synth -o sine.bin --variant v1 --frequency 10 --duration-s 60
          bt-synth -o faulty.bin --duration-s 3600 --noise-uv 5 --drop-rate 0.01,3 --byte-loss-rate 0.001 --seed 7
        """,
        version: ToolVersion.current)

    static func main() { mainAsTool() }

    enum Variant: String, ExpressibleByArgument { case v1, v2 }

    @Option(name: .shortAndLong, help: "The capture to write (.bin).")
    var output: String
    @Option(help: "Test sequence: v1 (sine) or v2 (preset mix).")
    var variant: Variant = .v2
    @Option(help: "v1 sine frequency in Hz.")
    var frequency = 3.0
    @Option(help: "v2 preset from the switch on: a name (baseline, red, green1-4, yellow1-2, orange) or a,b.")
    var preset = "red"
    @Option(help: "v2 preset before the switch.")
    var presetBefore = "baseline"
    @Option(help: "v2 switch sample (the default is bt-decode's default baseline end).")
    var switchAt = 5250
    @Flag(help: "Switch at S + 5000 (S = 2750), the timing of the SDK's test mode.")
    var sdkTestTiming = false
    @Option(help: "Length in seconds of device clock.")
    var durationS = 40.0
    @Option(help: "First order number.")
    var ord0: UInt16 = 0
    @Option(help: "Byte order to write: be, le or mixed.")
    var byteOrder: BrainiacByteOrder = .be
    @Option(help: "White Gaussian noise per channel, σ in µV.")
    var noiseUv = 0.0
    @Option(help: ArgumentHelp("Channel gain ch=g (T3, O1, T4, O2), e.g. O1=1.5; repeatable.", valueName: "ch=g"))
    var gain: [ChannelGain] = []
    @Option(help: ArgumentHelp("Random per-channel gain range lo,hi (lo ≤ hi).", valueName: "lo,hi"))
    var randomGain: GainRange?
    @Option(help: ArgumentHelp("Probability of losing a packet (0 to 1), optionally with a burst length.",
                               valueName: "p[,burst]"))
    var dropRate: DropRate?
    @Option(help: ArgumentHelp("Packets to drop, comma-separated packet numbers, e.g. 10,11,500.", valueName: "n,n,…"))
    var dropPackets: PacketList?
    @Option(help: "Probability per packet of losing 1-19 bytes (packet boundaries shift).")
    var byteLossRate = 0.0
    @Option(help: ArgumentHelp("Delete k bytes at a byte offset, e.g. 7@10010; repeatable.", valueName: "k@offset"))
    var dropBytes: [CaptureSynthesizer.ByteDeletion] = []
    @Option(help: "Remove the first k bytes (start mid-packet).")
    var leadBytes = 0
    @Option(help: "Remove the last k bytes.")
    var truncateTail = 0
    @Flag(help: "Append a second capture with a new ord0 (a discontinuity).")
    var concat = false
    @Option(help: "Seed of the SplitMix64 generator behind every random choice.")
    var seed: UInt64 = 1
    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func settings() throws -> CaptureSynthesizer.Settings {
        var settings = CaptureSynthesizer.Settings()
        switch variant {
        case .v1: settings.sequence = .v1(frequency: frequency)
        case .v2: settings.sequence = .v2(before: presetBefore, after: preset, switchAt: sdkTestTiming ? 7750 : switchAt)
        }
        settings.samples = 2 * Int((durationS * BrainiacHeadband.samplingRate / 2).rounded())
        settings.ord0 = ord0
        settings.byteOrder = byteOrder
        settings.seed = seed
        settings.noiseMicrovolts = noiseUv
        for entry in gain { settings.gains[entry.channel] = entry.gain }
        settings.randomGain = randomGain?.range
        if let dropRate {
            settings.dropRate = dropRate.probability
            settings.dropBurst = dropRate.burst
        }
        settings.dropPackets = dropPackets?.packets ?? []
        guard (0...1).contains(byteLossRate) else { throw ToolError.usage("--byte-loss-rate must be 0 to 1") }
        settings.byteLossRate = byteLossRate
        settings.dropBytes = dropBytes
        guard leadBytes >= 0, truncateTail >= 0 else { throw ToolError.usage("byte counts must not be negative") }
        settings.leadBytes = leadBytes
        settings.truncateTail = truncateTail
        settings.concat = concat
        return settings
    }

    func run() throws {
        let runner = ToolRunner(tool: "bt-synth", quiet: quiet)
        try runner.run {
            guard durationS > 0 else { throw ToolError.usage("--duration-s must be positive") }
            guard durationS * BrainiacHeadband.samplingRate <= Double(BrainiacHeadband.largestSampleNumber) else {
                throw ToolError.usage("--duration-s \(durationS): longer than any capture the tools read (at most "
                                      + "\(BrainiacHeadband.largestSampleNumber) samples, 99 days at 250 Hz)")
            }
            let settings = try settings()
            let synthesizer: CaptureSynthesizer
            do { synthesizer = try CaptureSynthesizer(settings) } catch let error as SynthSettingsError { throw ToolError.usage(error.message) }
            // Never over a capture bt-synth did not write: an existing one must be listed, unchanged, in its truth.
            let sidecar = output + ".truth.json"
            // One run at a time per capture; what killed runs left beside it is removed.
            let commit = SidecarCommit(sidecar: sidecar, nested: true)
            let lock = try OutputLock.acquire(forFiles: [output, sidecar], committedBy: commit)
            defer { lock.release() }
            try PreviousOutput.checkReplaceable(file: output, sidecar: sidecar)
            let (bytes, truth) = synthesizer.synthesize()
            var provenance = runner.provenance(inputs: [], parametersJSON: Provenance.encodeParameters(settings))
            provenance.outputs = [OutputFileRecord(file: FilePath(output).lastComponent?.string ?? output,
                                                   sha256: InputRecord(path: output, contents: Data(bytes)).sha256)]
            let document = SynthTruthDocument(truth: truth, settings: settings, provenance: provenance)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // The capture, then its truth: a run killed between them leaves a commit the next run finishes.
            try commit.write([(output, Data(bytes))], sidecarData: try encoder.encode(document) + Data("\n".utf8))
            runner.diagnostics.note("\(output): \(bytes.count) bytes, \(truth.segments.reduce(0) { $0 + $1.packets }) packets, "
                                    + "\(truth.droppedPackets.count) dropped, \(truth.byteDeletions.count) byte deletions")
        }
    }
}

/// The truth sidecar: the faults, the settings and the provenance in one JSON document.
struct SynthTruthDocument: Encodable {
    var truth: SynthTruth
    var settings: CaptureSynthesizer.Settings
    var provenance: Provenance
}
