import Foundation
import Tables

/// A table as written by a run: its name, its rows and its columns with units (for the report's list).
public struct TableSummary: Sendable, Equatable {
    public var name: String
    public var rows: Int
    public var columns: [String]
    public var units: [String]

    public init(name: String, rows: Int, columns: [String], units: [String]) {
        self.name = name
        self.rows = rows
        self.columns = columns
        self.units = units
    }
}

/// A run's whole report page: what the run read and wrote (inputs, failed inputs, anomalies by severity and code,
/// tables, provenance) around the format's own sections (``ReportingFormat``).
public struct RunReport: Sendable {
    public var provenance: Provenance
    /// The `-o` path.
    public var output: String
    public var tables: [TableSummary]
    public var anomalies: AnomalySummary
    /// Inputs that failed under `--keep-going`, with their message.
    public var failures: [(input: String, message: String)]
    public var formatPage: ReportPage

    public init(provenance: Provenance, output: String, tables: [TableSummary], anomalies: AnomalySummary,
                failures: [(input: String, message: String)], formatPage: ReportPage) {
        self.provenance = provenance
        self.output = output
        self.tables = tables
        self.anomalies = anomalies
        self.failures = failures
        self.formatPage = formatPage
    }

    /// Rows of the anomaly list shown (the rest are counted in the summary table).
    public static let anomalyRowsShown = 200

    /// The HTML document (not yet sealed: see `Tables.ReportFile`).
    public func html() -> String {
        let inputs = provenance.inputs
        let subject = inputs.count == 1 ? inputs[0].path : "\(inputs.count) inputs"
        let page = ReportPage(title: "\(provenance.tool) report: \(subject)",
                              sections: [runSection()] + formatPage.sections
                                  + [anomalySection(), tableSection(), provenanceSection()])
        return HTMLDocument.render(page, generator: "BrainBatch \(provenance.tool) \(provenance.version)",
                                   lead: formatPage.title)
    }

    /// A report of every row of `anomalies` (for a run whose rows are all made anyway, and tests).
    public init(provenance: Provenance, output: String, tables: [TableSummary], anomalies: [Anomaly],
                failures: [(input: String, message: String)], formatPage: ReportPage) {
        self.init(provenance: provenance, output: output, tables: tables, anomalies: AnomalySummary(anomalies),
                  failures: failures, formatPage: formatPage)
    }

    private func count(_ severity: AnomalySeverity) -> Int { anomalies.total(severity) }

    func runSection() -> ReportSection {
        var blocks: [ReportBlock] = [.facts([
            ("tool", "\(provenance.tool) \(provenance.version)"),
            ("output", output),
            ("files read", String(provenance.inputs.count) + " (inputs and the files read with them)"),
            ("inputs failed", String(failures.count)),
            ("anomalies", "\(count(.error)) errors, \(count(.warning)) warnings, \(count(.info)) notes"),
        ])]
        blocks.append(.table(ReportTable(
            caption: "Inputs", header: ["input", "size (bytes)", "SHA-256"],
            rows: provenance.inputs.map { [$0.path, String($0.size), $0.sha256] }, numericColumns: [1], limit: 50,
            id: "inputs")))
        if !failures.isEmpty {
            blocks.append(.table(ReportTable(
                caption: "Failed inputs (nothing of them is in the tables)", header: ["input", "message"],
                rows: failures.map { [$0.input, $0.message] }, rowClasses: failures.map { _ in "error" },
                id: "failed-inputs")))
        }
        return ReportSection(id: "run", heading: "Run", blocks: blocks)
    }

    func anomalySection() -> ReportSection {
        guard !anomalies.isEmpty else {
            return ReportSection(id: "anomalies", heading: "Anomalies", blocks: [.paragraph("No anomalies.")])
        }
        // Counts by input, severity and code, inputs in the order seen, errors first.
        var order: [String] = []
        var counts: [String: [String: (AnomalySeverity, Int)]] = [:]
        for entry in anomalies.counts {
            if counts[entry.input] == nil { order.append(entry.input); counts[entry.input] = [:] }
            counts[entry.input]![entry.code] = (entry.severity, entry.count)
        }
        let rank: [AnomalySeverity: Int] = [.error: 0, .warning: 1, .info: 2]
        var rows: [[String]] = [], classes: [String?] = []
        for input in order {
            let entries = counts[input]!.sorted { a, b in
                rank[a.value.0]! != rank[b.value.0]! ? rank[a.value.0]! < rank[b.value.0]! : a.key < b.key
            }
            for (code, value) in entries {
                rows.append([input, value.0.rawValue, code, String(value.1)])
                classes.append(value.0 == .info ? nil : value.0.rawValue)
            }
        }
        var blocks: [ReportBlock] = [.table(ReportTable(
            caption: "Anomalies by input, severity and code", header: ["input", "severity", "code", "count"],
            rows: rows, numericColumns: [3], limit: 100, rowClasses: classes, id: "anomaly-counts"))]
        // The first errors and warnings, without copying every row (a 10-hour capture has tens of thousands of notes).
        let seriousCount = count(.error) + count(.warning)
        if seriousCount > 0 {
            let shown = anomalies.firstSerious
            let list = ReportTable(
                header: ["input", "line", "location", "code", "message"],
                rows: shown.map { [$0.sourceFile, $0.line.map(String.init) ?? "", $0.location ?? "", $0.code, $0.message] },
                numericColumns: [1], rowClasses: shown.map { $0.severity.rawValue }, id: "anomaly-list")
            let more = seriousCount > shown.count ? " (the first \(shown.count); all are in the anomalies table)" : ""
            let noun = seriousCount == 1 ? "error or warning" : "errors and warnings"
            blocks.append(.details(summary: "\(seriousCount) \(noun)\(more)", [.table(list)]))
        }
        blocks.append(.note("Notes (I_ codes) are counted above and listed in the anomalies table."))
        return ReportSection(id: "anomalies", heading: "Anomalies", blocks: blocks)
    }

    func tableSection() -> ReportSection {
        let rows = tables.map { table in
            [table.name, String(table.rows),
             zip(table.columns, table.units).map { $1.isEmpty ? $0 : "\($0) (\(Self.shortUnit($1)))" }.joined(separator: ", ")]
        }
        return ReportSection(id: "tables", heading: "Tables written", blocks: [
            .paragraph("Written to \(output)."),
            .table(ReportTable(header: ["table", "rows", "columns (unit)"], rows: rows, numericColumns: [1],
                               id: "tables-written")),
        ])
    }

    /// A unit short enough for a list: a long one (`SDK magnitude: 2·|DFT| …`) up to its colon.
    static func shortUnit(_ unit: String) -> String {
        guard unit.count > 16 else { return unit }
        return unit.split(separator: ":", maxSplits: 1).first.map { String($0) + "…" } ?? unit
    }

    func provenanceSection() -> ReportSection {
        ReportSection(id: "provenance", heading: "Provenance", blocks: [
            .paragraph("The same provenance as the table output's: tool, version, command line, each input's size and SHA-256, and the parameters that changed a number."),
            .code(String(decoding: provenance.jsonDocument(), as: UTF8.self)),
        ])
    }
}
