import ArgumentParser
import Foundation
import MindAffect
import NoiseTagDecoding
import Tables
import ToolSupport

extension ClockChoice: ExpressibleByArgument {}
extension TimestampRule: ExpressibleByArgument {}

/// Loads the code table for `--codes`: a family name, or a PMB `.txt` table (with its provenance record).
func loadCodes(_ choice: String) throws -> (table: NoiseCodeTable, record: InputRecord?) {
    if let family = GoldCodeFamily(rawValue: choice) { return (family.table, nil) }
    if choice.lowercased().hasSuffix(".png") {
        throw ToolError.usage("--codes \(choice): the .png layout is not supported (no PNG decoder at hand); use the .txt twin or a family name (\(GoldCodeFamily.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    let (data, record) = try InputFile.read(choice)
    guard let text = String(data: data, encoding: .utf8) else {
        throw ToolError.badInput("\(choice): expected a UTF-8 text code table")
    }
    return (try NoiseCodeTable.parsePMBText(text, sourceFile: choice), record)
}

@main
struct NTAnalyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nt-analyze",
        abstract: "MindAffect noise-tagging BCI save files into modes, trials, online accuracy, samples and stimuli.",
        discussion: """
        Reads the text save files the MindAffect hub writes (mindaffectBCI_<label>_<yyMMdd_HHmm>.txt) and writes \
        the tables messages, modes, trials, samples, stimuli, summary and anomalies, as one HDF5 file or a folder \
        of CSV files. `nt-analyze decode` fits and cross-validates the offline noise-tagging decoder \
        (pymindaffectBCI 0.9.24's analysis). `nt-analyze codes --check` identifies the rows of a noise-code table.

        EXAMPLES:
          nt-analyze mindaffectBCI_exampledata.txt -o out.h5 --report out.html
          nt-analyze mindaffectBCI_*.txt -o tables/ --keep-going
          nt-analyze session.txt -o trials.csv --table trials --iti-ms 1500
          nt-analyze mindaffectBCI_exampledata.txt -o example.vhdr
          nt-analyze decode mindaffectBCI_exampledata.txt -o decoded.h5
          nt-analyze codes --check mgold_65_6532_psk_60hz.txt
        """,
        version: ToolVersion.current,
        subcommands: [Analyze.self, Decode.self, Codes.self],
        defaultSubcommand: Analyze.self)

    static func main() { mainAsTool() }
}

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Save files into tables (the default subcommand).")

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions

    @Option(help: "Message clock: sts (the client clock mapped to the hub; rts where they differ by > 1 s) or rts.")
    var clock: ClockChoice = .sts

    @Option(help: "Per-sample times: interp (even split between packet times) or pymindaffect (PMB's offline loader).")
    var timestamps: TimestampRule = .interp

    @Option(help: "A gap between stimulus events above this many ms starts a new trial (PMB default 1000).")
    var itiMs: Int = 1000

    @Option(help: "Heartbeat gap in ms above which a client counts as stalled (MessageSpec: 4000).")
    var heartbeatGapMs: Int = 4000

    @Option(help: "Noise codes for the per-trial code agreement: 65_6532 (the example's), 61_6521, 61_6521_flip_balanced, or a PMB .txt table.")
    var codes: String = GoldCodeFamily.mgold65_6532.rawValue

    func validate() throws {
        guard itiMs > 0 else { throw ValidationError("--iti-ms must be positive, got \(itiMs)") }
        guard heartbeatGapMs > 0 else { throw ValidationError("--heartbeat-gap-ms must be positive, got \(heartbeatGapMs)") }
    }

    func run() throws {
        let runner = ToolRunner(tool: "nt-analyze", output: output)
        try runner.run {
            let (codeTable, codeRecord) = try loadCodes(codes)
            let analysis = SaveFileAnalysisOptions(clock: clock, itiMs: itiMs, timestampRule: timestamps,
                                                   heartbeatGapMs: heartbeatGapMs, codes: codes)
            let format = MindAffectFormat(options: .init(analysis: analysis, skipBadLines: input.skipBadLines), codes: codeTable)
            try runner.run(format, inputs: input.inputs, output: output, extraInputs: codeRecord.map { [$0] } ?? [])
        }
    }
}

