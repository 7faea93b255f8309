import Foundation
import Tables

/// Messages on stderr, at the edge: one line each, prefixed with the tool's name.
public struct Diagnostics: Sendable {
    /// The executable's name, e.g. `bt-decode`.
    public let tool: String
    /// With `--quiet`, only errors are printed.
    public let quiet: Bool

    public init(tool: String, quiet: Bool) {
        self.tool = tool
        self.quiet = quiet
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

    /// One line per anomaly code with its count, e.g. `x.bin: 3 gap, 1 resync (see the anomalies table)`.
    public func summarize(_ anomalies: [Anomaly], for source: String) {
        guard !anomalies.isEmpty else { return }
        var counts: [(String, Int)] = []
        for anomaly in anomalies {
            if let index = counts.firstIndex(where: { $0.0 == anomaly.code }) { counts[index].1 += 1 }
            else { counts.append((anomaly.code, 1)) }
        }
        note("\(source): " + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + " (see the anomalies table)")
    }

    static func writeLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
