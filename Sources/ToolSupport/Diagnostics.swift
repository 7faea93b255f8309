import Foundation
import Tables

/// Messages on stderr, at the edge: one line each, prefixed with the tool's name.
public struct Diagnostics: Sendable {
    /// The executable's name, e.g. `bt-decode`.
    public let tool: String
    /// With `--quiet`, only errors are printed.
    public let quiet: Bool
    /// With `--verbose`, each anomaly gets a line of its own (at most 20 per code) before an input's summary.
    public let verbose: Bool

    public init(tool: String, quiet: Bool, verbose: Bool = false) {
        self.tool = tool
        self.quiet = quiet
        self.verbose = verbose && !quiet
    }

    /// An informational line (suppressed by `--quiet`).
    public func note(_ text: String) {
        guard !quiet else { return }
        Diagnostics.writeLine("\(tool): \(text)")
    }

    /// An error line (always printed).
    public func error(_ text: String) {
        Diagnostics.writeLine("\(tool): error: \(text)")
    }

    /// What a run says about an input's anomalies: one summary line (``summarize(_:for:)``), preceded with
    /// `--verbose` by a line per anomaly, `file:line[:location]: severity CODE: message`, at most 20 per code (the
    /// anomalies table keeps them all).
    public func report(_ anomalies: [Anomaly], for source: String) {
        report(AnomalyTally(anomalies, keepingRows: verbose), for: source)
    }

    /// As above, from a tally made as the anomalies were walked (with its rows kept for `--verbose`).
    public func report(_ tally: AnomalyTally, for source: String) {
        if verbose {
            for anomaly in tally.rows {
                let place = [anomaly.line.map(String.init), anomaly.location].compactMap { $0 }.joined(separator: ":")
                note("\(source)\(place.isEmpty ? "" : ":" + place): \(anomaly.severity.rawValue) \(anomaly.code): \(anomaly.message)")
            }
        }
        summarize(tally, for: source)
    }

    /// One line per input with each anomaly code and its count, e.g.
    /// `x.bin: 3 I_GAP, 1 W_RESYNC (see the anomalies table)`.
    public func summarize(_ anomalies: [Anomaly], for source: String) {
        summarize(AnomalyTally(anomalies, keepingRows: false), for: source)
    }

    /// As above, from a tally.
    public func summarize(_ tally: AnomalyTally, for source: String) {
        guard !tally.isEmpty else { return }
        note("\(source): " + tally.counts.map { "\($0.count) \($0.code)" }.joined(separator: ", ") + " (see the anomalies table)")
    }

    static func writeLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
