import Foundation
import Tables

/// InteractLog logs as `ilog-parse` reads them (docs/formats/interactlog.md): each log parsed and analysed on its
/// own (an iPad log with the `InteractLog.json` beside it), then the checks across logs (a participant's trial
/// in two runs; a Java log against its `_strokes.txt`/`_keys.txt` companions given as inputs too).
public struct InteractLogFormat: InputFormat {
    /// The options of a run, as the provenance records them (the analysis constants with them, as the code uses
    /// them).
    public struct Options: Sendable, Encodable {
        /// Unreadable lines become anomalies rows instead of failing the input.
        public var skipBadLines: Bool
        /// Where Java companion files are also written (`--java-companions`), if anywhere.
        public var javaCompanions: String?

        public init(skipBadLines: Bool = false, javaCompanions: String? = nil) {
            self.skipBadLines = skipBadLines
            self.javaCompanions = javaCompanions
        }

        enum CodingKeys: String, CodingKey {
            case skipBadLines = "skip_bad_lines", javaCompanions = "java_companions"
            case duplicateReleaseWindow = "duplicate_release_window_ms", spanTolerance = "span_tolerance_s"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(skipBadLines, forKey: .skipBadLines)
            try container.encodeIfPresent(javaCompanions, forKey: .javaCompanions)
            try container.encode(Stroke.duplicateReleaseWindowMs, forKey: .duplicateReleaseWindow)
            try container.encode(TrialAnalysis.spanToleranceSeconds, forKey: .spanTolerance)
        }
    }

    /// One input: a log, or a Java companion file given as an input (skipped, kept for the cross-check).
    public enum Parsed: Sendable {
        case log(TrialAnalysis)
        /// A `_strokes.txt`/`_keys.txt` file: its text when named like one (for the cross-check), and the
        /// `I_COMPANION` row.
        case companion(path: String, text: String?, note: Anomaly)
    }

    public let options: Options
    public var tableNames: [String] { InteractLogTables.names }

    public init(options: Options = Options()) { self.options = options }

    /// A companion file is set aside (its `I_COMPANION` row).
    public func isSetAside(_ parsed: Parsed) -> Bool {
        if case .companion = parsed { true } else { false }
    }

    public func read(_ input: InputSource) throws -> Parsed {
        var data = try input.contents()
        if FileNameIdentity.isCompanion(path: input.path) {
            return .companion(path: input.path, text: String(decoding: data, as: UTF8.self),
                              note: Anomaly(sourceFile: input.path, code: InteractLogAnomalies.companion,
                                            message: "a Java _strokes.txt/_keys.txt companion file, not a log: skipped"))
        }
        if JavaCompanionFiles.looksLikeCompanion(data) {
            return .companion(path: input.path, text: nil,
                              note: Anomaly(sourceFile: input.path, code: InteractLogAnomalies.companion,
                                            message: "rows of a Java _strokes.txt/_keys.txt companion file, not a log: skipped"))
        }
        let log = try ParsedLog.parse(data, sourceFile: input.path, skipBadLines: options.skipBadLines)
        data = Data()  // the log holds what it needs; the file's bytes go before the analysis
        // The iPad app's InteractLog.json beside the log, when there is one (an unreadable one is left out, as
        // a missing one is: the log's own rows do not depend on it).
        let sidecar = log.program == .ipad ? try? input.companion(at: input.sibling(named: "InteractLog.json")) : nil
        return .log(TrialAnalysis(consume log, sidecarJSON: sidecar ?? nil))
    }

    /// The analysed logs of a run after the checks across logs.
    public static func crossChecked(_ parsed: [Parsed]) -> [TrialAnalysis] {
        var analyses: [TrialAnalysis] = []
        var companionTexts: [String: String] = [:]
        for item in parsed {
            switch item {
            case .log(let analysis): analyses.append(analysis)
            case .companion(let path, let text, _): if let text { companionTexts[path] = text }
            }
        }
        TrialAnalysis.checkDuplicateTrials(&analyses)
        for index in analyses.indices where analyses[index].log.program == .java {
            let source = analyses[index].log.sourceFile
            let stem = String(source.dropLast(source.hasSuffix(".txt") ? 4 : 0))
            let strokes = companionTexts[stem + "_strokes.txt"], keys = companionTexts[stem + "_keys.txt"]
            if strokes != nil || keys != nil {
                JavaCompanionFiles.crossCheck(&analyses[index], strokesFile: strokes, keysFile: keys)
            }
        }
        return analyses
    }

    /// The tables in order, each made in slices of every log's rows (``TableBatchJoiner``) as it is written.
    public func tables(_ parsed: [Parsed]) -> FormatOutput {
        let analyses = Self.crossChecked(parsed)
        let skipped = parsed.compactMap { item -> Anomaly? in
            if case .companion(_, _, let note) = item { return note }
            return nil
        }
        let empty = InteractLogTables.emptyTables()
        let widths = InteractLogTables.fixedWidths(analyses)
        let batches = TableBatches { emit in
            for index in empty.indices {
                let fixed = widths[empty[index].name] ?? [:]
                func stored(_ table: Table) -> Table { fixed.isEmpty ? table : table.storingFixedWidth(fixed) }
                var joiner = TableBatchJoiner(first: stored(empty[index]))
                for analysis in analyses {
                    guard let count = InteractLogTables.rowCount(index, analysis) else {
                        try joiner.add(stored(InteractLogTables.table(index, analysis, rows: 0..<0)), emit: emit)
                        continue
                    }
                    for rows in TableBatchJoiner.slices(of: count) where !rows.isEmpty {
                        try joiner.add(stored(InteractLogTables.table(index, analysis, rows: rows)), emit: emit)
                    }
                }
                if index == empty.count - 1 { try joiner.add(Table.anomalies(skipped), emit: emit) }
                try joiner.finish(emit: emit)
            }
        }
        return FormatOutput(batches: batches, anomalies: analyses.flatMap(\.log.anomalies.anomalies) + skipped)
    }
}

extension InteractLogError: ReportableError {
    public var exitCode: SysExit { .dataError }
}