extension EventType: ExpressibleByArgument {}

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Fit and cross-validate the offline noise-tagging decoder (pymindaffectBCI 0.9.24's analysis).",
        discussion: """
        Per save file: PMB's loader (causal 6th-order Butterworth 45-65 Hz band-stop then 5.5-25 Hz band-pass, \
        decimation to 100 Hz, trials by stimulus gaps, windows from 500 ms before to 500 ms after the trial length), \
        the canonical-correlation model of the cued target's rising and falling edges (tau 450 ms, rank 1), 5-fold \
        contiguous cross-validation, audc_score and the decoding curve. Writes decode_summary, decode_trials, \
        decoding_curve, model, impulse_response and anomalies. Deterministic: PMB's random tie-breaking is off.

        EXAMPLES:
          nt-analyze decode mindaffectBCI_exampledata.txt -o decoded.h5
          nt-analyze decode mindaffectBCI_*.txt -o decoded/ --keep-going
          nt-analyze decode session.txt -o curve.csv --table decoding_curve --tau-ms 300
          nt-analyze decode session.txt -o decoded.h5 --stopband 45,65 --stopband 3,25,bandpass
        """)

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions

    @Option(help: "Rate after decimation, Hz (PMB fs_out).")
    var fsOut: Double = 100

    @Option(name: .customLong("stopband"), help: ArgumentHelp(
        "A filter stage: LOW,HIGH stops the band, LOW,HIGH,bandpass passes it (PMB notation; repeat for a cascade, in order; 'none' for no filter). Default: 45,65 then 5.5,25,bandpass.",
        valueName: "band"))
    var stopbands: [String] = []

    @Option(help: "Butterworth order of each filter stage.")
    var filterOrder: Int = 6

    @Option(help: "A stimulus gap above this many ms starts a trial (PMB iti_ms).")
    var itiMs: Double = 1000

    @Option(help: "Trial length in ms (PMB trlen_ms); default: the --trlen-percentile of the trial durations.")
    var trlenMs: Double?

    @Option(help: "Percentile of the trial durations used as the trial length.")
    var trlenPercentile: Double = 90

    @Option(help: "Trials no longer than this fraction of the trial length are left out.")
    var minTrialFraction: Double = 0.2

    @Option(help: "Window start relative to each trial's first frame, ms (PMB offset_ms[0]).")
    var offsetBeforeMs: Double = -500

    @Option(help: "Window end after the trial length, ms (PMB offset_ms[1]).")
    var offsetAfterMs: Double = 500

    @Option(name: .customLong("event"), help: ArgumentHelp("Event types modelled (repeat): re, fe, flash. Default: re and fe.", valueName: "type"))
    var events: [EventType] = []

    @Option(help: "Impulse-response length, ms (PMB tau_ms; analyse_dataset's own default is 300).")
    var tauMs: Double = 450

    @Option(help: "CCA components (PMB rank).")
    var rank: Int = 1

    @Option(help: "EEG covariance regularisation, fraction of its median diagonal (PMB reg[0]).")
    var reg: Double = 1e-8

    @Option(help: "Relative eigenvalue cut-off when whitening the EEG covariance (PMB rcond[0]).")
    var rcondX: Double = 1e-4

    @Option(help: "Relative eigenvalue cut-off when whitening the event covariance (PMB rcond[1]).")
    var rcondY: Double = 1e-8

    @Option(help: "Outlier threshold in SDs for zeroing trials before fitting (PMB badEpThresh; trial channels at twice it).")
    var badEpThresh: Double = 6

    @Flag(inversion: .prefixedNo, help: "Remove the EEG mean from the covariances (PMB center).")
    var center = true

    @Option(help: "Cross-validation folds (contiguous, unshuffled).")
    var cvFolds: Int = 5

    @Option(help: "Integration lengths on the decoding curve.")
    var curvePoints: Int = 30

    /// The largest magnitude of a duration option, ms: a noise-tagging trial lasts seconds, and a window of hours
    /// would only ask for more memory than any machine has (an offset of 2^31 ms asked for 48 GB).
    static let longestMs = 60_000.0

    /// A duration option: finite, within ``longestMs`` either way, and positive where `positive`.
    func checkDuration(_ value: Double, _ option: String, positive: Bool) throws {
        guard value.isFinite, abs(value) <= Self.longestMs, !positive || value > 0 else {
            let range = positive ? "positive and at most \(Int(Self.longestMs)) ms" : "within ±\(Int(Self.longestMs)) ms"
            throw ValidationError("\(option) must be \(range), got \(value)")
        }
    }

    func validate() throws {
        guard fsOut > 0, fsOut.isFinite else { throw ValidationError("--fs-out must be positive, got \(fsOut)") }
        guard filterOrder >= 1 && filterOrder <= 20 else { throw ValidationError("--filter-order must be 1…20, got \(filterOrder)") }
        for band in stopbands where band != "none" && FilterSpec(argument: band) == nil {
            throw ValidationError("--stopband \(band): expected LOW,HIGH or LOW,HIGH,bandpass (Hz), or none")
        }
        try checkDuration(itiMs, "--iti-ms", positive: true)
        if let trlenMs { try checkDuration(trlenMs, "--trlen-ms", positive: true) }
        guard (0...100).contains(trlenPercentile) else { throw ValidationError("--trlen-percentile must be 0…100, got \(trlenPercentile)") }
        try checkDuration(offsetBeforeMs, "--offset-before-ms", positive: false)
        try checkDuration(offsetAfterMs, "--offset-after-ms", positive: false)
        try checkDuration(tauMs, "--tau-ms", positive: true)
        guard rank >= 1 else { throw ValidationError("--rank must be at least 1, got \(rank)") }
        guard cvFolds >= 2 else { throw ValidationError("--cv-folds must be at least 2, got \(cvFolds)") }
        guard curvePoints >= 1 else { throw ValidationError("--curve-points must be at least 1, got \(curvePoints)") }
    }

    /// The options as given.
    var decodeOptions: DecodeOptions {
        var options = DecodeOptions()
        options.skipBadLines = input.skipBadLines
        options.epoching.fsOut = fsOut
        if !stopbands.isEmpty { options.epoching.filters = stopbands.compactMap(FilterSpec.init(argument:)) }
        options.epoching.filterOrder = filterOrder
        options.epoching.itiMs = itiMs
        options.epoching.trialLengthMs = trlenMs
        options.epoching.trialLengthPercentile = trlenPercentile
        options.epoching.minTrialFraction = minTrialFraction
        options.epoching.offsetBeforeMs = offsetBeforeMs
        options.epoching.offsetAfterMs = offsetAfterMs
        if !events.isEmpty { options.model.eventTypes = events }
        options.model.tauMs = tauMs
        options.model.rank = rank
        options.model.regularisation = reg
        options.model.rcondX = rcondX
        options.model.rcondY = rcondY
        options.model.badEpochThreshold = badEpThresh
        options.model.center = center
        options.evaluation.folds = cvFolds
        options.evaluation.curvePoints = curvePoints
        return options
    }

    func run() throws {
        let runner = ToolRunner(tool: "nt-analyze", output: output)
        try runner.run {
            try runner.run(DecodeFormat(options: decodeOptions), inputs: input.inputs, output: output)
        }
    }
}

