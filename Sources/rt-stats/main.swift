import ArgumentParser
import BrainTracker
import Foundation
import Tables
import ToolSupport

extension ScoreRuleChoice: ExpressibleByArgument {}
extension SethMode: ExpressibleByArgument {}

/// `--input-format`.
enum InputFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, brt
    case sethR = "seth-r"
    /// `nil` for `auto`.
    var format: ResultsFormat? { ResultsFormat(rawValue: rawValue) }
}

/// `--trials-per-session`: a positive count, or `auto` (each session's own number of trial rows).
struct TrialsPerSession: ExpressibleByArgument {
    /// `nil` for `auto`.
    var count: Int?

    init?(argument: String) {
        if argument == "auto" { count = nil; return }
        guard let count = Int(argument), count > 0 else { return nil }
        self.count = count
    }

    init(count: Int?) { self.count = count }

    var defaultValueDescription: String { count.map(String.init) ?? "auto" }
}

/// A UTC time on the command line, `YYYY-MM-DDTHH:MM:SSZ`.
struct UTCTime: ExpressibleByArgument {
    var text: String
    var secondsSince1970: Double

    init?(argument: String) {
        guard let seconds = CivilTime.seconds(utcText: argument) else { return nil }
        (text, secondsSince1970) = (argument, seconds)
    }

    var defaultValueDescription: String { text }
}

@main
struct RTStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rt-stats",
        abstract: "BrainTracker reaction-time files: the app's SessionScore recomputed and reaction-time statistics.",
        discussion: """
        Reads BrainTrackerResultsFile.csv as the iOS app BrainTracker wrote it (CR, LF or CRLF line ends, stale \
        headers, commas in comments, the 2014 row formats) or an export of Seth Roberts' R program \
        (brain_data_raw.csv columns), detected automatically. Writes the tables trials (one row per trial row: \
        session, time, target, latency, the app's percentile recomputed, Seth Roberts' percentile, exclusion), \
        sessions (comment, start, UTC offset, trial count, completeness, stored and recomputed score, latency \
        mean/median/SD/trimmed mean, log-latency mean, Seth percentile mean and SE, difficulty-corrected mean) and \
        anomalies, as one HDF5 file or a folder of CSV files.

        EXAMPLES:
          rt-stats BrainTrackerResultsFile.csv -o out.h5 --report out.html
          rt-stats BrainTrackerResultsFile.csv -o tables/ --trials-per-session auto
          rt-stats brain_data_raw.csv -o sessions.csv --table sessions --seth-mode prospective
        """,
        version: ToolVersion.current)

    static func main() { mainAsTool() }

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions

    @Option(help: "Input format: auto (by the first line), brt or seth-r.")
    var inputFormat: InputFormatChoice = .auto

    @Option(help: "N, the app's trials per session (SessionScore denominator), or auto (= the session's trial rows).")
    var trialsPerSession = TrialsPerSession(count: 32)

    @Option(help: "Comparison set of the app's percentile: auto (by session start vs --rule-cutover), window100 or all-history.")
    var scoreRule: ScoreRuleChoice = .auto

    @Option(help: "Sessions starting before this UTC time use the all-history rule under --score-rule auto.")
    var ruleCutover = UTCTime(argument: "2014-09-18T17:43:33Z")!

    @Option(help: "Seth Roberts' comparison window per target (trials).")
    var sethWindow: Int = 400

    @Option(help: "Seth Roberts' percentile is NA when the comparison size is below this.")
    var sethMinN: Int = 5

    @Option(help: "Seth's comparison set: prospective (earlier sessions; default for BrainTracker) or final (whole input; default for R exports).")
    var sethMode: SethMode?

    @Option(help: "Trials at or below this latency (ms) are too fast for Seth's statistics.")
    var minMs: Double = 150

    @Option(help: "Trials at or above this latency (ms) are too slow for Seth's statistics.")
    var maxMs: Double = 3000

    @Option(help: "Fraction trimmed from each tail for latency_trimmed_mean_ms.")
    var trim: Double = 0.1

    @Option(help: "Runs closed by a session row with an empty ID are split where trials are more than this many minutes apart.")
    var gapMinutes: Double = 10

    func validate() throws {
        guard sethWindow > 0 else { throw ValidationError("--seth-window must be positive") }
        guard sethMinN >= 1 else { throw ValidationError("--seth-min-n must be at least 1") }
        guard minMs < maxMs else { throw ValidationError("--min-ms must be below --max-ms") }
        guard (0..<0.5).contains(trim) else { throw ValidationError("--trim must be in [0, 0.5), got \(trim)") }
        guard gapMinutes > 0 else { throw ValidationError("--gap-minutes must be positive") }
    }

    func run() throws {
        var analysis = SessionAnalysisOptions()
        analysis.trialsPerSession = trialsPerSession.count
        analysis.scoreRule = scoreRule
        analysis.ruleCutover = ruleCutover.secondsSince1970
        analysis.sethWindow = sethWindow
        analysis.sethMinN = sethMinN
        analysis.sethMode = sethMode
        analysis.minMs = minMs
        analysis.maxMs = maxMs
        analysis.trim = trim
        analysis.gapMinutes = gapMinutes
        let format = BrainTrackerFormat(options: .init(format: inputFormat.format, analysis: analysis,
                                                       skipBadLines: input.skipBadLines))
        try ToolRunner(tool: "rt-stats", output: output).run(format, inputs: input.inputs, output: output)
    }
}
