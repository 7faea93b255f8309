import Foundation
import Tables

/// BrainTracker reaction-time files as `rt-stats` reads them (docs/formats/braintracker.md): the app's
/// `BrainTrackerResultsFile.csv` or an export of Seth Roberts' R program, each into its trials and sessions with
/// the app's SessionScore recomputed.
public struct BrainTrackerFormat: InputFormat {
    /// The options of a run, as the provenance records them.
    public struct Options: Sendable, Encodable {
        /// The input format; `nil` detects it from the first line.
        public var format: ResultsFormat?
        public var analysis: SessionAnalysisOptions
        /// Unreadable lines become anomalies rows instead of failing the input.
        public var skipBadLines: Bool

        public init(format: ResultsFormat? = nil, analysis: SessionAnalysisOptions = SessionAnalysisOptions(),
                    skipBadLines: Bool = false) {
            self.format = format
            self.analysis = analysis
            self.skipBadLines = skipBadLines
        }

        enum CodingKeys: String, CodingKey { case format = "input_format", analysis, skipBadLines = "skip_bad_lines" }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(format?.rawValue ?? "auto", forKey: .format)
            try container.encode(analysis, forKey: .analysis)
            try container.encode(skipBadLines, forKey: .skipBadLines)
        }
    }

    public let options: Options
    public var tableNames: [String] { BrainTrackerTables.names }

    public init(options: Options = Options()) { self.options = options }

    public func read(_ input: InputSource) throws -> RTAnalysis {
        try Self.analyze(try input.contents(), sourceFile: input.path, format: options.format,
                         options: options.analysis, skipBadLines: options.skipBadLines)
    }

    /// The tables in order, a batch per input, the trials made in slices of ``TableBatchJoiner/rows`` as they
    /// are written.
    public func tables(_ parsed: [RTAnalysis]) -> FormatOutput {
        let anomalies = parsed.flatMap(\.anomalies)
        let widths = BrainTrackerTables.trialWidths(parsed)
        let batches = TableBatches { emit in
            for analysis in parsed {
                for rows in TableBatchJoiner.slices(of: analysis.trials.count) {
                    try emit(BrainTrackerTables.trials(analysis, rows: rows).storingFixedWidth(widths))
                }
            }
            for analysis in parsed { try emit(BrainTrackerTables.sessions(analysis)) }
            try emit(.anomalies(anomalies))
        }
        return FormatOutput(batches: batches, anomalies: anomalies)
    }

    /// Whether a text is Seth Roberts' R export: its first line starts with `"when","condition"` or
    /// `"","when","condition"` (spec §9).
    public static func detectFormat(_ text: TextLines) -> ResultsFormat {
        let first = text.firstLine?.text ?? ""
        return first.hasPrefix("\"when\",\"condition\"") || first.hasPrefix("\"\",\"when\",\"condition\"") ? .sethR : .brt
    }

    /// Reads and analyses one input's bytes. `format` `nil` detects it.
    public static func analyze(_ data: consuming Data, sourceFile: String, format: ResultsFormat?,
                               options: SessionAnalysisOptions, skipBadLines: Bool) throws(BrainTrackerError) -> RTAnalysis {
        // The text holds the bytes until the rows are read; the analysis keeps only what its tables need.
        var text = TextLines(consume data)
        guard !text.isBlank else { throw .noData(file: sourceFile) }
        let detected = detectFormat(text)
        let chosen = format ?? detected
        switch chosen {
        case .brt:
            if detected == .sethR { throw .wrongFormat(file: sourceFile, expected: "a BrainTracker results file, found an R export header") }
            let file = try ResultsFile.parse(text, sourceFile: sourceFile, skipBadLines: skipBadLines)
            text = TextLines(Data())
            return ResultsFileAnalysis.analyze(consume file, options: options)
        case .sethR:
            if detected != .sethR { throw .wrongFormat(file: sourceFile, expected: "the R export header \"when\",\"condition\",…") }
            let export = try SethRExport.parse(text, sourceFile: sourceFile, skipBadLines: skipBadLines)
            return SethRExport.analyze(export, options: options)
        }
    }
}

extension BrainTrackerError: ReportableError {
    public var exitCode: SysExit { .dataError }
}
