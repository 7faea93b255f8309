import Tables

/// MindAffect hub save files as `nt-analyze` reads them (docs/formats/mindaffect.md): each file parsed and
/// analysed on its own; the `samples` and `stimuli` tables share one set of channel and object columns across
/// the run, and HDF5 outputs also get each file's matrices under `/arrays/`.
public struct MindAffectFormat: InputFormat {
    /// The options of a run, as the provenance records them.
    public struct Options: Sendable, Encodable {
        public var analysis: SaveFileAnalysisOptions
        /// Unreadable lines become anomalies rows instead of failing the input.
        public var skipBadLines: Bool

        public init(analysis: SaveFileAnalysisOptions = SaveFileAnalysisOptions(), skipBadLines: Bool = false) {
            self.analysis = analysis
            self.skipBadLines = skipBadLines
        }

        enum CodingKeys: String, CodingKey { case skipBadLines = "skip_bad_lines" }

        /// The analysis options and `skip_bad_lines` side by side in one object.
        public func encode(to encoder: Encoder) throws {
            try analysis.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(skipBadLines, forKey: .skipBadLines)
        }
    }

    public let options: Options
    /// The noise codes for the per-trial code agreement (``SaveFileAnalysisOptions/codes`` names them).
    public let codes: NoiseCodeTable
    public var tableNames: [String] { SaveFileTables.names }

    public init(options: Options = Options(), codes: NoiseCodeTable = GoldCodeFamily.mgold65_6532.table) {
        self.options = options
        self.codes = codes
    }

    /// Reads a save file in chunks (it is never held whole) and analyses it.
    public func read(_ input: InputSource) throws -> SaveFileAnalysis {
        let file = try SaveFile.parse(input, skipBadLines: options.skipBadLines)
        return SaveFileAnalysis(file, options: options.analysis, codes: codes)
    }

    public func tables(_ parsed: [SaveFileAnalysis]) -> FormatOutput {
        let channels = SaveFileTables.channelCount(parsed)
        let objectIDs = SaveFileTables.objectIDs(parsed)
        let builders: [(SaveFileAnalysis) -> Table] = [SaveFileTables.messages, SaveFileTables.modes, SaveFileTables.trials]
        let lastBuilders: [(SaveFileAnalysis) -> Table] = [SaveFileTables.summary]
        let anomalies = parsed.flatMap(\.anomalies)
        // One subgroup of /arrays/ per file when there are several.
        let arrays = parsed.enumerated().flatMap { index, analysis in
            SaveFileArrays.arrays(analysis, prefix: parsed.count == 1 ? "" : "file\(index + 1)")
        }
        // A batch per file and table, as before; the per-sample and per-event tables in slices of
        // ``TableBatchJoiner/rows``, each made as it is written.
        let batches = TableBatches { emit in
            for build in builders { for analysis in parsed { try emit(build(analysis)) } }
            for analysis in parsed {
                for rows in TableBatchJoiner.slices(of: analysis.file.sampleCount) {
                    try emit(SaveFileTables.samples(analysis, channels: channels, rows: rows))
                }
            }
            for analysis in parsed {
                for rows in TableBatchJoiner.slices(of: analysis.stimuli.eventCount) {
                    try emit(SaveFileTables.stimuli(analysis, objectIDs: objectIDs, rows: rows))
                }
            }
            for build in lastBuilders { for analysis in parsed { try emit(build(analysis)) } }
            try emit(.anomalies(anomalies))
        }
        return FormatOutput(batches: batches, arrays: arrays, anomalies: anomalies)
    }
}

extension MindAffectError: ReportableError {
    public var exitCode: SysExit { .dataError }
}
