import ArgumentParser
import Foundation
import MindAffect
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
        of CSV files. `nt-analyze codes --check` identifies the rows of a noise-code table.

        EXAMPLES:
          nt-analyze mindaffectBCI_exampledata.txt -o out.h5 --report out.html
          nt-analyze mindaffectBCI_*.txt -o tables/ --keep-going
          nt-analyze session.txt -o trials.csv --table trials --iti-ms 1500
          nt-analyze mindaffectBCI_exampledata.txt -o example.vhdr
          nt-analyze codes --check mgold_65_6532_psk_60hz.txt
        """,
        version: ToolVersion.current,
        subcommands: [Analyze.self, Codes.self],
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
