import Foundation

/// The entry point of `rt-stats`' library: one input's bytes to its analysis, in either format.
public enum RTStats {
    /// Whether a text is Seth Roberts' R export: its first line starts with `"when","condition"` or
    /// `"","when","condition"` (spec §9).
    public static func detectFormat(_ text: TextLines) -> InputFormat {
        let first = text.lines.first?.text ?? ""
        return first.hasPrefix("\"when\",\"condition\"") || first.hasPrefix("\"\",\"when\",\"condition\"") ? .sethR : .brt
    }

    /// Reads and analyses one input. `format` `nil` detects it.
    public static func analyze(_ data: Data, sourceFile: String, format: InputFormat?, options: SessionAnalysisOptions,
                               skipBadLines: Bool) throws(BrainTrackerError) -> RTAnalysis {
        let text = TextLines(data)
        guard !text.isBlank else { throw .noData(file: sourceFile) }
        let detected = detectFormat(text)
        let chosen = format ?? detected
        switch chosen {
        case .brt:
            if detected == .sethR { throw .wrongFormat(file: sourceFile, expected: "a BrainTracker results file, found an R export header") }
            let file = try ResultsFile.parse(text, sourceFile: sourceFile, skipBadLines: skipBadLines)
            return ResultsFileAnalysis.analyze(file, options: options)
        case .sethR:
            if detected != .sethR { throw .wrongFormat(file: sourceFile, expected: "the R export header \"when\",\"condition\",…") }
            let export = try SethRExport.parse(text, sourceFile: sourceFile, skipBadLines: skipBadLines)
            return SethRExport.analyze(export, options: options)
        }
    }
}