struct Codes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract: "Check a noise-code table against the regenerated Gold-code families, or print a family.",
        discussion: """
        --check prints one CSV row per code row: its generator pair, Gold index i, cyclic frame shift and \
        inversion (spec §3.3). --print writes a regenerated family in the PMB .txt layout.

        EXAMPLES:
          nt-analyze codes --check mgold_61_6521_psk_60hz.txt
          nt-analyze codes --print 65_6532 > mgold_65_6532_psk_60hz.txt
        """)

    @Option(help: "A PMB .txt code table to identify.")
    var check: String?

    @Option(help: "Print a regenerated family (65_6532, 61_6521, 61_6521_flip_balanced) in the PMB .txt layout.")
    var print: String?

    func validate() throws {
        guard (check == nil) != (print == nil) else { throw ValidationError("give exactly one of --check and --print") }
        if let print, GoldCodeFamily(rawValue: print) == nil {
            throw ValidationError("--print: unknown family \(print); known: \(GoldCodeFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let runner = ToolRunner(tool: "nt-analyze", quiet: false)
        try runner.run {
            if let name = print, let family = GoldCodeFamily(rawValue: name) {
                FileHandle.standardOutput.write(Data(family.table.pmbText().utf8))
                return
            }
            guard let path = check else { return }
            let table = try loadCodes(path).table
            let result = CodeTableCheck(table)
            FileHandle.standardOutput.write(Data(result.csv().utf8))
            let unmatched = result.matches.filter { $0.goldIndex == nil }.count
            if let family = result.exactFamily {
                runner.diagnostics.note("\(path): \(table.codes.count) codes × \(table.frameCount) frames: exactly the regenerated family \(family.rawValue)")
            } else {
                runner.diagnostics.note("\(path): \(table.codes.count) codes × \(table.frameCount) frames: no family reproduced exactly; \(unmatched) row(s) match no Gold code")
            }
        }
    }
}
